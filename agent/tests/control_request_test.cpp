#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "control/measurement_request.hpp"

using namespace ibkit;
using nlohmann::json;

namespace {

// A valid request with one field replaced (or removed, for a null value).
json with(const std::string& field, const json& value) {
  json message = {{"type", "request"}, {"test", "tcp"}, {"sizes", {65536}},
                  {"qps", 4},          {"iters", 0},    {"duration_s", 5}};
  if (value.is_null()) {
    message.erase(field);
  } else {
    message[field] = value;
  }
  return message;
}

std::string refusal(const json& message) {
  auto request = request_from_json(message);
  REQUIRE_FALSE(request.ok());
  return request.error().message;
}

}  // namespace

TEST_CASE("a request survives the JSON round trip", "[control]") {
  TestRequest request;
  request.test = "bw";
  request.op = "write";
  request.sizes = {2, 4096, 8u << 20};
  request.qps = 8;
  request.iters = 5000;
  request.bidir = true;
  request.use_cm = true;
  request.tx_depth = 256;
  request.ack_timeout = 22;
  auto back = request_from_json(to_json(request));
  REQUIRE(back.ok());
  CHECK(back->test == "bw");
  CHECK(back->op == "write");
  CHECK(back->sizes == request.sizes);
  CHECK(back->qps == 8);
  CHECK(back->iters == 5000);
  CHECK(back->duration_s == 0);
  CHECK(back->bidir);
  CHECK(back->use_cm);
  CHECK(back->tx_depth == 256);
  CHECK(back->ack_timeout == 22);
}

TEST_CASE("an ACK timeout goes on the wire only when asked for, and within 1..31", "[control]") {
  CHECK_FALSE(to_json(TestRequest{}).contains("ack_timeout"));
  auto plain = request_from_json(with("bidir", true));
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->ack_timeout);
  CHECK(refusal(with("ack_timeout", 0)) == "request field \"ack_timeout\": 0 is outside 1..31");
  CHECK(refusal(with("ack_timeout", 32)) == "request field \"ack_timeout\": 32 is outside 1..31");
  CHECK(refusal(with("ack_timeout", "22")).rfind("request field \"ack_timeout\"", 0) == 0);
}

TEST_CASE("a request with a duration goes on the wire with iters 0", "[control]") {
  TestRequest request;
  request.duration_s = 2.5;
  auto message = to_json(request);
  CHECK(message["iters"] == 0);
  auto back = request_from_json(message);
  REQUIRE(back.ok());
  CHECK(back->duration_s == 2.5);
}

TEST_CASE("missing fields take the defaults, but the test is required", "[control]") {
  auto request = request_from_json({{"test", "lat"}});
  REQUIRE(request.ok());
  CHECK(request->sizes == std::vector<std::uint64_t>{2});
  CHECK(request->iters == 1000);
  CHECK_THAT(refusal(with("test", nullptr)), Catch::Contains("request field \"test\": missing"));
}

TEST_CASE("absurd message sizes are refused, naming the field and the bounds", "[control]") {
  CHECK(refusal(with("sizes", {0})) == "request field \"sizes\": 0 is outside 1..8388608");
  CHECK_THAT(refusal(with("sizes", {1ull << 40})), Catch::Contains("is outside 1..8388608"));
  CHECK_THAT(refusal(with("sizes", json::array())),
             Catch::Contains("expected an array of 1 to 32 sizes of 1..8388608 bytes"));
  CHECK_THAT(refusal(with("sizes", std::vector<int>(33, 2))), Catch::Contains("1 to 32 sizes"));
  CHECK_THAT(refusal(with("sizes", 4096)), Catch::Contains("request field \"sizes\""));
  CHECK_THAT(refusal(with("sizes", {-1})), Catch::Contains("-1 is outside 1..8388608"));
}

TEST_CASE("absurd queue pair counts are refused", "[control]") {
  CHECK(refusal(with("qps", 0)) == "request field \"qps\": 0 is outside 1..64");
  CHECK(refusal(with("qps", 65)) == "request field \"qps\": 65 is outside 1..64");
  CHECK(refusal(with("qps", -3)) == "request field \"qps\": -3 is outside 1..64");
  CHECK_THAT(refusal(with("qps", 1e12)), Catch::Contains("expected an integer in 1..64"));
}

TEST_CASE("absurd iteration counts and durations are refused", "[control]") {
  CHECK(refusal(with("duration_s", 301)) ==
        "request field \"duration_s\": 301 is outside 0..300 seconds");
  CHECK_THAT(refusal(with("duration_s", -1)), Catch::Contains("-1 is outside 0..300 seconds"));
  CHECK_THAT(refusal(with("duration_s", "5")), Catch::Contains("expected a number"));
  json many = with("iters", 10'000'001);
  many["duration_s"] = 0;
  CHECK(refusal(many) == "request field \"iters\": 10000001 is outside 0..10000000");
  CHECK_THAT(refusal(with("iters", -5)), Catch::Contains("-5 is outside 0..10000000"));
}

TEST_CASE("exactly one of iters and duration_s says how long a size runs", "[control]") {
  CHECK_THAT(refusal(with("iters", 100)), Catch::Contains("give exactly one"));
  json neither = with("duration_s", 0);
  CHECK_THAT(refusal(neither), Catch::Contains("give exactly one (the other 0); got 0 and 0"));
}

TEST_CASE("wrong JSON types are refused", "[control]") {
  CHECK(refusal(with("qps", "4")) ==
        "request field \"qps\": expected an integer in 1..64, got a string");
  CHECK_THAT(refusal(with("qps", 1.5)), Catch::Contains("expected an integer in 1..64, got 1.5"));
  CHECK_THAT(refusal(with("qps", true)), Catch::Contains("got a boolean"));
  CHECK_THAT(refusal(with("bidir", "yes")),
             Catch::Contains("request field \"bidir\": expected true or false"));
  CHECK_THAT(refusal(with("use_cm", 1)), Catch::Contains("request field \"use_cm\""));
  CHECK_THAT(refusal(with("test", 7)), Catch::Contains("request field \"test\": expected a name"));
  CHECK_THAT(refusal(with("op", "atomic")),
             Catch::Contains("expected \"send\", \"write\" or \"read\""));
  CHECK_THAT(refusal(with("tx_depth", 0)), Catch::Contains("0 is outside 1..4096"));
  CHECK_THAT(refusal(with("tx_depth", 4097)), Catch::Contains("4097 is outside 1..4096"));
  CHECK_THAT(refusal(with("type", "accept")), Catch::Contains("request field \"type\""));
  CHECK_THAT(refusal(json::array()), Catch::Contains("must be a JSON object"));
}

TEST_CASE("test names are short lower-case words", "[control]") {
  CHECK_THAT(refusal(with("test", "")), Catch::Contains("lower-case letters or digits"));
  CHECK_THAT(refusal(with("test", std::string(33, 'a'))), Catch::Contains("1 to 32"));
  CHECK_THAT(refusal(with("test", "../etc")), Catch::Contains("lower-case letters or digits"));
}

TEST_CASE("unknown fields are refused, listing the known ones", "[control]") {
  auto message = refusal(with("qpz", 4));
  CHECK_THAT(message, Catch::StartsWith("request field \"qpz\" is not known (known: type, test,"));
}
