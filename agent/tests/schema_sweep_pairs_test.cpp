// The pairs of ibkit.sweep/3 written and read back (schema/sweep_pairs_json.hpp), and one pair's
// outcome fields refused when out of range (schema/sweep_pair_fields.hpp).
#include <cmath>
#include <optional>
#include <tuple>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/kept_figure.hpp"
#include "same_pair.hpp"
#include "schema/json_object_writer.hpp"
#include "schema/sweep_pair_fields.hpp"
#include "schema/sweep_pairs_json.hpp"
#include "sweep_sample.hpp"
#include "util/json_fields.hpp"

using namespace ibkit;

TEST_CASE("sweep pairs: written and read back with statuses, reasons and details", "[schema]") {
  const SweepReport report = test::sample_sweep();
  std::string text;
  JsonObjectWriter writer(&text);
  write_sweep_pairs(report, writer);
  writer.close();
  const auto document = nlohmann::json::parse(text);
  CHECK(document.contains("pair_columns"));
  CHECK(document.at("pairs").size() == report.pairs.size());

  SweepReport read;
  read.nodes = report.nodes;
  read.rails = report.rails;
  read.rounds = report.rounds;
  JsonFields fields(document, "");
  read_sweep_pairs(fields, &read);
  INFO(fields.error());
  REQUIRE_FALSE(fields.failed());
  REQUIRE(read.pairs.size() == report.pairs.size());
  for (std::size_t i = 0; i < read.pairs.size(); ++i) {
    CHECK(read.pairs[i].status == report.pairs[i].status);
    CHECK(read.pairs[i].reason == report.pairs[i].reason);
  }
}

TEST_CASE("sweep pairs: each row is the JSON its values dump to, figures rounded", "[schema]") {
  // The rows are written by hand; every value must read as the JSON library writes it.
  SweepReport report;
  report.nodes = {"n0", "n1"};
  report.rails = 1;
  report.rounds = 1;
  for (const auto& [seconds, latency, bandwidth] :
       {std::tuple{2.0, 0.0004, 1e13}, {0.0015, 1234567.8915, 95.112}, {1e12, 1.0 / 3, 0.001}}) {
    SweepPair pair;
    pair.a = "n0";
    pair.b = "n1";
    pair.round = 1;
    pair.status = PairStatus::kPass;
    pair.attempts = 1;
    pair.seconds = seconds;
    pair.figures.latency_us = latency;
    pair.figures.bandwidth_gbps = bandwidth;
    pair.rules.recorded = true;
    pair.rules.fleet = true;
    report.pairs.push_back(pair);
  }
  report.pairs.back().a = "elsewhere";  // a node the report does not list: null
  report.pairs.back().attempts = 2;     // not the default: every value written
  std::string text;
  JsonObjectWriter writer(&text);
  write_sweep_pairs(report, writer);
  writer.close();
  const auto document = nlohmann::ordered_json::parse(text);
  CHECK(document.at("pair_defaults").dump() ==
        R"({"bandwidth_b_to_a_gbps":null,"status":"pass","reason":0,"rule":"fleet","attempts":1})");
  const auto rows = document.at("pairs");
  REQUIRE(rows.size() == 3);
  for (const auto& row : rows) {
    const std::string dumped = row.dump();
    INFO(dumped);
    CHECK(text.find(dumped) != std::string::npos);
  }
  // Seconds to a millisecond, figures to four significant digits (kept_figure); a row ends at
  // its last value that is not its column's default.
  CHECK(rows[0].dump() == R"([0,1,0,1,2.0,0.0,10000000000000.0,null])");
  CHECK(rows[1].dump() == R"([0,1,0,1,0.002,1234568.0,95.11,null])");
  CHECK(rows[2].dump() ==
        R"([null,1,0,1,1000000000000.0,0.333,0.001,null,null,"pass",0,"fleet",2])");
}

