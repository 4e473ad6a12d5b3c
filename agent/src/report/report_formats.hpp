#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/sweep_report.hpp"
#include "report/text_table.hpp"

namespace ibkit {

// One file a sweep report is written as: the --format word that picks it, its name in the
// output directory, and its renderer. The one list every --format check and help text of
// `ibkit sweep` and `ibkit report` comes from.
struct ReportFile {
  const char* format;
  const char* name;
  std::string (*render)(const SweepReport&);
  // Written beside its format's own file (summary.json beside report.json), never printed on
  // stdout in its place.
  bool companion = false;
};

// Every report file, in the order they are written ("csv" picks two).
std::span<const ReportFile> report_files();

// The names of every report file, in the order they are written: the --output help of
// `ibkit sweep` and `ibkit report`.
std::vector<std::string> report_file_names();

// The --format words of the report files, each once: json, junit, md, csv, html.
std::vector<std::string> report_file_formats();

// The formats `ibkit report` prints on stdout: text, and every format that is one file.
std::vector<std::string> report_stdout_formats();

// "json, junit, md, csv or html": `words` for a message or a help text.
std::string format_words(const std::vector<std::string>& words, std::string_view last_join);

// `report` in one stdout format (report_stdout_formats); text (within `width` columns) for a
// word that is not one.
std::string render_report(const SweepReport& report, std::string_view format, bool colour,
                          std::size_t width = kReportWidth);

}  // namespace ibkit
