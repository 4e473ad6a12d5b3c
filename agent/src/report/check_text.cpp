#include "report/check_text.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include "model/check_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kMaxColumn = 44;

std::string colour_of(Status status) {
  switch (status) {
    case Status::kPass:
      return "\033[32m";
    case Status::kWarn:
      return "\033[33m";
    case Status::kFail:
      return "\033[31m";
    case Status::kSkip:
      return "\033[2m";
  }
  return "";
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// A result's texts as the table shows them: a node description or a port's name comes from the
// fabric, and may hold what would rewrite the terminal.
struct ShownResult {
  std::string id, subject, observed, expected, hint;
};

ShownResult shown(const CheckResult& result) {
  return {terminal_safe(result.id), terminal_safe(result.subject), terminal_safe(result.observed),
          terminal_safe(result.expected), terminal_safe(result.hint)};
}

}  // namespace

std::string render_results_table(const CheckResults& results, bool colour) {
  std::vector<ShownResult> rows;
  rows.reserve(results.size());
  for (const auto& result : results) rows.push_back(shown(result));
  std::array<std::size_t, 3> width{4, 7, 8};  // id, subject, observed
  for (const auto& row : rows) {
    width[0] = std::max(width[0], std::min(row.id.size(), kMaxColumn));
    width[1] = std::max(width[1], std::min(row.subject.size(), kMaxColumn));
    width[2] = std::max(width[2], std::min(row.observed.size(), kMaxColumn));
  }
  std::string out = "STATUS  " + padded("CHECK", width[0]) + "  " + padded("SUBJECT", width[1]) +
                    "  " + padded("OBSERVED", width[2]) + "  EXPECTED\n";
  std::map<Status, int> counts;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult& result = results[i];
    const ShownResult& row = rows[i];
    ++counts[result.status];
    std::string status = padded(std::string(status_name(result.status)), 6);
    if (colour) status = colour_of(result.status) + status + "\033[0m";
    out += status + "  " + padded(row.id, width[0]) + "  " + padded(row.subject, width[1]) + "  " +
           padded(row.observed, width[2]) + "  " + row.expected + "\n";
    if (result.status != Status::kPass && !row.hint.empty()) {
      out += "        -> " + row.hint + "\n";
    }
  }
  const bool failed = any_failed(results);
  std::string verdict = failed ? "FAIL" : "PASS";
  if (colour) verdict = colour_of(failed ? Status::kFail : Status::kPass) + verdict + "\033[0m";
  out += verdict + ": " + std::to_string(counts[Status::kPass]) + " passed, " +
         std::to_string(counts[Status::kFail]) + " failed, " +
         std::to_string(counts[Status::kWarn]) + " warnings, " +
         std::to_string(counts[Status::kSkip]) + " skipped\n";
  return out;
}

std::string render_check_text(const CheckReport& report, bool colour) {
  return terminal_safe("ibkit " + report.command + " on " + report.host +
                       " (config: " + report.config_source + ")") +
         "\n" + render_results_table(report.results, colour);
}

}  // namespace ibkit
