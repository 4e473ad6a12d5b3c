#include "schedule/hosts.hpp"

#include <arpa/inet.h>
#include <cctype>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <optional>
#include <set>

#include "model/sweep_report.hpp"
#include "util/files/bounded_file.hpp"
#include "util/mistakes.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kMaxHosts = kMaxSweepNodes;
// 4096 lines of a 253-byte name, an address and a comment fit with room to spare.
constexpr FileLimit kHostsFile{"hosts file", std::size_t{4} << 20,
                               "give one node per line, at most 4096 nodes"};
constexpr std::size_t kMaxNameBytes = 253;  // a DNS name's longest

// An address in its one canonical form: a numeric one as inet_ntop writes it (inet_aton reads
// 127.1, 0x7f.0.0.1 and 2130706433 as 127.0.0.1, and an IPv6 address has many spellings, an
// IPv4-mapped one among them), a name in lower case without a trailing dot (DNS ignores both).
std::string canonical_address(std::string address) {
  std::string scope;
  if (const auto percent = address.find('%'); percent != std::string::npos) {
    scope = address.substr(percent);
    address.resize(percent);
  }
  char text[INET6_ADDRSTRLEN] = {};
  in_addr v4{};
  in6_addr v6{};
  if (address.find(':') == std::string::npos && inet_aton(address.c_str(), &v4) != 0) {
    inet_ntop(AF_INET, &v4, text, sizeof text);
  } else if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_V4MAPPED(&v6)) {
      std::memcpy(&v4, &v6.s6_addr[12], sizeof v4);
      inet_ntop(AF_INET, &v4, text, sizeof text);
    } else {
      inet_ntop(AF_INET6, &v6, text, sizeof text);
    }
  }
  if (text[0] != '\0') {
    address = text + scope;
  } else {
    for (char& c : address) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (address.size() > 1 && address.back() == '.') address.pop_back();
    address += scope;
  }
  return address;
}

Expected<std::uint16_t> parse_port(std::string_view text) {
  auto port = parse_unsigned(text);
  if (!port || *port == 0 || *port > 65535 || text.substr(0, 2) == "0x") {
    return Error{"port \"" + std::string(text) + "\" is not 1..65535"};
  }
  return static_cast<std::uint16_t>(*port);
}

// "ADDRESS", "ADDRESS:PORT", "[IPV6]:PORT" or a bare IPv6 address (more than one colon).
Expected<SweepHost> parse_endpoint(std::string_view text, std::uint16_t default_port) {
  SweepHost host;
  host.port = default_port;
  std::string_view address = text;
  std::optional<std::string_view> port;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos) return Error{"\"" + std::string(text) + "\": no ']'"};
    address = text.substr(1, close - 1);
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Error{"\"" + std::string(text) + "\": expected ]:PORT"};
      port = rest.substr(1);
    }
  } else if (auto colon = text.find(':'); colon != std::string_view::npos &&
                                          text.find(':', colon + 1) == std::string_view::npos) {
    address = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (!is_host_text(address)) {
    return Error{"\"" + std::string(address) + "\" is not a host name or address"};
  }
  host.address = std::string(address);
  if (auto checked = check_node_address(canonical_address(host.address)); !checked)
    return Error{"\"" + host.address + "\" " + checked.error().message};
  if (port) {
    auto parsed = parse_port(*port);
    if (!parsed) return parsed.error();
    host.port = *parsed;
  }
  // Nodes that share an address (agents on one machine) are told apart by their port.
  host.name = port ? host.address + ":" + std::to_string(host.port) : host.address;
  return host;
}

Expected<SweepHost> parse_entry(std::string_view name, std::string_view endpoint,
                                std::uint16_t default_port) {
  auto host = parse_endpoint(endpoint, default_port);
  if (!host) return host.error();
  if (!name.empty()) {
    if (!is_host_text(name)) return Error{"\"" + std::string(name) + "\" is not a node name"};
    host->name = std::string(name);
  }
  return host;
}

// Which agent an entry reaches, as far as can be told without a lookup.
std::string agent_key(const SweepHost& host) {
  return "[" + canonical_address(host.address) + "]:" + std::to_string(host.port);
}

