// The JUnit pieces every report is built of (report/junit.hpp), and a pair's own JUnit
// (report/pair_junit.hpp).
#include <catch2/catch.hpp>

#include "report/junit.hpp"
#include "report/pair_junit.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

CheckResults three_results() {
  return {{"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""},
          {"memlock", "process", Status::kFail, "soft 64 KiB", "unlimited", "raise it <now>"},
          {"gpu.direct", "GPUDirect RDMA", Status::kSkip, "no NVIDIA GPU", "", "not here"}};
}

}  // namespace

TEST_CASE("junit: counts, a testsuite of one case per result, and the document around it",
          "[report]") {
  const auto results = three_results();
  const JunitCounts counts = junit_counts(results);
  CHECK(counts.tests == 3);
  CHECK(counts.failures == 1);
  CHECK(counts.skipped == 1);
  const std::string suite =
      junit_testsuite("ibkit check", "lab1", "2026-11-28T09:00:00Z", results, {0.5, 1.25, 0});
  CHECK_THAT(suite, Catch::Contains("tests=\"3\"") && Catch::Contains("failures=\"1\""));
  CHECK_THAT(suite, Catch::Contains("raise it &lt;now&gt;"));  // the hint, escaped
  CHECK_THAT(suite, Catch::Contains("time=\"1.25\""));
  const std::string document = junit_document("ibkit", counts, suite);
  CHECK_THAT(document, Catch::StartsWith("<?xml"));
  CHECK_THAT(document, Catch::Contains("<testsuites") && Catch::Contains("</testsuites>"));
  const std::string whole = render_junit("ibkit check", "lab1", "2026-11-28T09:00:00Z", results);
  CHECK_THAT(whole, Catch::Contains("<skipped") && Catch::Contains("<failure"));
}

TEST_CASE("pair junit: one testcase per verdict of the pair", "[report]") {
  const SweepPair pair = test::measured_pair("lab1", "lab2", 1, 1.5, 90);
  const std::string xml = render_pair_junit(*pair.report);
  CHECK_THAT(xml, Catch::Contains("pair.latency"));
  CHECK_THAT(xml, Catch::Contains("lab1"));
  CHECK_THAT(xml, Catch::Contains("tests=\"1\""));
}
