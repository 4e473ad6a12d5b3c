#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
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

Expected<Done> create_report_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot create the directory (" + ec.message() + ")"};
  return Done{};
}

}  // namespace

Expected<Done> prepare_report_dir(const std::string& dir) {
  auto created = create_report_dir(dir);
  if (!created) return created;
  const auto probe = std::filesystem::path(dir) / ".ibkit-write-test";
  if (!std::ofstream(probe, std::ios::binary | std::ios::trunc)) {
    return Error{dir + ": cannot write a file there (" + std::strerror(errno) + ")"};
  }
  std::error_code ignored;
  std::filesystem::remove(probe, ignored);
  return Done{};
}

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
  if (auto created = create_report_dir(dir); !created) return created.error();
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
