// The reason `ibkit health` sets in Slurm: first failure, count of the others, one safe line.
#include "slurm/health_reason.hpp"

#include <string>

#include <catch2/catch.hpp>

#include "model/check_result.hpp"

using ibkit::CheckResults;
using ibkit::Status;

TEST_CASE("health reason: the first failure names id, subject and observed, then a count",
          "[slurm]") {
  const CheckResults results{
      {"module.loaded", "ib_uverbs", Status::kPass, "loaded", "loaded", ""},
      {"port.state", "mlx5_0/1", Status::kFail, "DOWN/Polling", "ACTIVE/LinkUp", "cable"},
      {"cpu.governor", "node", Status::kWarn, "powersave", "performance", ""},
      {"port.rate", "mlx5_0/1", Status::kFail, "10 Gb/s", ">= 32", ""},
      {"memlock", "node", Status::kFail, "64 KiB", "unlimited", ""},
  };
  CHECK(ibkit::summarize_failures(results) == "port.state mlx5_0/1 DOWN/Polling (+2 more)");
  CHECK(ibkit::drain_reason(ibkit::summarize_failures(results)) ==
        "ibkit: port.state mlx5_0/1 DOWN/Polling (+2 more)");
}

TEST_CASE("health reason: nothing failed gives no summary", "[slurm]") {
  const CheckResults results{{"memlock", "node", Status::kWarn, "1 GiB", "unlimited", ""}};
  CHECK(ibkit::summarize_failures(results).empty());
}

TEST_CASE("health reason: quotes, control characters and length cannot break scontrol", "[slurm]") {
  const std::string hostile = "a \"quoted\"\tvalue\nwith 'apostrophes' and \\ backslash\x01";
  const std::string reason = ibkit::drain_reason(hostile);
  CHECK(reason == "ibkit: a quoted value with apostrophes and backslash");
  const std::string cut = ibkit::drain_reason(std::string(500, 'x'));
  CHECK(cut.size() == ibkit::kMaxReasonLength);
  CHECK(cut.starts_with("ibkit: xxx"));
  CHECK(cut.ends_with("..."));
}
