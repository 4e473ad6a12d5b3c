#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sweep/drive_request.hpp"

using ibkit::drive_from_json;
using ibkit::DriveRequest;
using nlohmann::json;

namespace {

json valid() {
  return {{"type", "drive"}, {"peer", "10.0.0.2"}, {"port", 18515}, {"tests", {"tcp"}}};
}

std::string refusal(json message) {
  auto drive = drive_from_json(message);
  REQUIRE_FALSE(drive.ok());
  return drive.error().message;
}

}  // namespace

TEST_CASE("a drive round-trips through its wire form", "[sweep]") {
  DriveRequest drive;
  drive.peer = "fe80::2%ib0";
  drive.port = 19000;
  drive.tests = {"lat", "bw"};
  drive.sizes = {2, 65536};
  drive.qps = 4;
  drive.duration_s = 0.5;
  drive.bidir = true;
  drive.rail = 7;
  drive.ack_timeout = 20;
  drive.deadline_s = 30;
  drive.connect_timeout_s = 2.5;
  auto back = drive_from_json(to_json(drive));
  REQUIRE(back.ok());
  CHECK(back->peer == drive.peer);
  CHECK(back->port == 19000);
  CHECK(back->tests == drive.tests);
  CHECK(back->sizes == drive.sizes);
  CHECK(back->qps == 4);
  CHECK(back->duration_s == 0.5);
  CHECK(back->bidir);
  CHECK(back->rail == 7);
  CHECK(back->ack_timeout == 20);
  CHECK(back->deadline_s == 30);
  CHECK(back->connect_timeout_s == 2.5);
  auto plain = drive_from_json(valid());
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->rail);
  CHECK_FALSE(plain->ack_timeout);
  CHECK_FALSE(to_json(*plain).contains("ack_timeout"));
  CHECK(plain->sizes.empty());
}

TEST_CASE("every drive field is bounded, and the refusal names it", "[sweep]") {
  auto with = [](const std::string& field, json value) {
    json message = valid();
    message[field] = std::move(value);
    return message;
  };
  CHECK(refusal(with("peer", "10.0.0.2; reboot")).rfind("drive field \"peer\": expected", 0) == 0);
  CHECK(refusal(with("peer", std::string(300, 'a'))).rfind("drive field \"peer\"", 0) == 0);
  CHECK(refusal(with("port", 0)) == "drive field \"port\": 0 is outside 1..65535");
  CHECK(refusal(with("port", 70000)) == "drive field \"port\": 70000 is outside 1..65535");
  CHECK(refusal(with("tests", json::array())).rfind("drive field \"tests\": expected", 0) == 0);
  CHECK(refusal(with("tests", {"tcp", "tcp"})).rfind("drive field \"tests\"", 0) == 0);
  CHECK(refusal(with("tests", {"rm"})).rfind("drive field \"tests\"", 0) == 0);
  CHECK(refusal(with("sizes", {0})) == "drive field \"sizes\": 0 is outside 1..8388608");
  CHECK(refusal(with("qps", 65)) == "drive field \"qps\": 65 is outside 1..64");
  CHECK(refusal(with("rail", 64)) == "drive field \"rail\": 64 is outside 0..63");
  CHECK(refusal(with("ack_timeout", 0)) == "drive field \"ack_timeout\": 0 is outside 1..31");
  CHECK(refusal(with("deadline_s", 0)) ==
        "drive field \"deadline_s\": 0 is outside 1..3600 seconds");
  CHECK(refusal(with("deadline_s", 1e9)).rfind("drive field \"deadline_s\"", 0) == 0);
  CHECK(refusal(with("connect_timeout_s", 0)) ==
        "drive field \"connect_timeout_s\": 0 is outside 0.1..600 seconds");
  CHECK(refusal(with("bidir", 1)) == "drive field \"bidir\": expected true or false, got 1");
  CHECK(refusal(with("shell", "x")).rfind("drive field \"shell\" is not known", 0) == 0);
  json no_peer = valid();
  no_peer.erase("peer");
  CHECK(refusal(no_peer) == "drive field \"peer\": missing");
  json too_long = valid();
  too_long["duration_s"] = 10;
  too_long["deadline_s"] = 5;
  CHECK(refusal(too_long) ==
        "drive field \"deadline_s\": 5 s is shorter than the tests' 10 s (duration x sizes of bw "
        "and tcp)");
}

