#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Every format a sweep report is written in, each rendered from the one model.

// {"schema": "ibkit.sweep/1", "verdict", "nodes", "pairs": [every pair with every size], ...}
std::string render_sweep_json(const SweepReport& report);
// Reads what render_sweep_json wrote; the Error names the field that is missing or wrong.
Expected<SweepReport> sweep_report_from_json(const nlohmann::json& document);
// Reads what render_check_json wrote (one node's `ibkit check --format json`).
Expected<CheckReport> check_report_from_json(const nlohmann::json& document);

// For a terminal: blamed nodes, every pair that did not pass, the check table of every node
// that failed, then the verdict line. ANSI colour only when `colour` is set.
std::string render_sweep_text(const SweepReport& report, bool colour);
// JUnit XML: a testsuite per node, a testcase per pair the node is in and per check result.
std::string render_sweep_junit(const SweepReport& report);
// A CI job summary: verdict, blamed nodes, failed pairs, then the matrices as tables.
std::string render_sweep_markdown(const SweepReport& report);
// The pair matrix of one figure as CSV ("latency_us" or "bandwidth_gbps"), nodes on both axes.
std::string render_sweep_csv(const SweepReport& report, const std::string& figure);
// One self-contained page (no external assets): heatmaps of latency and bandwidth, failed
// pairs marked, the figures on hover, and the per-node check results.
std::string render_sweep_html(const SweepReport& report);

// Creates `dir` and writes and removes a file in it, so a sweep learns that its --output is
// unusable before it runs rather than after. The Error names `dir` and why.
Expected<Done> prepare_report_dir(const std::string& dir);

// Writes report.json, junit.xml, summary.md, latency.csv, bandwidth.csv and report.html (as
// chosen by `formats`, "all" for every one) into `dir`, creating it. Fails naming the file it
// could not write.
Expected<std::vector<std::string>> write_sweep_reports(const SweepReport& report,
                                                       const std::string& dir,
                                                       const std::vector<std::string>& formats);

}  // namespace ibkit
