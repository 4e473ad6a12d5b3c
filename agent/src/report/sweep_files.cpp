#include "report/sweep_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "util/files/file_write.hpp"
#include "util/posix_error.hpp"

namespace ibkit {
namespace {

// The file validate.yml words its verdict from; report_files() lists it last.
constexpr const char* kVerdictFile = "summary.json";

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
  if (auto probed = probe_writable_directory(dir); !probed) {
    return Error{dir + ": cannot write a file there (" + probed.error().message + ")"};
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
  // Every file is written in full before any is moved in: a disk that fills, or an error, leaves
  // the previous set whole. summary.json, the verdict validate.yml reads, goes first and comes
  // back last, so an interrupted move leaves no verdict rather than the last run's beside this
  // run's files; a run that writes no summary.json leaves none of another run's.
  std::vector<StagedFile> staged;
  for (const auto& file : report_files()) {
    if (!chosen(formats, file.format)) continue;
    // A report of checks alone has no pair matrices: no CSV files rather than empty ones, and
    // none of another run's left beside it.
    if (std::string_view(file.format) == "csv" && report.pairs.empty()) {
      const auto stale = std::filesystem::path(dir) / file.name;
      if (std::remove(stale.c_str()) != 0 && errno != ENOENT)
        return Error{stale.string() + ": cannot remove the last run's matrix (" +
                     errno_text(errno) + ")"};
      continue;
    }
    auto written =
        stage_file((std::filesystem::path(dir) / file.name).string(), file.render(report));
    if (!written) return written.error();
    staged.push_back(std::move(*written));
  }
  const auto verdict = std::filesystem::path(dir) / kVerdictFile;
  if (std::remove(verdict.c_str()) != 0 && errno != ENOENT)
    return Error{verdict.string() + ": cannot remove the last run's verdict (" + errno_text(errno) +
                 ")"};
  std::vector<std::string> written;
  for (auto& file : staged) {
    if (auto moved = file.move_into_place(); !moved) return moved.error();
    written.push_back(file.path());
  }
  return written;
}

}  // namespace ibkit
