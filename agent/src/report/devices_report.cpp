#include "report/devices_report.hpp"

#include <nlohmann/json.hpp>

#include "schema/json_text.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// sysfs's "0015:5dff:fe33:ff56" as ibstat, ibnetdiscover and ibkit fabric write it,
// "0x00155dfffe33ff56", in the text and the JSON alike; "" when not known.
std::string guid_0x(const std::string& guid) {
  std::string hex;
  for (char c : guid) {
    if (c != ':') hex += c;
  }
  return hex.empty() ? "" : "0x" + hex;
}

std::string guid_text(const std::string& guid) {
  const std::string text = guid_0x(guid);
  return text.empty() ? "?" : text;
}

std::string pcie_text(const PciFunction& pci) {
  if (pci.current_link_width == 0 && pci.current_link_speed.empty()) return "PCIe link not visible";
  return "PCIe " + pci.current_link_speed + " x" + std::to_string(pci.current_link_width) +
         " (max " + pci.max_link_speed + " x" + std::to_string(pci.max_link_width) + ")";
}

std::string lid_text(const std::optional<std::uint64_t>& lid) {
  return lid ? std::to_string(*lid) : "?";
}

nlohmann::ordered_json optional_number(const std::optional<std::uint64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::string render_devices_text(const std::string& host, const std::vector<Hca>& hcas) {
  // Names and values read from sysfs: each line as terminal_safe shows it.
  std::string out;
  const auto add_line = [&out](const std::string& line) { out += terminal_safe(line) + "\n"; };
  if (hcas.empty()) {
    add_line("no RDMA device on " + host);
    return out;
  }
  for (const auto& hca : hcas) {
    add_line("CA '" + hca.name + "'  type " + (hca.hca_type.empty() ? "?" : hca.hca_type) +
             "  firmware " + (hca.firmware.empty() ? "?" : hca.firmware) + "  node GUID " +
             guid_text(hca.node_guid));
    if (hca.pci) {
      add_line("    PCI " + hca.pci->address + "  driver " + hca.pci->driver + "  NUMA " +
               (hca.pci->numa_node ? std::to_string(*hca.pci->numa_node) : "none") + "  " +
               pcie_text(*hca.pci));
    } else if (!hca.parent_netdev.empty()) {
      add_line("    soft device on " + hca.parent_netdev);
    }
    for (const auto& port : hca.ports) {
      std::string rate =
          port.rate ? port.rate_text + " = " + format_number(port.rate->data_gbps) + " Gb/s data"
                    : (port.rate_text.empty() ? "?" : port.rate_text);
      std::string line = "    port " + std::to_string(port.number) + ": " +
                         (port.state.empty() ? "?" : port.state) + "/" +
                         (port.phys_state.empty() ? "?" : port.phys_state) + "  " + rate + "  " +
                         (port.link_layer.empty() ? "?" : port.link_layer) + "  MTU " +
                         (port.active_mtu ? std::to_string(*port.active_mtu) : "?");
      if (!port.is_ethernet()) {
        line += "  LID " + lid_text(port.lid) + "  SM LID " + lid_text(port.sm_lid);
      }
      line += port.netdevs.empty()
                  ? "  (no netdev)"
                  : "  ==> " + join(port.netdevs, ", ") + " (" +
                        (port.netdev_state.empty() ? "?" : port.netdev_state) + ")";
      add_line(line);
    }
  }
  return out;
}

std::string render_devices_json(const std::string& host, const std::vector<Hca>& hcas) {
  nlohmann::ordered_json document;
  document["schema"] = kDevicesSchema;
  document["host"] = host;
  auto devices = nlohmann::ordered_json::array();
  for (const auto& hca : hcas) {
    nlohmann::ordered_json device;
    device["name"] = hca.name;
    device["type"] = hca.hca_type;
    device["firmware"] = hca.firmware;
    device["node_guid"] = guid_0x(hca.node_guid);
    device["board_id"] = hca.board_id;
    device["parent_netdev"] = hca.parent_netdev;
    if (hca.pci) {
      device["pci"] = {
          {"address", hca.pci->address},
          {"driver", hca.pci->driver},
          {"numa_node", hca.pci->numa_node ? nlohmann::ordered_json(*hca.pci->numa_node)
                                           : nlohmann::ordered_json(nullptr)},
          {"current_link_speed", hca.pci->current_link_speed},
          {"current_link_width", hca.pci->current_link_width},
          {"max_link_speed", hca.pci->max_link_speed},
          {"max_link_width", hca.pci->max_link_width}};
    } else {
      device["pci"] = nullptr;
    }
    auto ports = nlohmann::ordered_json::array();
    for (const auto& port : hca.ports) {
      nlohmann::ordered_json entry;
      entry["port"] = port.number;
      entry["state"] = port.state;
      entry["phys_state"] = port.phys_state;
      entry["rate"] = port.rate_text;
      entry["width"] = port.rate ? port.rate->width : 0;
      entry["speed"] = port.rate ? port.rate->speed : "";
      entry["data_rate_gbps"] = port.rate ? nlohmann::ordered_json(port.rate->data_gbps)
                                          : nlohmann::ordered_json(nullptr);
      entry["lid"] = optional_number(port.lid);
      entry["sm_lid"] = optional_number(port.sm_lid);
      entry["link_layer"] = port.link_layer;
      entry["active_mtu"] = port.active_mtu ? nlohmann::ordered_json(*port.active_mtu)
                                            : nlohmann::ordered_json(nullptr);
      entry["netdev"] = port.netdevs.empty() ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json(port.netdevs.front());
      entry["netdev_state"] = port.netdev_state;
      entry["netdevs"] = port.netdevs;
      entry["counters"] = port.counters;
      entry["unreadable"] = port.unreadable;
      ports.push_back(std::move(entry));
    }
    device["ports"] = std::move(ports);
    devices.push_back(std::move(device));
  }
  document["devices"] = std::move(devices);
  return report_json_text(document);
}

}  // namespace ibkit
