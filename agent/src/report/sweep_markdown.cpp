#include "report/sweep_markdown.hpp"

#include <map>
#include <string_view>

#include "model/pair_warnings.hpp"
#include "model/sweep_report.hpp"
#include "report/baseline_lines.hpp"
#include "report/first_causes.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_rules.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Beyond this many nodes a matrix would drown a CI summary (GitHub keeps 1 MiB of it); the
// CSV files and the HTML page have them all.
constexpr std::size_t kMaxMatrixNodes = 32;

// Text from the model as a table cell: no HTML, no Markdown emphasis, no cell breaks. Backslash
// escapes (Markdown allows one before any ASCII punctuation) rather than HTML entities, so the
// file reads as it renders: "lab1 -> lab2", not "lab1 -&gt; lab2". An escaped '<' starts no
// tag and an escaped '&' no entity.
// Other controls are shown as terminal_safe shows them: the file is read with cat as often as
// rendered.
std::string md(const std::string& text) {
  std::string flat = text;
  for (char& c : flat) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::string out;
  for (char c : terminal_safe(flat)) {
    if (std::string_view("|\\`*_[]<&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string table_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const auto& cell : cells) row += " " + cell + " |";
  return row + "\n";
}

std::string table_head(const std::vector<std::string>& cells) {
  return table_row(cells) + table_row(std::vector<std::string>(cells.size(), "---"));
}

std::string overview(const SweepReport& report) {
  std::map<PairStatus, int> counts;
  for (const auto& pair : report.pairs) ++counts[pair.status];
  std::vector<std::string> parts;
  for (auto status : {PairStatus::kPass, PairStatus::kSlow, PairStatus::kFailed,
                      PairStatus::kTimedOut, PairStatus::kUnreachable, PairStatus::kNotRun}) {
    if (counts[status] > 0)
      parts.push_back(std::to_string(counts[status]) + " " + std::string(pair_status_name(status)));
  }
  std::string out = count_of(report.nodes.size(), "node", "nodes");
  if (report.pairs.empty()) {
    out += ", " + count_of(report.node_checks.size(), "node check report", "node check reports");
  } else {
    out += ", " + count_of(report.pairs.size(), "pair", "pairs") + " in " +
           count_of(static_cast<std::size_t>(report.rounds), "round", "rounds");
    if (!parts.empty()) out += " (" + join(parts, ", ") + ")";
    out += ", " + std::to_string(report.rails) + (report.rails == 1 ? " rail" : " rails");
    if (!report.pattern.empty()) out += ", pattern " + md(report.pattern);
    if (!report.tests.empty()) out += ", tests " + md(join(report.tests, ", "));
    out += ", " + format_number(report.wall_seconds, 1) + " s";
  }
  if (!report.coordinator.empty()) out += " from " + md(report.coordinator);
  if (!report.generated_at.empty()) out += " at " + md(report.generated_at);
  if (!report.agent_version.empty()) out += " by ibkit " + md(report.agent_version);
  return out + ".\n";
}

std::string baseline_section(const SweepReport& report) {
  if (!report.baseline) return "";
  const auto lines = baseline_lines(*report.baseline);
  std::string out = "\n### Since the baseline\n\n" + md(lines.front()) + "\n\n";
  for (std::size_t i = 1; i < lines.size(); ++i) out += "- " + md(lines[i]) + "\n";
  return out;
}

std::string blamed_section(const SweepReport& report) {
  if (report.blamed.empty()) return "";
  std::string out = "\n### Blamed nodes\n\n" + table_head({"node", "reason"});
  for (const auto& blame : report.blamed)
    out += table_row({md(blame.node), md(blame_with_checks(report, blame))});
  return out;
}

std::string blamed_links_section(const SweepReport& report) {
  if (report.blamed_links.empty()) return "";
  std::string out = "\n### Blamed links\n\n" + table_head({"link", "reason"});
  for (const auto& blame : report.blamed_links)
    out += table_row({md(blame.link), md(blame.reason)});
  return out;
}

std::string bad_pairs_section(const SweepReport& report) {
  std::string rows;
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kPass) continue;
    rows += table_row({md(pair_label(pair, report.rails)),
                       "**" + std::string(pair_status_name(pair.status)) + "**", md(pair.reason),
                       md(pair_summary(pair))});
  }
  if (rows.empty()) return "";
  return "\n### Pairs that did not pass\n\n" + table_head({"pair", "status", "reason", "details"}) +
         rows;
}

std::string warned_pairs_section(const SweepReport& report) {
  std::string rows;
  for (const auto& warned : warned_pairs(report)) {
    for (const auto* result : warned.results) {
      rows += table_row({md(pair_label(*warned.pair, report.rails)),
                         std::string(pair_status_name(warned.pair->status)),
                         md(result->id) + ": " + md(result->observed), md(result->hint)});
    }
  }
  if (rows.empty()) return "";
  return "\n### Pairs with warnings\n\n" + table_head({"pair", "status", "warning", "hint"}) + rows;
}

std::string rules_section(const SweepReport& report) {
  const auto lines = judgment_lines(report);
  if (lines.empty()) return "";
  std::string out = "\n### How the pairs were judged\n\n";
  for (const auto& line : lines) out += "- " + md(line) + "\n";
  return out;
}

std::string checks_section(const SweepReport& report) {
  if (report.node_checks.empty()) return "";
  std::string out = "\n### Node checks\n\n" + table_head({"node", "verdict", "failed checks"});
  for (const auto& check : report.node_checks) {
    std::vector<std::string> failed;
    for (const auto& result : check.results) {
      if (result.status != Status::kFail) continue;
      failed.push_back(md(result.id) + " " + md(result.subject) + ": " + md(result.observed) +
                       " (expected " + md(result.expected) + "); " + md(result.hint));
    }
    out += table_row({md(check.host), failed.empty() ? "pass" : "**fail**",
                      failed.empty() ? "" : join(failed, "<br>")});
  }
  return out;
}

// Each `ibkit fabric` report: its verdict and every result that is not a pass.
std::string fabric_section(const SweepReport& report) {
  if (report.fabric_checks.empty()) return "";
  std::string out = "\n### Fabric\n\n" + table_head({"discovered from", "check", "status",
                                                     "subject", "observed", "hint"});
  for (const auto& fabric : report.fabric_checks) {
    for (const auto& result : fabric.results) {
      if (result.status == Status::kPass && result.subject != "subnet") continue;
      out += table_row(
          {md(fabric_origin(fabric)), md(result.id),
           result.status == Status::kFail ? "**fail**" : std::string(status_name(result.status)),
           md(result.subject), md(result.observed), md(result.hint)});
    }
  }
  return out;
}

std::string matrix_section(const SweepReport& report, const PairMatrix& matrix, MatrixFigure figure,
                           int rail) {
  const std::string title =
      matrix_title(report, figure, report.rails > 1 ? ", rail " + std::to_string(rail) : "");
  std::vector<std::string> head{""};
  for (const auto& node : report.nodes) head.push_back(md(node));
  std::string out = "\n### " + title + "\n\n" + table_head(head);
  for (const auto& row : report.nodes) {
    std::vector<std::string> cells{"**" + md(row) + "**"};
    for (const auto& column : report.nodes) {
      const SweepPair* pair = row == column ? nullptr : matrix.at(row, column, rail);
      std::string cell = row == column ? "-" : matrix_cell(pair, figure, row);
      if (pair != nullptr && pair_broken(*pair)) cell = "**" + cell + "**";
      if (pair != nullptr && pair->status == PairStatus::kSlow) cell += " (slow)";
      cells.push_back(cell);
    }
    out += table_row(cells);
  }
  return out;
}

}  // namespace

std::string render_sweep_markdown(const SweepReport& report) {
  std::string out = std::string("## ibkit validation: ") +
                    (sweep_failed(report) ? "FAIL :x:" : "PASS :white_check_mark:") + "\n\n";
  if (const std::string cause = first_cause(report); !cause.empty())
    out += "**" + md(cause) + "**\n\n";
  out += overview(report) + baseline_section(report) + blamed_section(report) +
         blamed_links_section(report) + bad_pairs_section(report) + warned_pairs_section(report) +
         rules_section(report) + checks_section(report) + fabric_section(report);
  if (report.pairs.empty()) return out;
  if (report.nodes.size() > kMaxMatrixNodes) {
    return out + "\nThe matrices of " + std::to_string(report.nodes.size()) +
           " nodes are in latency.csv, bandwidth.csv and report.html.\n";
  }
  const PairMatrix matrix(report);
  for (auto figure : {MatrixFigure::kLatencyUs, MatrixFigure::kBandwidthGbps}) {
    for (int rail = 0; rail < report.rails; ++rail)
      out += matrix_section(report, matrix, figure, rail);
  }
  return out;
}

}  // namespace ibkit
