#include "cli/sweep_files.hpp"

#include <ostream>

#include "report/sweep_render.hpp"

namespace ibkit {

int write_sweep_files(Console& console, const std::string& command, const SweepReport& report,
                      const std::string& dir, const std::vector<std::string>& formats, int status,
                      int unwritten_status) {
  auto written = write_sweep_reports(report, dir, formats);
  if (!written) {
    console.err << "ibkit " << command << ": --output " << written.error().message << "\n";
    return unwritten_status;
  }
  for (const auto& path : *written) console.out << "wrote " << path << "\n";
  return status;
}

}  // namespace ibkit
