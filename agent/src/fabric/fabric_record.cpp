#include "fabric/fabric_record.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/error_counters.hpp"
#include "util/files/bounded_file.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::string_view kHeader = "ibkit-fabric 1";
constexpr int kMaxPortNumber = 255;

const char* type_word(SubnetNodeType type) {
  switch (type) {
    case SubnetNodeType::kSwitch:
      return "switch";
    case SubnetNodeType::kRouter:
      return "router";
    case SubnetNodeType::kChannelAdapter:
      break;
  }
  return "ca";
}

std::string hex_of(std::string_view text) {
  if (text.empty()) return "-";
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : text) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

std::optional<std::string> text_of(std::string_view hex) {
  if (hex == "-") return std::string();
  if (hex.size() % 2 != 0 || hex.size() > 2 * 128) return std::nullopt;
  std::string text;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    auto byte = parse_unsigned("0x" + std::string(hex.substr(i, 2)));
    if (!byte) return std::nullopt;
    text += static_cast<char>(*byte);
  }
  return text;
}

// A switch's forwarding table from its hex, at most kMaxForwardingLids entries.
std::optional<std::vector<std::uint8_t>> forwarding_of(std::string_view hex) {
  if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 2 * kMaxForwardingLids)
    return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::vector<std::uint8_t> table;
  table.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = digit(hex[i]);
    const int low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    table.push_back(static_cast<std::uint8_t>(high * 16 + low));
  }
  return table;
}

std::string ref_text(const std::optional<SubnetPortRef>& ref) {
  if (!ref) return "-";
  return std::to_string(ref->node) + ":" + std::to_string(ref->port);
}

std::optional<SubnetPortRef> parse_ref(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto node = parse_unsigned(text.substr(0, colon));
  auto port = parse_unsigned(text.substr(colon + 1));
  if (!node || !port || *node >= kMaxFabricNodes || *port > kMaxPortNumber) return std::nullopt;
  return SubnetPortRef{static_cast<std::size_t>(*node), static_cast<int>(*port)};
}

// Reads `fields` as unsigned numbers, each at most its bound; nullopt when one is not.
template <std::size_t N>
std::optional<std::array<std::uint64_t, N>> numbers(const std::vector<std::string>& fields,
                                                    std::size_t first,
                                                    const std::array<std::uint64_t, N>& most) {
  std::array<std::uint64_t, N> values{};
  for (std::size_t i = 0; i < N; ++i) {
    auto value = parse_unsigned(fields[first + i]);
    if (!value || *value > most[i]) return std::nullopt;
    values[i] = *value;
  }
  return values;
}

constexpr std::uint64_t kAny = UINT64_MAX;

Expected<SubnetPort> read_port(const std::vector<std::string>& fields) {
  if (fields.size() != 17) return Error{"a port line has 17 fields"};
  auto n = numbers<15>(
      fields, 1,
      {kMaxPortNumber, kAny, 0xffff, 15, 15, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1});
  if (!n) return Error{"a port field is not a number in range"};
  SubnetPort port;
  port.number = static_cast<int>((*n)[0]);
  port.guid = (*n)[1];
  port.lid = static_cast<std::uint16_t>((*n)[2]);
  port.state = static_cast<int>((*n)[3]);
  port.phys_state = static_cast<int>((*n)[4]);
  port.width_supported = static_cast<unsigned>((*n)[5]);
  port.width_enabled = static_cast<unsigned>((*n)[6]);
  port.width_active = static_cast<unsigned>((*n)[7]);
  port.speed_supported = static_cast<unsigned>((*n)[8]);
  port.speed_enabled = static_cast<unsigned>((*n)[9]);
  port.speed_active = static_cast<unsigned>((*n)[10]);
  port.speed_ext_supported = static_cast<unsigned>((*n)[11]);
  port.speed_ext_enabled = static_cast<unsigned>((*n)[12]);
  port.speed_ext_active = static_cast<unsigned>((*n)[13]);
  port.runs_subnet_manager = (*n)[14] == 1;
  if (fields[16] != "-") {
    port.remote = parse_ref(fields[16]);
    if (!port.remote) return Error{"the port's far end is not NODE:PORT"};
  }
  return port;
}

// A port's counters as a `counters NAME=VALUE...` line (`counters64` when they are
// PortCountersExtended's), or why they are not as an `uncounted HEX` one; nothing when discovery
// did not ask.
std::string counter_lines(const SubnetPort& port) {
  if (!port.counters.empty()) {
    std::string line = port.counters_extended ? "counters64" : "counters";
    for (const auto& [name, value] : port.counters)
      line += " " + name + "=" + std::to_string(value);
    return line + "\n";
  }
  if (!port.counters_unread.empty()) return "uncounted " + hex_of(port.counters_unread) + "\n";
  return "";
}

