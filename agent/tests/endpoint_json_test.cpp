#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "verbs/endpoint.hpp"

namespace ibkit {
namespace {

Endpoint sample_endpoint() {
  Endpoint endpoint;
  endpoint.lid = 7;
  endpoint.gid = {254, 128, 0, 0, 0, 0, 0, 0, 2, 72, 138, 255, 254, 171, 84, 20};
  endpoint.mtu = 3;
  endpoint.qpns = {17, 18};
  endpoint.psns = {4711, 4712};
  endpoint.rkey = 2468;
  endpoint.address = 0xFFFFFFFFFFFFF000ULL;
  endpoint.buffer_bytes = 131072;
  endpoint.max_inline = 236;
  return endpoint;
}

std::string error_with(const char* field, const nlohmann::json& value) {
  auto message = to_json(sample_endpoint());
  message[field] = value;
  auto read = endpoint_from_json(message, 4);
  return read ? std::string("accepted") : read.error().message;
}

}  // namespace

TEST_CASE("an endpoint reads back as it was written, the full 64-bit address included", "[verbs]") {
  auto read = endpoint_from_json(to_json(sample_endpoint()), 4);
  REQUIRE(read.ok());
  CHECK(read->address == 0xFFFFFFFFFFFFF000ULL);
  CHECK(read->gid == sample_endpoint().gid);
  CHECK(read->qpns == sample_endpoint().qpns);
  CHECK(read->max_inline == 236u);
}

TEST_CASE("an endpoint field out of range or of the wrong type is an error naming it", "[verbs]") {
  // Found by the peer_message fuzzer: a float beyond 2^64 was converted (undefined behaviour).
  CHECK(error_with("address", 1.4004294967296e21) ==
        "peer endpoint field \"address\": expected an integer in 0..18446744073709551615, got "
        "1.4004294967296e+21");
  CHECK(error_with("address", -1) ==
        "peer endpoint field \"address\": -1 is outside 0..18446744073709551615");
  CHECK(error_with("lid", 70000) == "peer endpoint field \"lid\": 70000 is outside 0..65535");
  CHECK(error_with("rkey", "2468") ==
        "peer endpoint field \"rkey\": expected an integer in 0..4294967295, got a string");
  CHECK(error_with("mtu", 6) == "peer endpoint field \"mtu\": 6 is outside 1..5");
  // A byte of 300 once wrapped to 44 without a word.
  auto gid = sample_endpoint().gid;
  nlohmann::json wide_gid = gid;
  wide_gid[0] = 300;
  CHECK(error_with("gid", wide_gid) == "peer endpoint field \"gid\": 300 is outside 0..255");
  CHECK(error_with("gid", nlohmann::json::array({1, 2})) ==
        "peer endpoint field \"gid\": expected an array of 16..16 integers, got 2 elements");
  CHECK(error_with("qpns", nlohmann::json::array({1, 2, 3, 4, 5})) ==
        "peer endpoint field \"qpns\": expected an array of 1..4 integers, got 5 elements");
  CHECK(error_with("qpns", nlohmann::json::array({0x1000000})) ==
        "peer endpoint field \"qpns\": 16777216 is outside 0..16777215");
  CHECK(error_with("psns", nlohmann::json::array({1})) ==
        "peer endpoint: qpns/psns must name the same queue pairs, one PSN each");
  auto without_rkey = to_json(sample_endpoint());
  without_rkey.erase("rkey");
  CHECK(endpoint_from_json(without_rkey, 4).error().message ==
        "peer endpoint field \"rkey\": expected an integer in 0..4294967295, got null");
  CHECK(endpoint_from_json(nlohmann::json::array(), 4).error().message ==
        "peer endpoint: expected a JSON object");
}

}  // namespace ibkit
