#include "report/sweep_files.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "util/file_write.hpp"

namespace ibkit {
namespace {

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
  if (auto problem = probe_writable_directory(dir); !problem.empty()) {
    return Error{dir + ": cannot write a file there (" + problem + ")"};
  }
  return Done{};
}

Expected<std::vector<std::string>> write_sweep_reports(const SweepReport& report,
                                                       const std::string& dir,
                                                       const std::vector<std::string>& formats) {
  for (const auto& format : formats) {
    const auto known = report_file_formats();
    if (format != "all" && std::find(known.begin(), known.end(), format) == known.end())
      return Error{"no report format \"" + format + "\" (" + format_words(known, ", ") + ", all)"};
  }
  if (auto created = create_report_dir(dir); !created) return created.error();
  std::vector<std::string> written;
  for (const auto& file : report_files()) {
    if (!chosen(formats, file.format)) continue;
    const std::string path = (std::filesystem::path(dir) / file.name).string();
    if (auto problem = write_file_atomically(path, file.render(report)); !problem.empty())
      return Error{problem};
    written.push_back(path);
  }
  return written;
}

}  // namespace ibkit
