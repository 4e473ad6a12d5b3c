#include "sysfs/hca.hpp"

#include <algorithm>
#include <string_view>

#include "sysfs/netdev.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string enum_name(const std::optional<std::string>& text) {
  if (!text) return "";
  auto colon = text->find(':');
  return std::string(trim(colon == std::string::npos ? *text : text->substr(colon + 1)));
}

std::optional<PciFunction> read_pci_function(const SysfsRoot& root, const std::string& dev_dir) {
  auto pci_dir = root.resolve(dev_dir + "/device");
  if (!pci_dir || !root.exists(*pci_dir + "/vendor")) return std::nullopt;
  PciFunction pci;
  pci.address = std::filesystem::path(*pci_dir).filename().string();
  pci.driver = root.link_target_name(*pci_dir + "/driver").value_or("");
  pci.vendor = root.read(*pci_dir + "/vendor").value_or("");
  pci.device = root.read(*pci_dir + "/device").value_or("");
  if (auto numa = root.read(*pci_dir + "/numa_node")) {
    if (auto value = parse_unsigned(*numa)) pci.numa_node = static_cast<int>(*value);
  }
  pci.current_link_speed = root.read(*pci_dir + "/current_link_speed").value_or("");
  pci.max_link_speed = root.read(*pci_dir + "/max_link_speed").value_or("");
  auto width = [&](const char* name) {
    auto text = root.read(*pci_dir + "/" + name);
    auto value = text ? parse_unsigned(*text) : std::nullopt;
    return value && *value <= 32 ? static_cast<int>(*value) : 0;
  };
  pci.current_link_width = width("current_link_width");
  pci.max_link_width = width("max_link_width");
  return pci;
}

// What a counter file held instead of a count, for a message: quoted, cut short, control
// characters shown as '?'.
std::string not_a_count(const std::string& text) {
  if (text == "N/A (no PMA)") return text;  // the kernel's words for a device without a PMA
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  std::string shown = text.substr(0, 40);
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  if (text.size() > shown.size()) shown += "...";
  return "\"" + shown + "\" is " + (digits ? "more than 2^64-1" : "not a count");
}

// Every file of `dir` but those named in `skip`, read as a count.
CounterDirectory read_counter_directory(const SysfsRoot& root, const std::string& dir,
                                        std::string_view skip = "") {
  CounterDirectory counters;
  counters.present = root.present(dir);
  if (!counters.present) return counters;
  auto names = root.list_entries(dir);
  if (!names) {
    counters.problem = names.error().message;
    return counters;
  }
  for (const auto& counter : *names) {
    if (counter == skip) continue;
    auto text = root.read_attribute(dir + "/" + counter);
    auto value = text ? parse_unsigned(*text) : std::nullopt;
    if (value) {
      counters.values[counter] = *value;
    } else {
      counters.problems[counter] = text ? not_a_count(*text) : text.error().message;
    }
  }
  return counters;
}

void read_counters(const SysfsRoot& root, const std::string& dir, Port& port) {
  CounterDirectory counters = read_counter_directory(root, dir);
  port.has_counters_dir = counters.present;
  port.counters_dir_problem = counters.problem;
  if (!counters.problem.empty()) port.unreadable.emplace_back("counters");
  port.counters = std::move(counters.values);
  for (const auto& [counter, problem] : counters.problems)
    port.unreadable.push_back("counters/" + counter);
  port.counter_problems = std::move(counters.problems);
}

// The port without its netdevs when `with_netdevs` is false: finding them walks the GID table,
// a read per entry (1,024 on rxe), which counter snapshots around every test do not need.
Port read_port(const SysfsRoot& root, const std::string& dev_dir, int number, bool with_netdevs) {
  const std::string dir = dev_dir + "/ports/" + std::to_string(number);
  Port port;
  port.number = number;
  auto note = [&](const char* attribute, const std::optional<std::string>& value) {
    if (!value) port.unreadable.emplace_back(attribute);
    return value;
  };
  port.state = enum_name(note("state", root.read(dir + "/state")));
  port.phys_state = enum_name(note("phys_state", root.read(dir + "/phys_state")));
  port.link_layer = note("link_layer", root.read(dir + "/link_layer")).value_or("");
  port.rate_text = note("rate", root.read(dir + "/rate")).value_or("");
  port.rate = parse_link_rate(port.rate_text, port.is_ethernet());
  if (!port.rate_text.empty() && !port.rate) port.unreadable.emplace_back("rate");
  if (auto lid = root.read(dir + "/lid")) port.lid = parse_unsigned(*lid);
  if (auto sm_lid = root.read(dir + "/sm_lid")) port.sm_lid = parse_unsigned(*sm_lid);
  read_counters(root, dir + "/counters", port);
  // "lifespan" is how many ms the driver caches the counts for, not a count.
  port.transport = read_counter_directory(root, dir + "/hw_counters", "lifespan");
  if (!with_netdevs) return port;
  port.netdevs = netdevs_for_port(root, dev_dir, number, port.is_ethernet());
  if (!port.netdevs.empty()) {
    if (auto netdev = read_netdev(root, port.netdevs.front())) {
      port.netdev_state = netdev->operstate;
      port.netdev_admin_up = netdev->admin_up;
    }
  }
  return port;
}

}  // namespace

std::vector<Hca> scan_hcas(const SysfsRoot& root) {
  std::vector<Hca> hcas;
  for (const auto& name : root.list("sys/class/infiniband")) {
    const std::string dir = "sys/class/infiniband/" + name;
    Hca hca;
    hca.name = name;
    hca.hca_type = root.read(dir + "/hca_type").value_or("");
    hca.firmware = root.read(dir + "/fw_ver").value_or("");
    hca.node_guid = root.read(dir + "/node_guid").value_or("");
    hca.board_id = root.read(dir + "/board_id").value_or("");
    hca.parent_netdev = root.read(dir + "/parent").value_or("");
    hca.pci = read_pci_function(root, dir);
    for (const auto& port_name : root.list(dir + "/ports")) {
      auto number = parse_unsigned(port_name);
      // The kernel names a port by its number; "01" or "+1" beside "1" is not a second port.
      if (number && *number > 0 && *number < 256 && std::to_string(*number) == port_name) {
        hca.ports.push_back(read_port(root, dir, static_cast<int>(*number), true));
      }
    }
    std::sort(hca.ports.begin(), hca.ports.end(),
              [](const Port& a, const Port& b) { return a.number < b.number; });
    hcas.push_back(std::move(hca));
  }
  return hcas;
}

std::optional<Port> read_port_without_netdevs(const SysfsRoot& root, const std::string& device,
                                              int port) {
  if (device.empty() || device.find('/') != std::string::npos || device == "." || device == "..")
    return std::nullopt;
  const std::string dir = "sys/class/infiniband/" + device;
  if (port <= 0 || port >= 256 || !root.exists(dir + "/ports/" + std::to_string(port)))
    return std::nullopt;
  return read_port(root, dir, port, false);
}

}  // namespace ibkit
