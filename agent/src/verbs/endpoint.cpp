#include "verbs/endpoint.hpp"

namespace ibkit {

nlohmann::json to_json(const Endpoint& endpoint) {
  return {{"lid", endpoint.lid},
          {"gid", endpoint.gid},
          {"mtu", endpoint.mtu},
          {"qpns", endpoint.qpns},
          {"psns", endpoint.psns},
          {"rkey", endpoint.rkey},
          {"address", endpoint.address},
          {"buffer_bytes", endpoint.buffer_bytes},
          {"max_inline", endpoint.max_inline}};
}

Expected<Endpoint> endpoint_from_json(const nlohmann::json& message, std::size_t max_qps) {
  try {
    Endpoint endpoint;
    endpoint.lid = message.at("lid").get<std::uint16_t>();
    endpoint.gid = message.at("gid").get<std::vector<std::uint8_t>>();
    endpoint.mtu = message.at("mtu").get<int>();
    endpoint.qpns = message.at("qpns").get<std::vector<std::uint32_t>>();
    endpoint.psns = message.at("psns").get<std::vector<std::uint32_t>>();
    endpoint.rkey = message.at("rkey").get<std::uint32_t>();
    endpoint.address = message.at("address").get<std::uint64_t>();
    endpoint.buffer_bytes = message.at("buffer_bytes").get<std::uint64_t>();
    endpoint.max_inline = message.at("max_inline").get<std::uint32_t>();
    if (endpoint.gid.size() != 16) return Error{"peer endpoint: gid must have 16 bytes"};
    if (endpoint.mtu < 1 || endpoint.mtu > 5)
      return Error{"peer endpoint: mtu must be 1-5 (256-4096 bytes)"};
    if (endpoint.qpns.empty() || endpoint.qpns.size() > max_qps ||
        endpoint.psns.size() != endpoint.qpns.size()) {
      return Error{"peer endpoint: qpns/psns must name 1-" + std::to_string(max_qps) +
                   " queue pairs, one PSN each"};
    }
    return endpoint;
  } catch (const nlohmann::json::exception& error) {
    return Error{std::string("peer endpoint: ") + error.what()};
  }
}

}  // namespace ibkit