// Reads a counters line into `port`: each name one of error_counters(), once, with a value
// its width (64 bits, `extended`) can hold.
Expected<bool> read_counters(const std::vector<std::string>& fields, bool extended,
                             SubnetPort& port) {
  if (!port.counters.empty() || !port.counters_unread.empty())
    return Error{"a port with two counters or uncounted lines"};
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const auto equals = fields[i].find('=');
    const std::string name = fields[i].substr(0, equals);
    const ErrorCounter* known = error_counter_named(name);
    auto value =
        equals == std::string::npos ? std::nullopt : parse_unsigned(fields[i].substr(equals + 1));
    if (known == nullptr || !value || (!extended && *value >= (std::uint64_t{1} << known->bits)) ||
        port.counters.count(name) != 0)
      return Error{"a counter is not NAME=VALUE of PortCounters' error counters, each once"};
    port.counters[name] = *value;
  }
  if (port.counters.size() != error_counters().size())
    return Error{"a counters line holds all " + std::to_string(error_counters().size()) +
                 " error counters of PortCounters"};
  port.counters_extended = extended;
  return true;
}

// A line's words, at most one more than the longest line (a port's) has: a line of a million
// words is refused by its count without a million strings.
std::vector<std::string> fields_of(std::string_view line) {
  constexpr std::size_t kMostFields = 18;
  std::vector<std::string> fields;
  std::size_t at = 0;
  while (fields.size() < kMostFields) {
    at = line.find_first_not_of(" \t\r", at);
    if (at == std::string_view::npos) break;
    const std::size_t end = line.find_first_of(" \t\r", at);
    fields.emplace_back(line.substr(at, end == std::string_view::npos ? end : end - at));
    at = end;
  }
  return fields;
}

}  // namespace

std::string record_fabric(const Subnet& fabric) {
  std::string out = std::string(kHeader) + "\n";
  for (const auto& node : fabric.nodes) {
    out += "node " + std::to_string(node.guid) + " " + type_word(node.type) + " " +
           hex_of(node.description) + "\n";
    if (!node.forwarding.empty())
      out += "forwarding " +
             hex_of(std::string_view(reinterpret_cast<const char*>(node.forwarding.data()),
                                     node.forwarding.size())) +
             "\n";
    for (const auto& port : node.ports) {
      out += "port";
      for (std::uint64_t value :
           {std::uint64_t(port.number), port.guid, std::uint64_t(port.lid),
            std::uint64_t(port.state), std::uint64_t(port.phys_state),
            std::uint64_t(port.width_supported), std::uint64_t(port.width_enabled),
            std::uint64_t(port.width_active), std::uint64_t(port.speed_supported),
            std::uint64_t(port.speed_enabled), std::uint64_t(port.speed_active),
            std::uint64_t(port.speed_ext_supported), std::uint64_t(port.speed_ext_enabled),
            std::uint64_t(port.speed_ext_active), std::uint64_t(port.runs_subnet_manager)})
        out += " " + std::to_string(value);
      out += " " + ref_text(port.remote) + "\n";
      out += counter_lines(port);
    }
  }
  for (const auto& manager : fabric.managers) {
    out += "sm " + ref_text(manager.port) + " " + std::to_string(manager.guid) + " " +
           std::to_string(manager.priority) + " " +
           std::to_string(static_cast<int>(manager.state)) + "\n";
  }
  if (fabric.discovered_from) out += "from " + ref_text(fabric.discovered_from) + "\n";
  return out;
}

Expected<Subnet> read_topology_file(const std::string& path, std::string_view label) {
  // A 4,096-host fat tree with its forwarding tables is a few MiB.
  const FileLimit limit{label, std::size_t{64} << 20,
                        "a topology is what ibkit fabric --save-topology wrote"};
  auto file = read_bounded_file(path, limit);
  if (!file) return file.error();
  auto fabric = read_fabric_record(file->bytes);
  if (!fabric) {
    return Error{std::string(label) + " " + path + ": " + fabric.error().message +
                 ": give a file ibkit fabric --save-topology wrote"};
  }
  return fabric;
}

