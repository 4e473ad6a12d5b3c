#include "report/sweep_text.hpp"

#include "model/pair_warnings.hpp"
#include "model/sweep_report.hpp"
#include "report/baseline_lines.hpp"
#include "report/check_text.hpp"
#include "report/first_causes.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_rules.hpp"
#include "report/text_table.hpp"
#include "util/text.hpp"
#include "util/text_wrap.hpp"

namespace ibkit {
namespace {

std::string painted(const std::string& text, const char* colour, bool on) {
  return on ? std::string(colour) + text + "\033[0m" : text;
}

// "TAG  text", a reason of any length wrapped to `width` under the text's start.
std::string tagged_line(const std::string& tag, const char* colour, bool on,
                        const std::string& text, std::size_t width) {
  const std::size_t lead = display_width(tag) + 2;
  return hanging_lines(painted(tag, colour, on) + "  ", lead, lead, terminal_safe(text), width);
}

// A sentence of its own (a rule, a baseline's change), its later lines indented.
std::string paragraph(const std::string& text, std::size_t width) {
  return hanging_lines("", 0, 2, terminal_safe(text), width);
}

}  // namespace

std::string render_sweep_text(const SweepReport& report, bool colour, std::size_t width) {
  std::string out =
      "ibkit report: " + count_of(report.nodes.size(), "node", "nodes") + ", " +
      (report.pairs.empty()
           ? std::string()
           : count_of(report.pairs.size(), "pair", "pairs") + " in " +
                 count_of(static_cast<std::size_t>(report.rounds), "round", "rounds") + ", ") +
      count_of(report.node_checks.size(), "node check report", "node check reports") +
      (report.fabric_checks.empty()
           ? std::string()
           : ", " + count_of(report.fabric_checks.size(), "fabric report", "fabric reports")) +
      "\n";
  if (report.baseline) {
    for (const auto& line : baseline_lines(*report.baseline)) out += paragraph(line, width);
  }
  for (const auto& blame : report.blamed) {
    out += tagged_line("blamed", "\033[31m", colour,
                       blame.node + ": " + blame_with_checks(report, blame), width);
  }
  for (const auto& blame : report.blamed_links) {
    out += tagged_line("blamed", "\033[31m", colour, "link " + blame.link + ": " + blame.reason,
                       width);
  }
  std::size_t bad_pairs = 0;
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kPass) continue;
    ++bad_pairs;
    out += tagged_line(
        std::string(pair_status_name(pair.status)), "\033[31m", colour,
        pair_label(pair, report.rails) + ": " + pair.reason + " (" + pair_summary(pair) + ")",
        width);
  }
  for (const auto& warned : warned_pairs(report)) {
    for (const auto* result : warned.results) {
      out += tagged_line(
          "warn", "\033[33m", colour,
          pair_label(*warned.pair, report.rails) + ": " + result->id + ": " + result->observed,
          width);
    }
  }
  for (const auto& line : judgment_lines(report)) out += paragraph(line, width);
  std::size_t failed_nodes = 0;
  for (const auto& check : report.node_checks) {
    if (!any_failed(check.results)) {
      out +=
          painted("pass", "\033[32m", colour) + "  checks on " + terminal_safe(check.host) + "\n";
      continue;
    }
    ++failed_nodes;
    out += "\nchecks on " + terminal_safe(check.host) + ":\n" +
           render_results_table(check.results, colour, width) + "\n";
  }
  std::size_t failed_fabrics = 0;
  for (const auto& fabric : report.fabric_checks) {
    if (!any_failed(fabric.results)) {
      out += painted("pass", "\033[32m", colour) + "  fabric as discovered from " +
             terminal_safe(fabric_origin(fabric)) + "\n";
      continue;
    }
    ++failed_fabrics;
    out += "\nfabric as discovered from " + terminal_safe(fabric_origin(fabric)) + ":\n" +
           render_results_table(fabric.results, colour, width) + "\n";
  }
  const bool failed = sweep_failed(report);
  return out + painted(failed ? "FAIL" : "PASS", failed ? "\033[31m" : "\033[32m", colour) + ": " +
         (report.pairs.empty()
              ? std::string()
              : "blamed nodes " + std::to_string(report.blamed.size()) +
                    (report.blamed_links.empty()
                         ? std::string()
                         : ", blamed links " + std::to_string(report.blamed_links.size())) +
                    ", pairs not passed " + std::to_string(bad_pairs) + " of " +
                    std::to_string(report.pairs.size()) + ", ") +
         "failed node checks " + std::to_string(failed_nodes) + " of " +
         std::to_string(report.node_checks.size()) +
         (report.fabric_checks.empty()
              ? std::string()
              : ", failed fabric reports " + std::to_string(failed_fabrics) + " of " +
                    std::to_string(report.fabric_checks.size())) +
         "\n";
}

}  // namespace ibkit
