// The reply of `scontrol -o show node NAME` read for the node asked about (slurm/scontrol.hpp),
// and a program that is not there.
#include <catch2/catch.hpp>

#include "slurm/scontrol.hpp"

using namespace ibkit;

TEST_CASE("scontrol reply: one record of the node asked about, anything else refused", "[slurm]") {
  const std::string command = "scontrol -o show node c01";
  auto node = node_in_reply(
      "NodeName=c01 Arch=x86_64 State=IDLE+DRAIN Reason=ibkit: memlock "
      "[root@2026-11-28T10:00:00]\n",
      "c01", command);
  REQUIRE(node);
  CHECK(node->state == "IDLE+DRAIN");
  CHECK(node->reason == "ibkit: memlock");
  CHECK_FALSE(node_in_reply("NodeName=c02 State=IDLE\n", "c01", command));
  CHECK_FALSE(node_in_reply("NodeName=c01 State=IDLE\nNodeName=c01 State=IDLE\n", "c01", command));
  const auto empty = node_in_reply("", "c01", command);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message.find('\n') == std::string::npos);
}

TEST_CASE("scontrol: a program that is not there is one line naming it", "[slurm]") {
  Scontrol missing;
  missing.program = "/nonexistent/scontrol";
  const auto node = show_node(missing, "c01");
  REQUIRE_FALSE(node);
  CHECK_THAT(node.error().message, Catch::Contains("/nonexistent/scontrol"));
  CHECK(node.error().message.find('\n') == std::string::npos);
}
