#include "sweep/sweep_summary.hpp"

#include <algorithm>
#include <map>

#include "model/sweep_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// "; a pair took 0.23 s on average, 0.31 s at most" over the pairs that ran.
std::string pair_times(const SweepReport& report) {
  double total = 0;
  double longest = 0;
  int ran = 0;
  for (const auto& pair : report.pairs) {
    if (pair.attempts == 0) continue;
    total += pair.seconds;
    longest = std::max(longest, pair.seconds);
    ++ran;
  }
  if (ran == 0) return "";
  return "; a pair took " + format_number(total / ran, 3) + " s on average, " +
         format_number(longest, 3) + " s at most";
}

}  // namespace

std::string sweep_headline(const SweepReport& report) {
  std::map<std::string, int> counts;
  for (const auto& pair : report.pairs) ++counts[std::string(pair_status_name(pair.status))];
  std::vector<std::string> parts;
  for (const auto& [status, count] : counts) parts.push_back(std::to_string(count) + " " + status);
  const std::string untested_nodes = untested_text(report);
  const std::string untested =
      untested_nodes.empty() ? "" : "; FAIL: " + terminal_safe(untested_nodes);
  // A sweep that ended before its schedule (every node down) has no pattern to name.
  const std::string pattern = report.pattern.empty() ? "" : terminal_safe(report.pattern) + ", ";
  const std::string tests = report.tests.empty() ? "" : ", tests " + join(report.tests, ",");
  return "ibkit sweep: " + pattern + count_of(report.nodes.size(), "node", "nodes") + ", " +
         count_of(static_cast<std::size_t>(report.rounds), "round", "rounds") + " x " +
         count_of(static_cast<std::size_t>(report.rails), "rail", "rails") + tests + ": " +
         count_of(report.pairs.size(), "pair", "pairs") +
         (parts.empty() ? "" : " (" + join(parts, ", ") + ")") + " in " +
         format_number(report.wall_seconds) + " s" + pair_times(report) + untested;
}

std::string progress_line(const SweepProgress& progress) {
  return std::string(progress.retesting ? "retest" : "round") + " " +
         std::to_string(progress.step) + "/" + std::to_string(progress.steps) + ", " +
         std::to_string(progress.done) + "/" + std::to_string(progress.total) + " pairs, " +
         std::to_string(progress.bad) + " bad, " + format_number(progress.elapsed_s, 0) +
         " s, ETA " + format_number(progress.eta_s, 0) + " s";
}

std::string progress_nodes(const SweepProgress& progress, std::size_t most) {
  std::vector<std::string> parts;
  if (!progress.waiting_for.empty()) {
    parts.push_back("waiting " + format_number(progress.step_elapsed_s, 0) + " s for " +
                    join_capped(progress.waiting_for, most, ", "));
  }
  if (!progress.silent.empty())
    parts.push_back("silent: " + join_capped(progress.silent, most, ", "));
  if (!progress.not_passing.empty()) {
    std::vector<std::string> named;
    for (const auto& [node, count] : progress.not_passing) {
      named.push_back(node + " (" + std::to_string(count) + ")");
    }
    parts.push_back("pairs not passing: " + join_capped(named, most, ", "));
  }
  // With --launch the names are what each node said its host name is.
  return terminal_safe(join(parts, "; "));
}

}  // namespace ibkit
