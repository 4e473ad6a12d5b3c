#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "util/expected.hpp"

namespace ibkit {

// What one side tells the other to connect its RC queue pairs and reach its memory: the
// out-of-band exchange perftest calls "Ethernet" data exchange.
struct Endpoint {
  std::uint16_t lid = 0;
  std::vector<std::uint8_t> gid;  // 16 bytes
  int mtu = 0;                    // ibv_mtu enum value of the active MTU
  std::vector<std::uint32_t> qpns;
  std::vector<std::uint32_t> psns;
  std::uint32_t rkey = 0;
  std::uint64_t address = 0;       // base of the registered buffer
  std::uint64_t buffer_bytes = 0;  // per queue pair
  std::uint32_t max_inline = 0;
};

nlohmann::json to_json(const Endpoint& endpoint);

// Reads an endpoint from a peer, checking every field (16-byte GID, MTU 1-5, one PSN per
// QPN, at most `max_qps`); the Error names the bad field.
Expected<Endpoint> endpoint_from_json(const nlohmann::json& message, std::size_t max_qps);

}  // namespace ibkit
