#include <algorithm>
#include <filesystem>
#include <system_error>

#include "report/sweep_render.hpp"
#include "util/file_write.hpp"

namespace ibkit {
namespace {

struct ReportFile {
  const char* format;
  const char* name;
  std::string (*render)(const SweepReport&);
};

std::string latency_csv(const SweepReport& report) {
  return render_sweep_csv(report, "latency_us");
}
std::string bandwidth_csv(const SweepReport& report) {
  return render_sweep_csv(report, "bandwidth_gbps");
}

constexpr ReportFile kFiles[] = {
    {"json", "report.json", render_sweep_json},  {"junit", "junit.xml", render_sweep_junit},
    {"md", "summary.md", render_sweep_markdown}, {"csv", "latency.csv", latency_csv},
    {"csv", "bandwidth.csv", bandwidth_csv},     {"html", "report.html", render_sweep_html},
};

bool chosen(const std::vector<std::string>& formats, const std::string& format) {
  return std::find(formats.begin(), formats.end(), format) != formats.end() ||
         std::find(formats.begin(), formats.end(), "all") != formats.end();
}

}  // namespace

Expected<std::vector<std::string>> write_sweep_reports(const SweepReport& report,
                                                       const std::string& dir,
                                                       const std::vector<std::string>& formats) {
  for (const auto& format : formats) {
    const bool known = format == "all" ||
                       std::any_of(std::begin(kFiles), std::end(kFiles),
                                   [&](const ReportFile& file) { return file.format == format; });
    if (!known)
      return Error{"no report format \"" + format + "\" (json, junit, md, csv, html, all)"};
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot create the directory (" + ec.message() + ")"};
  std::vector<std::string> written;
  for (const auto& file : kFiles) {
    if (!chosen(formats, file.format)) continue;
    const std::string path = (std::filesystem::path(dir) / file.name).string();
    if (auto problem = write_file_atomically(path, file.render(report)); !problem.empty())
      return Error{problem};
    written.push_back(path);
  }
  return written;
}

}  // namespace ibkit
