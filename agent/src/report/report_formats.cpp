#include "report/report_formats.hpp"

#include <algorithm>
#include <iterator>

#include "report/html/sweep_html.hpp"
#include "report/sweep_csv.hpp"
#include "report/sweep_junit.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_text.hpp"
#include "schema/sweep_report_json.hpp"
#include "schema/verdict_summary_json.hpp"

namespace ibkit {
namespace {

std::string latency_csv(const SweepReport& report) {
  return render_sweep_csv(report, "latency_us");
}
std::string bandwidth_csv(const SweepReport& report) {
  return render_sweep_csv(report, "bandwidth_gbps");
}

constexpr ReportFile kFiles[] = {
    {"json", "report.json", render_sweep_json, false},
    {"junit", "junit.xml", render_sweep_junit, false},
    {"md", "summary.md", render_sweep_markdown, false},
    {"csv", "latency.csv", latency_csv, false},
    {"csv", "bandwidth.csv", bandwidth_csv, false},
    {"html", "report.html", render_sweep_html, false},
    // What wording report.json's verdict needs, for readers that should not load it.
    {"json", "summary.json", render_verdict_summary_json, true},
};

std::size_t files_of(std::string_view format) {
  return static_cast<std::size_t>(
      std::count_if(std::begin(kFiles), std::end(kFiles),
                    [&](const ReportFile& f) { return !f.companion && f.format == format; }));
}

}  // namespace

std::span<const ReportFile> report_files() { return kFiles; }

std::vector<std::string> report_file_names() {
  std::vector<std::string> names;
  for (const auto& file : kFiles) names.emplace_back(file.name);
  return names;
}

std::vector<std::string> report_file_formats() {
  std::vector<std::string> words;
  for (const auto& file : kFiles) {
    if (std::find(words.begin(), words.end(), file.format) == words.end())
      words.push_back(file.format);
  }
  return words;
}

std::vector<std::string> report_stdout_formats() {
  std::vector<std::string> words{"text"};
  for (const auto& word : report_file_formats()) {
    if (files_of(word) == 1) words.push_back(word);
  }
  return words;
}

std::string format_words(const std::vector<std::string>& words, std::string_view last_join) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? std::string(last_join) : std::string(", ");
    out += words[i];
  }
  return out;
}

std::string render_report(const SweepReport& report, std::string_view format, bool colour,
                          std::size_t width) {
  if (files_of(format) == 1) {
    for (const auto& file : kFiles) {
      if (!file.companion && file.format == format) return file.render(report);
    }
  }
  return render_sweep_text(report, colour, width);
}

}  // namespace ibkit
