// Every report format of text from outside (host names a launched node reported, node
// descriptions, baseline and file names, reasons): no control byte a terminal would act on.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/baseline_comparison.hpp"
#include "model/check_report.hpp"
#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"
#include "report/check_junit.hpp"
#include "report/check_text.hpp"
#include "report/devices_report.hpp"
#include "report/html/sweep_html.hpp"
#include "report/pair_text.hpp"
#include "report/sweep_csv.hpp"
#include "report/sweep_junit.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_text.hpp"
#include "schema/sweep_report_json.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

// What the audit wrote into a name: erase the line, back to its start, "pass" over the "fail".
const std::string kOverwrite = "\x1b[2K\rpass";
// And the rest a terminal acts on: a window title ended by BEL, a C1 CSI, DEL, a line feed.
const std::string kTitle =
    "\x1b]0;owned\x07 \xc2\x9b"
    "2J\x7f\n";

// The first byte of `text` a terminal would act on (C0 but line feed, DEL, a C1 character as
// UTF-8), or "" when there is none.
std::string first_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool c1 = byte == 0xc2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9f;
    if ((byte < 0x20 && text[i] != '\n') || byte == 0x7f || c1)
      return "byte " + std::to_string(byte) + " at " + std::to_string(i) +
             " in: " + text.substr(i > 40 ? i - 40 : 0, 80);
  }
  return "";
}

// A sweep whose fourth node was launched and reported a hostile host name: its check failed,
// it is blamed, a pair of it failed with a hostile reason; judged against a baseline file whose
// name and date are hostile too.
SweepReport hostile_sweep() {
  const std::string host = "lab4" + kOverwrite + kTitle;
  SweepReport report = test::sample_sweep();
  report.nodes[3] = host;
  for (auto& pair : report.pairs) {
    if (pair.a == test::kHostileNode) pair.a = host;
    if (pair.b == test::kHostileNode) pair.b = host;
    if (pair.status != PairStatus::kPass) pair.reason += kOverwrite + kTitle;
  }
  report.blamed = {{host, "all 3 pairs failed" + kOverwrite}};
  report.blamed_links = {{"leaf" + kTitle + " port 1 <-> spine port 2", "2 pairs" + kOverwrite}};
  report.node_checks = {test::sample_check(host, true), test::sample_check("lab1", false)};
  report.node_checks[0].results.back().observed += kOverwrite;
  report.node_checks[0].results.back().hint += kTitle;
  BaselineComparison baseline;
  baseline.file = "old" + kOverwrite + kTitle + ".json";
  baseline.generated_at = "2026" + kTitle;
  baseline.regressions = {"lat send 2 B" + kOverwrite};
  baseline.changes = {"lab4 is new" + kTitle};
  baseline.not_compared = {"bw" + kOverwrite};
  report.baseline = baseline;
  return report;
}

}  // namespace

TEST_CASE("sweep text: a launched node's host name, reasons and the baseline's name are escaped",
          "[report]") {
  const SweepReport report = hostile_sweep();
  const std::string text = render_sweep_text(report, false);
  CHECK(first_control(text) == "");
  CHECK_THAT(text, Catch::Contains("old\\x1b[2K\\rpass\\x1b]0;owned\\x07 \\u009b2J\\x7f\\n.json"));
  CHECK_THAT(text, Catch::Contains("checks on lab4\\x1b[2K\\rpass"));
  // A line break in a name starts no line of its own.
  CHECK_THAT(text, Catch::Contains("lab4 is new\\x1b]0;owned\\x07 \\u009b2J\\x7f\\n\n"));
  // In colour the only escape sequences are the colours'.
  const std::string coloured = render_sweep_text(report, true);
  CHECK(coloured.find("\x1b[2K") == std::string::npos);
  CHECK(coloured.find("\x1b]0") == std::string::npos);
  CHECK(coloured.find('\r') == std::string::npos);
}

TEST_CASE("sweep Markdown, HTML, JUnit, CSV and JSON carry no control a terminal acts on",
          "[report][schema]") {
  const SweepReport report = hostile_sweep();
  CHECK(first_control(render_sweep_markdown(report)) == "");
  CHECK(first_control(render_sweep_html(report)) == "");
  CHECK(first_control(render_sweep_junit(report)) == "");
  CHECK(first_control(render_sweep_csv(report, "latency_us")) == "");
  // JSON writes them as escapes: the same strings to any reader, and to ibkit reading it back.
  const std::string json = render_sweep_json(report);
  CHECK(first_control(json) == "");
  const auto document = nlohmann::json::parse(json);
  CHECK(document["nodes"][3] == report.nodes[3]);
  CHECK(document["baseline"]["file"] == report.baseline->file);
}

TEST_CASE("check text: the host and what a result observed are escaped", "[report]") {
  CheckReport report = test::sample_check("node1" + kTitle, true);
  report.config_source = "/etc/ibkit" + kOverwrite + ".toml";
  report.results.back().subject = "mlx5_0" + kOverwrite;
  const std::string text = render_check_text(report, false);
  CHECK(first_control(text) == "");
  CHECK_THAT(text, Catch::Contains("ibkit check on node1\\x1b]0;owned\\x07 \\u009b2J\\x7f\\n "
                                   "(config: /etc/ibkit\\x1b[2K\\rpass.toml)"));
  CHECK_THAT(text, Catch::Contains("mlx5_0\\x1b[2K\\rpass"));
  CHECK(first_control(render_check_junit(report)) == "");
}

TEST_CASE("pair text: what the peer's side reported is escaped", "[report]") {
  PairReport report;
  report.host = "lab1";
  report.peer = "lab2" + kOverwrite;
  report.config_source = "";
  PairOutcome outcome;
  outcome.test = "lat";
  outcome.error = "peer said" + kTitle;
  VerbsMeasurement verbs;
  verbs.test = "lat";
  verbs.op = "send";
  verbs.local_device = "mlx5_0";
  verbs.remote_device = "mlx5_1" + kOverwrite;
  SizeMeasurement size;
  size.size = 2;
  size.iterations = 1000;
  size.latency = LatencyStats{};
  verbs.sizes = {size};
  outcome.verbs = verbs;
  report.outcomes = {outcome};
  const std::string text = render_pair_text(report, false);
  CHECK(first_control(text) == "");
  CHECK_THAT(text, Catch::Contains("peer mlx5_1\\x1b[2K\\rpass"));
}

TEST_CASE("devices text: names read from sysfs are escaped", "[report]") {
  Hca hca;
  hca.name = "rxe0" + kOverwrite;
  hca.parent_netdev = "eth0" + kTitle;
  CHECK(first_control(render_devices_text("node1", {hca})) == "");
  CHECK(first_control(render_devices_text("node1" + kTitle, {})) == "");
}

}  // namespace ibkit
