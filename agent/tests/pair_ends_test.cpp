#include "pair/pair_ends.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/pair_json.hpp"
#include "schema/pair_report_json.hpp"
#include "sweep/pair_attempt.hpp"

namespace ibkit {
namespace {

// A verbs outcome between two ports as each side saw its own: unset figures were not said.
PairOutcome verbs_outcome(const std::string& test, std::optional<int> local_mtu,
                          std::optional<int> remote_mtu, std::optional<double> local_gbps,
                          std::optional<double> remote_gbps) {
  VerbsMeasurement verbs;
  verbs.test = test;
  verbs.op = test == "lat" ? "send" : "write";
  verbs.local_device =
      "rxe0 port 1 (RoCE GID 1, MTU " + std::to_string(local_mtu.value_or(0)) + ")";
  verbs.local_mtu = local_mtu;
  verbs.remote_mtu = remote_mtu;
  verbs.port_data_gbps = local_gbps;
  verbs.remote_port_data_gbps = remote_gbps;
  SizeMeasurement size;
  size.size = 65536;
  size.iterations = 100;
  size.bytes = 6553600;
  size.seconds = 1;
  size.bandwidth = Throughput{6.25, 0.052, 0.0001};
  verbs.sizes.push_back(size);
  return {test, verbs, std::nullopt, ""};
}

const CheckResult& the_result(const std::optional<CheckResult>& result) {
  REQUIRE(result.has_value());
  return *result;
}

}  // namespace

TEST_CASE("ends that differ in MTU warn, naming both nodes, both MTUs and the path's", "[pair]") {
  const auto result = judge_pair_ends({verbs_outcome("bw", 1024, 512, 2, 2)}, "lab1", "lab2");
  const CheckResult& ends = the_result(result);
  CHECK(ends.id == "pair.ends");
  CHECK(ends.status == Status::kWarn);
  CHECK(ends.subject == "lab1 <-> lab2");
  CHECK(ends.observed == "active MTU lab1 1024, lab2 512 (the path runs at 512)");
  CHECK_THAT(ends.hint, Catch::Contains("ip link set"));
  // A warning never fails the pair.
  CHECK_FALSE(any_failed({ends}));
}

TEST_CASE("ends that differ in data rate warn with both rates, and both differences are named",
          "[pair]") {
  const CheckResult rate =
      the_result(judge_pair_ends({verbs_outcome("bw", 4096, 4096, 100, 54.55)}, "a", "b"));
  CHECK(rate.status == Status::kWarn);
  CHECK(rate.observed == "data rate a 100 Gb/s, b 54.55 Gb/s");
  CHECK_THAT(rate.hint, Catch::Contains("port.rate"));
  const CheckResult both =
      the_result(judge_pair_ends({verbs_outcome("bw", 4096, 2048, 100, 200)}, "a", "b"));
  CHECK(both.status == Status::kWarn);
  CHECK(both.observed ==
        "active MTU a 4096, b 2048 (the path runs at 2048); data rate a 100 Gb/s, b 200 Gb/s");
}

TEST_CASE("ends that agree pass with their figures, unknown figures are never a pass", "[pair]") {
  const CheckResult same =
      the_result(judge_pair_ends({verbs_outcome("lat", 1024, 1024, 2, 2)}, "lab1", "lab2"));
  CHECK(same.status == Status::kPass);
  CHECK(same.observed == "both ends active MTU 1024, data rate 2 Gb/s");
  // Rounding of equal links is no difference.
  CHECK(the_result(judge_pair_ends({verbs_outcome("bw", 4096, 4096, 54.54, 54.55)}, "a", "b"))
            .status == Status::kPass);

  // An older peer that does not say its rate: the MTUs agree, the rates cannot be compared.
  const CheckResult unknown =
      the_result(judge_pair_ends({verbs_outcome("bw", 1024, 1024, 2, std::nullopt)}, "a", "b"));
  CHECK(unknown.status == Status::kSkip);
  CHECK_THAT(unknown.observed, Catch::Contains("b unknown"));
  // ...but what is known and differs still warns.
  CHECK(the_result(judge_pair_ends({verbs_outcome("bw", 1024, 512, 2, std::nullopt)}, "a", "b"))
            .status == Status::kWarn);

  // What one verbs test did not learn, another did: the pair is judged on all of them.
  const CheckResult joined =
      the_result(judge_pair_ends({verbs_outcome("lat", 1024, std::nullopt, 2, std::nullopt),
                                  verbs_outcome("bw", std::nullopt, 512, std::nullopt, 2)},
                                 "a", "b"));
  CHECK(joined.status == Status::kWarn);
  CHECK_THAT(joined.observed, Catch::Contains("a 1024, b 512"));
}

TEST_CASE("a port in loopback against itself has no two ends to compare", "[pair]") {
  auto outcome = verbs_outcome("lat", 1024, std::nullopt, 2.5, std::nullopt);
  outcome.verbs->loopback = "rxe0/1";
  outcome.verbs->remote_device = outcome.verbs->local_device;
  CHECK_FALSE(judge_pair_ends({outcome}, "lab1", "").has_value());
  // Two HCAs of one node are two ends.
  outcome.verbs->loopback = "rxe0/1-rxe1/1";
  outcome.verbs->remote_device = "rxe1 port 1 (RoCE GID 1, MTU 1024)";
  CHECK(judge_pair_ends({outcome}, "lab1", "lab1").has_value());
}

TEST_CASE("nothing to compare without a verbs test that reached its ports", "[pair]") {
  TcpResult tcp;
  tcp.streams = 1;
  tcp.gbps = 1;
  CHECK_FALSE(judge_pair_ends({{"tcp", std::nullopt, tcp, ""}}, "a", "b").has_value());
  CHECK_FALSE(
      judge_pair_ends({{"bw", VerbsMeasurement{}, std::nullopt, "connect refused"}}, "a", "b")
          .has_value());
  CheckResults results;
  add_pair_ends_result(results, {{"tcp", std::nullopt, tcp, ""}}, "a", "b");
  CHECK(results.empty());
}

TEST_CASE("a sweep pair whose ends differ passes with the warning, on the coordinator's names",
          "[pair]") {
  DriveAttempt drive;
  drive.stage = DriveStage::kFinished;
  PairReport report;
  report.host = "lab1.internal";
  report.peer = "192.168.77.12";
  report.outcomes = {verbs_outcome("bw", 1024, 512, 2, 2)};
  drive.report = report;
  const SweepHost a{"lab1", "192.168.77.11", 18515};
  const SweepHost b{"lab2", "192.168.77.12", 18515};
  const PairAttempt attempt = judge_drive(a, b, drive, Thresholds{});
  CHECK(attempt.status == PairStatus::kPass);
  CHECK(attempt.reason.empty());
  REQUIRE(attempt.report.has_value());
  const CheckResult* ends = nullptr;
  for (const auto& result : attempt.report->results) {
    if (result.id == "pair.ends") ends = &result;
  }
  REQUIRE(ends != nullptr);
  CHECK(ends->status == Status::kWarn);
  CHECK(ends->observed == "active MTU lab1 1024, lab2 512 (the path runs at 512)");
}

TEST_CASE("both ends' MTUs and the peer's rate read back from a pair report", "[pair]") {
  PairReport report;
  report.host = "lab1";
  report.peer = "lab2";
  report.outcomes = {verbs_outcome("bw", 1024, 512, 2, 2.5)};
  auto read = pair_report_from_json(nlohmann::json::parse(render_pair_json(report)));
  REQUIRE(read.ok());
  const auto& verbs = *read->outcomes[0].verbs;
  CHECK(verbs.local_mtu == 1024);
  CHECK(verbs.remote_mtu == 512);
  CHECK(verbs.remote_port_data_gbps == Approx(2.5));
  // Unknown stays unknown; a value that is no MTU is refused, naming the field.
  report.outcomes = {verbs_outcome("bw", std::nullopt, std::nullopt, std::nullopt, std::nullopt)};
  auto document = nlohmann::json::parse(render_pair_json(report));
  read = pair_report_from_json(document);
  REQUIRE(read.ok());
  CHECK_FALSE(read->outcomes[0].verbs->local_mtu.has_value());
  CHECK_FALSE(read->outcomes[0].verbs->remote_port_data_gbps.has_value());
  document["tests"][0]["verbs"]["remote_active_mtu"] = 1500;
  read = pair_report_from_json(document);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message ==
        "field tests[0].verbs.remote_active_mtu is not an MTU (256, 512, 1024, 2048 or 4096)");
}

}  // namespace ibkit
