#include "cli/output.hpp"

#include <cstdlib>
#include <ostream>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/exit_codes.hpp"
#include "util/files/file_write.hpp"
#include "util/text.hpp"

namespace ibkit {

std::size_t text_width(int fd) {
  if (isatty(fd) != 1) return kReportWidth;
  if (const char* columns = std::getenv("COLUMNS")) {
    if (const auto given = parse_unsigned(columns); given && *given > 0 && *given <= 10000)
      return static_cast<std::size_t>(*given);
  }
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return kReportWidth;
}

bool report_to_stdout(const std::string& output) { return output.empty() || output == "-"; }

int deliver_report(Console& console, const std::string& command, const std::string& output,
                   const std::string& rendered, const std::string& text, int status) {
  if (report_to_stdout(output)) {
    console.out << rendered;
    return status;
  }
  console.out << text;
  if (auto written = write_file_atomically(output, rendered); !written) {
    console.err << "ibkit " << command << ": --output " << written.error().message << "\n";
    return kExitUsage;
  }
  return status;
}

}  // namespace ibkit