namespace {

SweepPair unmeasured(const std::string& a, const std::string& b, int rail, int round,
                     PairStatus status, std::string reason, int attempts, double seconds) {
  SweepPair pair;
  pair.a = a;
  pair.b = b;
  pair.rail = rail;
  pair.round = round;
  pair.status = status;
  pair.reason = std::move(reason);
  pair.attempts = attempts;
  pair.seconds = seconds;
  return pair;
}

// Pairs of two rails whose every column differs from its default in one pair or another, read
// without their reports (what a row alone must keep), but for a failed one whose report is kept.
SweepReport every_kind_of_pair() {
  SweepReport report;
  report.nodes = {"n0", "n1", "n2", "n3"};
  report.rails = 2;
  report.rounds = 3;
  auto pass = unmeasured("n0", "n1", 0, 1, PairStatus::kPass, "", 1, 2.4567);
  pass.rules = {true, false, true, false};
  pass.figures = {1.58249, 95.1123, 95.1123, std::nullopt};  // a one-way write
  auto read_way = unmeasured("n2", "n3", 1, 1, PairStatus::kPass, "", 1, 2.5);
  read_way.rules = pass.rules;
  read_way.figures = {1.6, 392.4567, std::nullopt, 392.4567};  // a read: b's data to a
  auto bidirectional = unmeasured("n0", "n2", 0, 2, PairStatus::kPass, "", 1, 3);
  bidirectional.rules = pass.rules;
  bidirectional.figures = {1.7, 180.04, 90.016, 90.024};
  bidirectional.warnings = {
      {"pair.ends", "n0 mlx5_0/1 - n2 mlx5_0/1", Status::kWarn, "MTU 4096 and 1024", "", ""}};
  auto slow =
      unmeasured("n1", "n3", 1, 2, PairStatus::kSlow, "bandwidth 9.6 Gb/s below 80", 2, 6.9);
  slow.rules = {true, true, true, true};
  slow.figures = {15.28492, 9.64224, 9.64224, std::nullopt};
  auto failed = test::measured_pair("n0", "n3", 3, 2.0, 80);
  failed.status = PairStatus::kFailed;
  failed.reason = "bw: no completion for 10 s";
  failed.attempts = 2;
  failed.report->outcomes[1].verbs->sizes.clear();
  failed.rules = {};
  auto timed_out =
      unmeasured("n1", "n2", 0, 3, PairStatus::kTimedOut, "no result within 30 s", 2, 30);
  timed_out.rules.recorded = false;
  auto unreachable =
      unmeasured("n2", "n1", 1, 3, PairStatus::kUnreachable, "connect: no route", 1, 0.001);
  auto not_run = unmeasured("n3", "n0", 1, 3, PairStatus::kNotRun, "sweep deadline passed", 0, 0);
  not_run.rules.recorded = false;
  report.pairs = {pass, read_way, bidirectional, slow, failed, timed_out, unreachable, not_run};
  report.details_omitted = 3;
  return report;
}

SweepReport written_and_read(const SweepReport& report, std::string* text) {
  JsonObjectWriter writer(text);
  write_sweep_pairs(report, writer);
  writer.close();
  SweepReport read;
  read.nodes = report.nodes;
  read.rails = report.rails;
  read.rounds = report.rounds;
  const auto document = nlohmann::json::parse(*text);
  JsonFields fields(document, "");
  read_sweep_pairs(fields, &read);
  INFO(fields.error());
  REQUIRE_FALSE(fields.failed());
  return read;
}

void check_figure(std::optional<double> read, std::optional<double> written) {
  CHECK(read.has_value() == written.has_value());
  if (read && written) CHECK(*read == kept_figure(*written));
}

}  // namespace

TEST_CASE("sweep pairs: every field of every pair is read back as it was written", "[schema]") {
  const SweepReport written = every_kind_of_pair();
  std::string text;
  const SweepReport read = written_and_read(written, &text);
  REQUIRE(read.pairs.size() == written.pairs.size());
  for (std::size_t i = 0; i < read.pairs.size(); ++i) {
    const auto& was = written.pairs[i];
    const auto& now = read.pairs[i];
    INFO(was.a << " -> " << was.b);
    test::check_same_pair_outcome(now, was);
    CHECK(now.seconds == std::round(was.seconds * 1000) / 1000);
    CHECK(now.report.has_value() == was.report.has_value());
    const auto figures = pair_figures(now);
    const auto measured = pair_figures(was);
    check_figure(figures.latency_us, measured.latency_us);
    check_figure(figures.bandwidth_gbps, measured.bandwidth_gbps);
    check_figure(figures.a_to_b_gbps, measured.a_to_b_gbps);
    check_figure(figures.b_to_a_gbps, measured.b_to_a_gbps);
    CHECK(now.warnings.size() == was.warnings.size());
  }
  CHECK(read.pairs[2].warnings[0].observed == "MTU 4096 and 1024");
  CHECK(read.details_omitted == 3);
  // Written again, the same text: nothing rounds twice, no default moves.
  std::string again;
  written_and_read(read, &again);
  CHECK(again == text);
}

TEST_CASE("sweep pairs: a row leaves out its last values while they are their column's default",
          "[schema]") {
  std::string text;
  written_and_read(every_kind_of_pair(), &text);
  const auto document = nlohmann::json::parse(text);
  // Three passes by the fleet rule outnumber the pairs of every other rule: "fleet" is the
  // default.
  CHECK(document["pair_defaults"]["rule"] == "fleet");
  const auto& rows = document["pairs"];
  // The one-way pass ends at its bandwidth from a to b; the read at its bandwidth back.
  CHECK(rows[0] == nlohmann::json::parse("[0,1,0,1,2.457,1.582,95.11,95.11]"));
  CHECK(rows[1] == nlohmann::json::parse("[2,3,1,1,2.5,1.6,392.5,null,392.5]"));
  // What differs from the defaults is written, and what comes before it.
  CHECK(rows[3] ==
        nlohmann::json::parse(
            R"([1,3,1,2,6.9,15.28,9.642,9.642,null,"slow",1,"threshold+fleet+baseline",2])"));
  CHECK(rows[6] ==
        nlohmann::json::parse(R"([2,1,1,3,0.001,null,null,null,null,"unreachable",4,"none"])"));
  CHECK(rows[7] ==
        nlohmann::json::parse(R"([3,0,1,3,0.0,null,null,null,null,"not_run",5,null,0])"));
}

TEST_CASE("sweep pair fields: a round past the sweep's is refused, naming the field", "[schema]") {
  const auto object = nlohmann::json::parse(
      R"({"rail": 0, "round": 9, "status": "pass", "rule": "fleet", "attempts": 1, "seconds": 2})");
  JsonFields fields(object, "pairs[0]");
  SweepPair pair;
  read_pair_outcome(fields, 1, 3, &pair);
  REQUIRE(fields.failed());
  CHECK_THAT(fields.error(), Catch::Contains("round"));
  auto good = object;
  good["round"] = 2;
  JsonFields good_fields(good, "pairs[0]");
  read_pair_outcome(good_fields, 1, 3, &pair);
  CHECK_FALSE(good_fields.failed());
  CHECK(pair.round == 2);
  CHECK(pair.status == PairStatus::kPass);
}