// Collects hosts, refusing repeats and overlong lists; `where` names the entry in errors.
class HostList {
 public:
  // The entry at `where`, or why it is none, kept or noted as a mistake; false once the list
  // holds kMaxHosts nodes and another comes: the rest are not read (finish() says why).
  bool take(Expected<SweepHost> host, const std::string& where) {
    if (!host) {
      note(where + ": " + host.error().message);
    } else if (hosts_.size() == kMaxHosts) {
      past_limit_ = Error{where + ": more than " + std::to_string(kMaxHosts) + " nodes"};
      return false;
    } else if (auto added = add(std::move(*host), where); !added) {
      note(added.error().message);
    }
    return true;
  }
  void note(const std::string& mistake) { mistakes_.add(mistake); }

  Expected<std::vector<SweepHost>> finish(const std::string& source) {
    if (past_limit_) return *past_limit_;
    if (mistakes_.any()) return mistakes_.error();
    if (hosts_.size() < 2) {
      return Error{source + ": a sweep needs at least two nodes, got " +
                   std::to_string(hosts_.size())};
    }
    return std::move(hosts_);
  }

 private:
  Expected<Done> add(SweepHost host, const std::string& where) {
    const std::string endpoint = host.address + ":" + std::to_string(host.port);
    if (!names_.insert(host.name).second) {
      return Error{where + ": node \"" + host.name + "\" is listed twice"};
    }
    if (auto [first, added] = agents_.emplace(agent_key(host), where + " (" + endpoint + ")");
        !added) {
      return Error{where + ": " + endpoint + " reaches the same agent as " + first->second +
                   "; list each node once"};
    }
    hosts_.push_back(std::move(host));
    return Done{};
  }

  std::vector<SweepHost> hosts_;
  std::set<std::string> names_;
  std::map<std::string, std::string> agents_;  // agent_key -> the entry that named it first
  Mistakes mistakes_;
  std::optional<Error> past_limit_;
};

}  // namespace

Expected<Done> check_node_address(std::string_view address) {
  if (address != "0.0.0.0" && address != "::") return Done{};
  return Error{
      "is the unspecified address (a listener's \"any\"), which reaches the machine "
      "ibkit runs on, not a node: give the node's own address"};
}

std::string host_description(const SweepHost& host) {
  const bool ipv6 = host.address.find(':') != std::string::npos;
  return host.name + " (" + (ipv6 ? "[" + host.address + "]" : host.address) + ":" +
         std::to_string(host.port) + ")";
}

bool is_host_text(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == ':' || c == '%';
    if (!ok) return false;
  }
  return true;
}

Expected<std::vector<SweepHost>> read_hosts_file(const std::string& path,
                                                 std::uint16_t default_port) {
  auto content = read_bounded_file(path, kHostsFile);
  if (!content) return content.error();
  return parse_hosts_text(content->bytes, path, default_port);
}

Expected<std::vector<SweepHost>> parse_hosts_text(std::string_view text, const std::string& path,
                                                  std::uint16_t default_port) {
  HostList hosts;
  int number = 0;
  for (const auto& line : split(text, '\n')) {
    const std::string where = path + ":" + std::to_string(++number);
    auto fields = split_whitespace(line.substr(0, line.find('#')));
    if (fields.empty()) continue;
    if (fields.size() > 2) {
      hosts.note(where + ": expected ADDRESS[:PORT] or NAME ADDRESS[:PORT], got " +
                 std::to_string(fields.size()) + " fields");
      continue;
    }
    auto host = fields.size() == 1 ? parse_entry("", fields[0], default_port)
                                   : parse_entry(fields[0], fields[1], default_port);
    if (!hosts.take(std::move(host), where)) break;
  }
  return hosts.finish(path);
}

Expected<std::vector<SweepHost>> parse_hosts_list(const std::string& list,
                                                  std::uint16_t default_port) {
  HostList hosts;
  int number = 0;
  for (const auto& raw : split(list, ',')) {
    const std::string where = "--hosts entry " + std::to_string(++number);
    std::string_view entry = trim(raw);
    if (entry.empty()) {
      hosts.note(where + ": empty");
      continue;
    }
    auto equals = entry.find('=');
    auto host = equals == std::string_view::npos
                    ? parse_entry("", entry, default_port)
                    : parse_entry(entry.substr(0, equals), entry.substr(equals + 1), default_port);
    if (!hosts.take(std::move(host), where)) break;
  }
  return hosts.finish("--hosts");
}

}  // namespace ibkit
