#include "report/check_text.hpp"

#include <algorithm>
#include <map>

#include "model/check_report.hpp"
#include "report/text_table.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Where an id, a subject or an observed value wraps: an observed list of ports or a long node
// description goes on below instead of pushing the rest of its row off to the right.
constexpr std::size_t kWidestColumn = 44;
constexpr std::string_view kHintLead = "        -> ";

const char* colour_of(Status status) {
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

std::string render_results_table(const CheckResults& results, bool colour, std::size_t width) {
  TextTable table({{"STATUS", 6},
                   {"CHECK", kWidestColumn},
                   {"SUBJECT", kWidestColumn},
                   {"OBSERVED", kWidestColumn},
                   {"EXPECTED", 0}},
                  width);
  std::map<Status, int> counts;
  for (const auto& result : results) {
    ++counts[result.status];
    const ShownResult row = shown(result);
    table.add_row(
        {{std::string(status_name(result.status)), colour ? colour_of(result.status) : ""},
         {row.id},
         {row.subject},
         {row.observed},
         {row.expected}});
    if (result.status != Status::kPass && !row.hint.empty())
      table.add_note(std::string(kHintLead), row.hint);
  }
  std::string out = table.render();
  const bool failed = any_failed(results);
  std::string verdict = failed ? "FAIL" : "PASS";
  if (colour) verdict = colour_of(failed ? Status::kFail : Status::kPass) + verdict + "\033[0m";
  out += verdict + ": " + std::to_string(counts[Status::kPass]) + " passed, " +
         std::to_string(counts[Status::kFail]) + " failed, " +
         std::to_string(counts[Status::kWarn]) + " warnings, " +
         std::to_string(counts[Status::kSkip]) + " skipped\n";
  return out;
}

std::string render_check_text(const CheckReport& report, bool colour, std::size_t width) {
  return terminal_safe("ibkit " + report.command + " on " + report.host +
                       " (config: " + report.config_source + ")") +
         "\n" + render_results_table(report.results, colour, width);
}

}  // namespace ibkit
