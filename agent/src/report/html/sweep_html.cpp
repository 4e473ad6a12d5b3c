#include "report/html/sweep_html.hpp"

#include <algorithm>
#include <map>

#include "model/check_report.hpp"
#include "model/pair_warnings.hpp"
#include "model/sweep_report.hpp"
#include "report/baseline_lines.hpp"
#include "report/first_causes.hpp"
#include "report/html/html_canvas_heatmap.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/html/html_node_table.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_rules.hpp"
#include "report/worst_pairs.hpp"
#include "report/xml_escape.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Everything the page needs is inline: it is opened from a CI artifact or a laptop, offline.
constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 2em 2em; color: #222; }
header.verdict { margin: 0 -2em 1em; padding: .8em 2em; color: #fff; }
header.pass { background: #1a7f37; } header.fail { background: #c62828; }
header h1 { margin: 0; font-size: 1.6em; } header p { margin: .2em 0 0; }
h2 { margin: 1.4em 0 .5em; font-size: 1.15em; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
table.heatmap td { min-width: 3.5em; height: 1.8em; text-align: center; vertical-align: middle;
  font-variant-numeric: tabular-nums; }
table.heatmap th { background: #f3f3f3; white-space: nowrap; }
table.heatmap th.blamed { background: #c62828; color: #fff; }
td.self { background: #444; } td.none { background: #fff; }
.broken { background: repeating-linear-gradient(45deg, #d50000 0 6px, #ff5252 6px 12px);
  color: #fff; font-weight: bold; }
.notrun { background: #d8d8d8; color: #555; }
.slow { outline: 3px dashed #8a4b00; outline-offset: -4px; font-weight: bold; }
p.legend span { display: inline-block; margin-right: .8em; padding: 0 .5em; }
p.legend .ramp { width: 10em; height: 1em; vertical-align: middle;
  background: linear-gradient(90deg, hsl(40,65%,62%), hsl(130,65%,50%)); }
p.legend .ramp.down { background: linear-gradient(90deg, hsl(130,65%,50%), hsl(40,65%,62%)); }
.status-fail { background: #ffcdd2; } .status-warn { background: #fff3c4; }
.status-victim { background: #eceff1; }
.status-skip { color: #777; }
ul.blamed li { margin: .2em 0; }
div.scroll { max-height: 32em; overflow: auto; display: inline-block; }
div.scroll th { position: sticky; top: 0; background: #f3f3f3; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
figure.canvasmap { margin: 0; } figure.canvasmap canvas { image-rendering: pixelated; }
.slowfill { background: #8a4b00; color: #fff; } .blamedtick { border-left: 6px solid #c62828; }
details { margin: .4em 0; } summary { cursor: pointer; font-weight: bold; }
)";

std::string escaped(const std::string& text) { return xml_escape(text); }

std::string overview(const SweepReport& report) {
  std::map<PairStatus, int> counts;
  for (const auto& pair : report.pairs) ++counts[pair.status];
  std::string out = count_of(report.nodes.size(), "node", "nodes") + ", ";
  if (report.pairs.empty()) {
    out += count_of(report.node_checks.size(), "node check report", "node check reports");
  } else {
    out += count_of(report.pairs.size(), "pair", "pairs") + " (" +
           std::to_string(counts[PairStatus::kPass]) + " passed) in " +
           count_of(static_cast<std::size_t>(report.rounds), "round", "rounds") + ", " +
           format_number(report.wall_seconds, 1) + " s";
  }
  if (!report.pattern.empty()) out += "; pattern " + report.pattern;
  if (!report.tests.empty()) out += "; tests " + join(report.tests, ", ");
  if (!report.coordinator.empty()) out += "; from " + report.coordinator;
  if (!report.generated_at.empty()) out += "; " + report.generated_at;
  if (!report.agent_version.empty()) out += "; ibkit " + report.agent_version;
  return escaped(out);
}

// "Blamed nodes" or "Blamed links": each blamed thing (`name` of it) and why.
template <class Blame>
std::string blamed_section(const std::string& title, const std::vector<Blame>& blamed,
                           std::string Blame::*name) {
  if (blamed.empty()) return "";
  std::string out = "<h2>" + title + "</h2>\n<ul class=\"blamed\">\n";
  for (const auto& blame : blamed) {
    out += "<li><b>" + escaped(blame.*name) + "</b>: " + escaped(blame.reason) + "</li>\n";
  }
  return out + "</ul>\n";
}

// The banner's line with the verdict's first cause, bold; nothing for a pass.
std::string cause_line(const SweepReport& report) {
  const std::string cause = first_cause(report);
  return cause.empty() ? "" : "<p class=\"cause\"><b>" + escaped(cause) + "</b></p>";
}

// The blamed nodes, each reason with the node's own failed checks beside it.
std::vector<NodeBlame> explained_blames(const SweepReport& report) {
  std::vector<NodeBlame> explained = report.blamed;
  for (auto& blame : explained) blame.reason = blame_with_checks(report, blame);
  return explained;
}

std::string bad_pairs_section(const SweepReport& report) {
  const auto worst = worst_pairs(report, kListedPairs);
  if (worst.total == 0) return "";
  std::string out =
      "<h2>Pairs that did not pass, worst first</h2>\n<div class=\"scroll\"><table>"
      "<tr><th>pair</th><th>status</th><th>reason</th><th>details</th></tr>\n";
  for (const auto* pair : worst.listed) {
    const std::string status(pair_status_name(pair->status));
    const std::string css = pair->status == PairStatus::kSlow     ? "slow"
                            : pair->status == PairStatus::kNotRun ? "notrun"
                                                                  : "broken";
    out += "<tr><td>" + escaped(pair_label(*pair, report.rails)) + "</td><td class=\"" + css +
           "\">" + status + "</td><td>" + escaped(pair->reason) + "</td><td>" +
           escaped(pair_summary(*pair)) + "</td></tr>\n";
  }
  out += "</table></div>\n";
  if (worst.total > worst.listed.size()) {
    out += "<p>" + std::to_string(worst.total - worst.listed.size()) + " more in report.json (" +
           std::to_string(worst.total) + " did not pass).</p>\n";
  }
  return out;
}

std::string warned_pairs_section(const SweepReport& report) {
  std::string rows;
  for (const auto& warned : warned_pairs(report)) {
    for (const auto* result : warned.results) {
      rows += "<tr class=\"status-warn\"><td>" + escaped(pair_label(*warned.pair, report.rails)) +
              "</td><td>" + std::string(pair_status_name(warned.pair->status)) + "</td><td>" +
              escaped(result->id) + "</td><td>" + escaped(result->observed) + "</td><td>" +
              escaped(result->hint) + "</td></tr>\n";
    }
  }
  if (rows.empty()) return "";
  return "<h2>Pairs with warnings</h2>\n<table><tr><th>pair</th><th>status</th><th>check</th>"
         "<th>warning</th><th>hint</th></tr>\n" +
         rows + "</table>\n";
}

std::string baseline_section(const SweepReport& report) {
  if (!report.baseline) return "";
  const auto lines = baseline_lines(*report.baseline);
  std::string out = "<h2>Since the baseline</h2>\n<p>" + escaped(lines.front()) + "</p>\n";
  if (lines.size() == 1) return out;
  out += "<ul class=\"rules\">\n";
  for (std::size_t i = 1; i < lines.size(); ++i) out += "<li>" + escaped(lines[i]) + "</li>\n";
  return out + "</ul>\n";
}

std::string rules_section(const SweepReport& report) {
  const auto lines = judgment_lines(report);
  if (lines.empty()) return "";
  std::string out = "<h2>How the pairs were judged</h2>\n<ul class=\"rules\">\n";
  for (const auto& line : lines) out += "<li>" + escaped(line) + "</li>\n";
  return out + "</ul>\n";
}

// Up to this many nodes a heatmap is a table, a cell each with its figure and hover; beyond
// it (some 45 bytes a cell) the page grows by megabytes, and a canvas draws the matrix.
constexpr std::size_t kMaxTableNodes = 64;
// A canvas heatmap is 1.4 MB a figure at 1,024 nodes and grows with the square; beyond it the
// CSV files hold the matrices.
constexpr std::size_t kMaxCanvasNodes = 1024;

std::string table_heatmaps(const SweepReport& report) {
  const PairMatrix matrix(report);
  std::string out;
  for (auto figure : {MatrixFigure::kLatencyUs, MatrixFigure::kBandwidthGbps}) {
    for (int rail = 0; rail < report.rails; ++rail) {
      const std::string note = report.rails > 1 ? ", rail " + std::to_string(rail) : "";
      out += "<h2>" + matrix_title(report, figure, note) + "</h2>\n" +
             html_heatmap(report, matrix, figure, rail);
    }
  }
  return out;
}

std::string heatmaps(const SweepReport& report) {
  if (report.pairs.empty()) return "";
  const std::size_t nodes = report.nodes.size();
  if (nodes <= kMaxTableNodes) return table_heatmaps(report);
  if (nodes <= kMaxCanvasNodes) return html_canvas_heatmaps(report);
  return "<h2>Latency and bandwidth</h2>\n<p>" + std::to_string(nodes) +
         " nodes are too many for a heatmap (it draws up to " + std::to_string(kMaxCanvasNodes) +
         " nodes); latency.csv and bandwidth.csv hold the matrices.</p>\n";
}

std::string check_table(const CheckReport& check) {
  std::string out =
      "<table><tr><th>status</th><th>check</th><th>subject</th><th>observed</th>"
      "<th>expected</th><th>hint</th></tr>\n";
  for (const auto& result : check.results) {
    const std::string status(status_name(result.status));
    out += "<tr class=\"status-" + status + "\"><td>" + status + "</td><td>" + escaped(result.id) +
           "</td><td>" + escaped(result.subject) + "</td><td>" + escaped(result.observed) +
           "</td><td>" + escaped(result.expected) + "</td><td>" + escaped(result.hint) +
           "</td></tr>\n";
  }
  return out + "</table>\n";
}

// Under `title`, each report folded to a line (`label` and its counts), a failed one open.
std::string check_reports_section(const std::string& title, const std::string& label,
                                  const std::vector<CheckReport>& reports) {
  if (reports.empty()) return "";
  std::string out = "<h2>" + title + "</h2>\n";
  for (const auto& check : reports) {
    std::map<Status, int> counts;
    std::vector<std::string> failed_ids;
    for (const auto& result : check.results) {
      ++counts[result.status];
      if (result.status == Status::kFail) failed_ids.push_back(result.id);
    }
    const bool failed = !failed_ids.empty();
    // A failed node is open on arrival and names what failed; passing ones stay folded.
    out += std::string("<details") + (failed ? " open" : "") + "><summary>" + label +
           escaped(check.command == "fabric" ? fabric_origin(check) : check.host) + ": " +
           (failed ? "FAIL" : "pass") + " (" + std::to_string(counts[Status::kFail]) + " failed" +
           (failed ? ": " + escaped(join(failed_ids, ", ")) : "") + "; " +
           std::to_string(counts[Status::kWarn]) + " warnings, " +
           std::to_string(counts[Status::kPass]) + " passed)</summary>\n" + check_table(check) +
           "</details>\n";
  }
  return out;
}

}  // namespace

std::string render_sweep_html(const SweepReport& report) {
  const bool failed = sweep_failed(report);
  const std::string verdict = failed ? "FAIL" : "PASS";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ibkit "
         "validation: " +
         verdict + "</title>\n<style>" + kStyle +
         "</style></head>\n<body>\n<header class=\"verdict " + (failed ? "fail" : "pass") +
         "\"><h1>ibkit validation: " + verdict + "</h1>" + cause_line(report) + "<p>" +
         overview(report) + "</p></header>\n" + baseline_section(report) +
         blamed_section("Blamed nodes", explained_blames(report), &NodeBlame::node) +
         blamed_section("Blamed links", report.blamed_links, &LinkBlame::link) +
         check_reports_section("Fabric", "as discovered from ", report.fabric_checks) +
         (report.pairs.empty() ? std::string() : html_node_table(report)) +
         bad_pairs_section(report) + warned_pairs_section(report) + rules_section(report) +
         heatmaps(report) + check_reports_section("Node checks", "", report.node_checks) +
         "</body></html>\n";
}

}  // namespace ibkit
