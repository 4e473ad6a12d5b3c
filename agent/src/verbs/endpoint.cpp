#include "verbs/endpoint.hpp"

#include <limits>
#include <string>

#include "control/message_fields.hpp"

namespace ibkit {
namespace {

constexpr std::string_view kKind = "peer endpoint";
constexpr std::uint32_t kMax24Bits = 0xFFFFFF;  // QPNs and PSNs are 24-bit

const nlohmann::json& member(const nlohmann::json& message, const char* field) {
  static const nlohmann::json missing;
  auto found = message.find(field);
  return found == message.end() ? missing : *found;
}

// Every value is checked for type and range before it is converted: nlohmann's get<> of a
// float beyond an integer's range is undefined behaviour, and of 300 as a byte wraps silently.
template <class T>
Expected<T> integer(const nlohmann::json& message, const char* field, T min = 0,
                    T max = std::numeric_limits<T>::max()) {
  return bounded_integer<T>(member(message, field), kKind, field, min, max);
}

template <class T>
Expected<std::vector<T>> integers(const nlohmann::json& message, const char* field,
                                  std::size_t min_count, std::size_t max_count, T max) {
  const auto& value = member(message, field);
  const std::string counts = std::to_string(min_count) + ".." + std::to_string(max_count);
  if (!value.is_array() || value.size() < min_count || value.size() > max_count) {
    return field_error(
        kKind, field,
        "expected an array of " + counts + " integers, got " +
            (value.is_array() ? std::to_string(value.size()) + " elements" : shown(value)));
  }
  std::vector<T> out;
  for (const auto& element : value) {
    auto read = bounded_integer<T>(element, kKind, field, 0, max);
    if (!read) return read.error();
    out.push_back(*read);
  }
  return out;
}

}  // namespace

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
  if (!message.is_object()) return Error{"peer endpoint: expected a JSON object"};
  Endpoint endpoint;
  Expected<Done> read = take(integer<std::uint16_t>(message, "lid"), endpoint.lid);
  if (read) read = take(integers<std::uint8_t>(message, "gid", 16, 16, 255), endpoint.gid);
  if (read) read = take(integer<int>(message, "mtu", 1, 5), endpoint.mtu);  // 256-4096 bytes
  if (read) read = take(integers(message, "qpns", 1, max_qps, kMax24Bits), endpoint.qpns);
  if (read) read = take(integers(message, "psns", 1, max_qps, kMax24Bits), endpoint.psns);
  if (read && endpoint.psns.size() != endpoint.qpns.size())
    read = Error{"peer endpoint: qpns/psns must name the same queue pairs, one PSN each"};
  if (read) read = take(integer<std::uint32_t>(message, "rkey"), endpoint.rkey);
  if (read) read = take(integer<std::uint64_t>(message, "address"), endpoint.address);
  if (read) read = take(integer<std::uint64_t>(message, "buffer_bytes"), endpoint.buffer_bytes);
  if (read) read = take(integer<std::uint32_t>(message, "max_inline"), endpoint.max_inline);
  if (!read) return read.error();
  return endpoint;
}

}  // namespace ibkit