TEST_CASE("a drive carries the pair options: op, every size, QPs, both directions, duration",
          "[sweep]") {
  DriveRequest drive;
  drive.peer = "10.0.0.3";
  drive.port = 18515;
  drive.tests = {"bw"};
  drive.op = "send";
  drive.sizes = ibkit::all_message_sizes();
  drive.qps = 4;
  drive.bidir = true;
  drive.duration_s = 2;
  drive.deadline_s = 120;
  const json wire = to_json(drive);
  CHECK(wire["op"] == "send");
  CHECK(wire["sizes"].size() == 23);
  auto back = drive_from_json(wire);
  REQUIRE(back.ok());
  CHECK(back->op == "send");
  CHECK(back->sizes == drive.sizes);
  CHECK(back->qps == 4);
  CHECK(back->bidir);
  CHECK(back->duration_s == 2);
  CHECK(back->iters == 0);
  // What A then runs is what was asked for.
  const auto request =
      ibkit::build_pair_request(plan_of(*back, ibkit::Deadline::after_seconds(120)), "bw");
  CHECK(request.op == "send");
  CHECK(request.sizes.size() == 23);
  CHECK(request.qps == 4);
  CHECK(request.bidir);
  CHECK(request.duration_s == 2);

  // No op on the wire when none was asked for: each test's own default, as an older A expects.
  drive.op.clear();
  CHECK_FALSE(to_json(drive).contains("op"));
  // A count instead of a duration travels as well.
  drive.duration_s = 0;
  drive.iters = 50;
  back = drive_from_json(to_json(drive));
  REQUIRE(back.ok());
  CHECK(back->iters == 50);
  CHECK(back->duration_s == 0);
}

TEST_CASE("a drive's op must suit its tests, and a count and a duration exclude each other",
          "[sweep]") {
  json message = valid();
  message["tests"] = {"lat", "bw"};
  message["op"] = "rm";
  CHECK(refusal(message) == "drive field \"op\": expected \"send\", \"write\" or \"read\"");
  message["op"] = 1;
  CHECK(refusal(message) == "drive field \"op\": expected \"send\", \"write\" or \"read\"");
  message["op"] = "read";
  CHECK(refusal(message) ==
        "drive field \"op\": \"read\" does not apply to test \"lat\" (lat runs send or write)");
  message["tests"] = {"bw", "tcp"};  // tcp takes no op; bw reads
  CHECK(drive_from_json(message).ok());
  message["iters"] = 100;
  message["duration_s"] = 1;
  CHECK(
      refusal(message) ==
      "drive fields \"iters\" and \"duration_s\": give at most one (the other 0); got 100 and 1 s");
  // Without either, bw and tcp take the default duration, and the deadline must hold it.
  message.erase("iters");
  message.erase("duration_s");
  message["sizes"] = ibkit::all_message_sizes();
  message["deadline_s"] = 30;
  CHECK(refusal(message) ==
        "drive field \"deadline_s\": 30 s is shorter than the tests' 48 s (duration x sizes of bw "
        "and tcp)");
  message["deadline_s"] = 60;
  CHECK(drive_from_json(message).ok());
}

TEST_CASE("a drive becomes the pair plan A runs, asking B for the same rail and ACK timeout",
          "[sweep]") {
  json message = valid();
  message["tests"] = {"bw", "tcp"};
  message["rail"] = 3;
  message["ack_timeout"] = 22;
  message["sizes"] = {4096};
  message["deadline_s"] = 20;
  auto drive = drive_from_json(message);
  REQUIRE(drive.ok());
  const auto plan = plan_of(*drive, ibkit::Deadline::after_seconds(20));
  CHECK(plan.tests == std::vector<std::string>{"bw", "tcp"});
  CHECK(plan.deadline_s == 20);
  CHECK(plan.connect_timeout_s <= 20);
  const auto bw = ibkit::build_pair_request(plan, "bw");
  CHECK(bw.rail == 3);
  CHECK(bw.ack_timeout == 22);
  CHECK(bw.sizes == std::vector<std::uint64_t>{4096});
  const auto tcp = ibkit::build_pair_request(plan, "tcp");
  CHECK_FALSE(tcp.rail);
  CHECK_FALSE(tcp.ack_timeout);
  CHECK(tcp.sizes == std::vector<std::uint64_t>{4096});
}
