#include "cli/output.hpp"

#include <ostream>

#include "util/exit_codes.hpp"
#include "util/files/file_write.hpp"

namespace ibkit {

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
