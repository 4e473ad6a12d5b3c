#include "cli/report_files.hpp"

#include <ostream>

#include "model/sweep_report.hpp"
#include "report/sweep_files.hpp"

namespace ibkit {

int write_report_files(Console& console, const std::string& command, const SweepReport& report,
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
