#include "sysfs/addresses.hpp"

#include <arpa/inet.h>
#include <bit>
#include <ifaddrs.h>
#include <memory>
#include <netinet/in.h>

#include "util/text.hpp"

namespace ibkit {
namespace {

int prefix_length(const sockaddr* netmask) {
  if (netmask == nullptr) return 0;
  int bits = 0;
  if (netmask->sa_family == AF_INET) {
    const auto* mask = reinterpret_cast<const sockaddr_in*>(netmask);
    bits = std::popcount(static_cast<unsigned>(mask->sin_addr.s_addr));
  } else if (netmask->sa_family == AF_INET6) {
    const auto* mask = reinterpret_cast<const sockaddr_in6*>(netmask);
    for (unsigned char byte : mask->sin6_addr.s6_addr) bits += std::popcount(byte);
  }
  return bits;
}

std::optional<std::vector<InterfaceAddress>> live_addresses() {
  ifaddrs* raw = nullptr;
  if (getifaddrs(&raw) != 0) return std::nullopt;
  std::unique_ptr<ifaddrs, decltype(&freeifaddrs)> list(raw, &freeifaddrs);
  std::vector<InterfaceAddress> addresses;
  for (const ifaddrs* entry = list.get(); entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr) continue;
    const int family = entry->ifa_addr->sa_family;
    if (family != AF_INET && family != AF_INET6) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw_address =
        family == AF_INET ? static_cast<const void*>(
                                &reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr)
                          : static_cast<const void*>(
                                &reinterpret_cast<const sockaddr_in6*>(entry->ifa_addr)->sin6_addr);
    if (inet_ntop(family, raw_address, text, sizeof text) == nullptr) continue;
    addresses.push_back(
        {entry->ifa_name, family == AF_INET ? "inet" : "inet6",
         std::string(text) + "/" + std::to_string(prefix_length(entry->ifa_netmask))});
  }
  return addresses;
}

}  // namespace

std::vector<InterfaceAddress> parse_ip_addr_output(std::string_view text) {
  std::vector<InterfaceAddress> addresses;
  for (const auto& line : split(text, '\n')) {
    // "3: ib0    inet 10.0.0.1/24 brd 10.0.0.255 scope global ib0\       valid_lft ..."
    auto fields = split_whitespace(line);
    if (fields.size() < 4 || fields[0].empty() || fields[0].back() != ':') continue;
    if (fields[2] != "inet" && fields[2] != "inet6") continue;
    std::string name = fields[1];
    if (auto at = name.find('@'); at != std::string::npos) name.resize(at);
    addresses.push_back({name, fields[2], fields[3]});
  }
  return addresses;
}

std::optional<std::vector<InterfaceAddress>> read_addresses(const SysfsRoot& root) {
  if (root.is_live_system()) return live_addresses();
  auto captured = root.read("ip-addr.txt");
  if (!captured) return std::nullopt;
  return parse_ip_addr_output(*captured);
}

}  // namespace ibkit
