#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sysfs/sysfs_root.hpp"

namespace ibkit {

struct InterfaceAddress {
  std::string interface;
  std::string family;   // "inet" or "inet6"
  std::string address;  // "10.0.0.1/24"
};

// The IP addresses of every interface. On the live system they come from the kernel
// (getifaddrs); under a fixture root from ip-addr.txt, the `ip -o addr show` output captured
// with the tree. Returns nullopt when they cannot be known (a fixture without that file).
std::optional<std::vector<InterfaceAddress>> read_addresses(const SysfsRoot& root);

// Parses `ip -o addr show` output; lines it does not understand are ignored.
std::vector<InterfaceAddress> parse_ip_addr_output(std::string_view text);

}  // namespace ibkit