Expected<Subnet> read_fabric_record(std::string_view record) {
  if (record.substr(0, record.find('\n')) != kHeader) {
    return Error{"the fabric record does not start with \"" + std::string(kHeader) + "\""};
  }
  Subnet fabric;
  std::vector<SubnetPortRef> references;
  std::size_t next = record.find('\n');
  for (std::size_t number = 2; next != std::string_view::npos; ++number) {
    const std::size_t start = next + 1;
    next = record.find('\n', start);
    const auto fields = fields_of(record.substr(
        start, next == std::string_view::npos ? std::string_view::npos : next - start));
    if (fields.empty()) continue;
    const std::string where = "fabric record line " + std::to_string(number) + ": ";
    const std::string& kind = fields[0];
    if (kind == "node") {
      if (fields.size() != 4) return Error{where + "a node line has 4 fields"};
      if (fabric.nodes.size() == kMaxFabricNodes)
        return Error{where + "more than " + std::to_string(kMaxFabricNodes) + " nodes"};
      auto guid = parse_unsigned(fields[1]);
      auto description = text_of(fields[3]);
      const std::string& type = fields[2];
      if (!guid || !description || (type != "ca" && type != "switch" && type != "router"))
        return Error{where + "a node needs a GUID, a type (ca, switch, router) and a hex name"};
      fabric.nodes.push_back({*guid,
                              type == "switch"   ? SubnetNodeType::kSwitch
                              : type == "router" ? SubnetNodeType::kRouter
                                                 : SubnetNodeType::kChannelAdapter,
                              *description,
                              {},
                              {}});
    } else if (kind == "port") {
      if (fabric.nodes.empty()) return Error{where + "a port before any node"};
      auto port = read_port(fields);
      if (!port) return Error{where + port.error().message};
      auto& ports = fabric.nodes.back().ports;
      if (ports.size() > kMaxPortNumber) return Error{where + "a node with more than 255 ports"};
      // Ports are found by number: a second port 1 would be a cable nobody can follow.
      if (std::any_of(ports.begin(), ports.end(),
                      [&](const SubnetPort& listed) { return listed.number == port->number; }))
        return Error{where + "port " + std::to_string(port->number) + " listed twice in one node"};
      if (port->remote) references.push_back(*port->remote);
      ports.push_back(*port);
    } else if (kind == "forwarding") {
      if (fabric.nodes.empty() || fabric.nodes.back().type != SubnetNodeType::kSwitch ||
          !fabric.nodes.back().forwarding.empty())
        return Error{where + "a forwarding line belongs to a switch, once"};
      auto table = fields.size() == 2 ? forwarding_of(fields[1]) : std::nullopt;
      if (!table) return Error{where + "a forwarding table is one hex port per LID, at most 49152"};
      fabric.nodes.back().forwarding = std::move(*table);
    } else if (kind == "counters" || kind == "counters64" || kind == "uncounted") {
      if (fabric.nodes.empty() || fabric.nodes.back().ports.empty())
        return Error{where + "counters before any port"};
      SubnetPort& port = fabric.nodes.back().ports.back();
      if (kind != "uncounted") {
        auto read = read_counters(fields, kind == "counters64", port);
        if (!read) return Error{where + read.error().message};
      } else {
        auto why = fields.size() == 2 ? text_of(fields[1]) : std::nullopt;
        if (!why || why->empty() || !port.counters.empty() || !port.counters_unread.empty())
          return Error{where + "an uncounted line is one hex reason, once per port"};
        port.counters_unread = *why;
      }
    } else if (kind == "sm") {
      auto port = fields.size() == 5 ? parse_ref(fields[1]) : std::nullopt;
      auto n = fields.size() == 5 ? numbers<3>(fields, 2, {kAny, 15, 3}) : std::nullopt;
      if (!port || !n) return Error{where + "an sm line is NODE:PORT GUID PRIORITY STATE"};
      fabric.managers.push_back(
          {*port, (*n)[0], static_cast<int>((*n)[1]), static_cast<SubnetManagerState>((*n)[2])});
      references.push_back(*port);
    } else if (kind == "from") {
      fabric.discovered_from = fields.size() == 2 ? parse_ref(fields[1]) : std::nullopt;
      if (!fabric.discovered_from) return Error{where + "a from line is NODE:PORT"};
      references.push_back(*fabric.discovered_from);
    } else {
      return Error{where + "\"" + kind.substr(0, 16) +
                   "\" is not node, forwarding, port, counters, counters64, uncounted, sm or from"};
    }
  }
  for (const auto& ref : references) {
    if (fabric.port_of(ref) == nullptr)
      return Error{"fabric record: " + ref_text(ref) + " names no port listed"};
  }
  return fabric;
}

}  // namespace ibkit
