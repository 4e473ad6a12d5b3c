#include "report/html/html_node_table.hpp"

#include "report/html/node_overview.hpp"
#include "report/xml_escape.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string figure_cell(const std::optional<double>& value, int decimals) {
  return "<td class=\"number\">" + (value ? format_number(*value, decimals) : "") + "</td>";
}

std::string row_class(const NodeSummary& s) {
  if (only_a_victim(s)) return " class=\"status-victim\"";
  if (s.blamed || s.check_failed.value_or(false) || s.broken > 0) return " class=\"status-fail\"";
  if (s.slow > 0 || s.not_run > 0) return " class=\"status-warn\"";
  return "";
}

std::string check_word(const std::optional<bool>& failed) {
  if (!failed) return "";
  return *failed ? "FAIL" : "pass";
}

std::string row(const NodeSummary& s) {
  return "<tr" + row_class(s) + "><td>" + xml_escape(s.node) + "</td><td>" +
         (s.blamed           ? "blamed: " + xml_escape(*s.blamed)
          : only_a_victim(s) ? std::string("no: every pair of it that did not pass is with a "
                                           "blamed node")
                             : std::string()) +
         "</td><td>" + check_word(s.check_failed) + "</td><td class=\"number\">" +
         std::to_string(s.pairs) + "</td><td class=\"number\">" + std::to_string(s.broken) +
         "</td><td class=\"number\">" + std::to_string(s.slow) + "</td><td class=\"number\">" +
         std::to_string(s.not_run) + "</td>" + figure_cell(s.worst_latency_us, 2) +
         figure_cell(s.median_latency_us, 2) + figure_cell(s.worst_bandwidth_gbps, 1) +
         figure_cell(s.median_bandwidth_gbps, 1) + "</tr>\n";
}

}  // namespace

std::string html_node_table(const SweepReport& report) {
  const auto summaries = node_summaries(report);
  if (summaries.empty()) return "";
  std::string out =
      "<h2>Nodes, worst first</h2>\n<div class=\"scroll\"><table class=\"nodes\"><thead><tr>"
      "<th>node</th><th>blamed</th><th>checks</th><th>pairs</th><th>failed, timed out, "
      "unreachable</th><th>slow</th><th>not run</th><th>worst latency us</th><th>median "
      "latency us</th><th>worst Gb/s</th><th>median Gb/s</th></tr></thead>\n<tbody>\n";
  for (const auto& summary : summaries) out += row(summary);
  return out + "</tbody></table></div>\n";
}

}  // namespace ibkit
