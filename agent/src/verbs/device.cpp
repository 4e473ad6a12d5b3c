#include "verbs/device.hpp"

#include <cerrno>
#include <memory>
#include <vector>

#include "sysfs/sysfs_root.hpp"
#include "util/text.hpp"
#include "verbs/rails.hpp"
#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

bool is_ipv4_mapped(const ibv_gid& gid) {
  for (int i = 0; i < 10; ++i) {
    if (gid.raw[i] != 0) return false;
  }
  return gid.raw[10] == 0xff && gid.raw[11] == 0xff;
}

bool is_zero(const ibv_gid& gid) {
  for (auto byte : gid.raw) {
    if (byte != 0) return false;
  }
  return true;
}

// The RoCE v2 GID that carries an IPv4 address (what rdma_cm and perftest pick on RoCE),
// else the first valid one.
Expected<int> choose_gid_index(ibv_context* context, int port, int table_length) {
  std::vector<ibv_gid_entry> entries(static_cast<std::size_t>(table_length > 0 ? table_length : 1));
  ssize_t count = ibv_query_gid_table(context, entries.data(), entries.size(), 0);
  if (count < 0) return verbs_error("ibv_query_gid_table", static_cast<int>(-count));
  int fallback = -1;
  for (ssize_t i = 0; i < count; ++i) {
    const auto& entry = entries[static_cast<std::size_t>(i)];
    if (static_cast<int>(entry.port_num) != port || is_zero(entry.gid)) continue;
    if (entry.gid_type == IBV_GID_TYPE_ROCE_V2 && is_ipv4_mapped(entry.gid)) {
      return static_cast<int>(entry.gid_index);
    }
    if (fallback < 0) fallback = static_cast<int>(entry.gid_index);
  }
  if (fallback < 0)
    return Error{"no valid GID on port " + std::to_string(port) +
                 ": is the netdev up with an IP address?"};
  return fallback;
}

std::string port_state_name(ibv_port_state state) { return ibv_port_state_str(state); }

// Why verbs lists no device: none in the kernel at all, or devices that verbs cannot reach
// (without ib_uverbs they are in /sys/class/infiniband but have no /dev/infiniband/uverbs*).
Error no_device_error() {
  std::vector<std::string> kernel_devices;
  if (auto root = SysfsRoot::open("/")) kernel_devices = root->list("sys/class/infiniband");
  if (!kernel_devices.empty()) {
    return Error{"the kernel has RDMA device(s) " + join(kernel_devices, ", ") +
                     " but verbs lists none: load ib_uverbs (modprobe ib_uverbs) and check "
                     "/dev/infiniband/uverbs*",
                 true};
  }
  return Error{
      "no RDMA device on this node: load the HCA driver or create a Soft-RoCE device (ibkit "
      "check says more)",
      true};
}

}  // namespace

int mtu_bytes(ibv_mtu mtu) { return 128 << static_cast<int>(mtu); }

std::string describe(const OpenDevice& device) {
  std::string address =
      device.roce
          ? (device.gid_index >= 0 ? "RoCE GID " + std::to_string(device.gid_index) : "RoCE")
          : "LID " + std::to_string(device.port_attr.lid);
  return device.name + " port " + std::to_string(device.port) + " (" + address + ", MTU " +
         std::to_string(mtu_bytes(device.port_attr.active_mtu)) + ")";
}

Expected<OpenDevice> open_device(const DeviceChoice& requested) {
  DeviceChoice choice = requested;
  if (choice.rail >= 0 && choice.device.empty()) {
    auto name = rail_device(choice.rail);
    if (!name) return name.error();
    choice.device = *name;
  }
  int count = 0;
  DeviceListPtr list(ibv_get_device_list(&count));
  // Without RDMA in the kernel (no uverbs) the list fails with ENOSYS: there is no device.
  if (!list && errno != ENOSYS) return verbs_error("ibv_get_device_list", errno);
  if (!list || count == 0) return no_device_error();

  std::string seen;
  for (int i = 0; i < count; ++i) {
    ibv_device* device = list.get()[i];
    const std::string name = ibv_get_device_name(device);
    if (!choice.device.empty() && name != choice.device) continue;
    OpenDevice open;
    open.name = name;
    open.context.reset(ibv_open_device(device));
    if (!open.context) return verbs_error("ibv_open_device " + name, errno);
    if (int rc = ibv_query_device(open.context.get(), &open.device_attr); rc != 0) {
      return verbs_error("ibv_query_device " + name, rc);
    }
    for (int port = 1; port <= open.device_attr.phys_port_cnt; ++port) {
      if (choice.port != 0 && port != choice.port) continue;
      ibv_port_attr attr{};
      if (int rc = ibv_query_port(open.context.get(), static_cast<uint8_t>(port), &attr); rc != 0) {
        return verbs_error("ibv_query_port " + name, rc);
      }
      seen += (seen.empty() ? "" : ", ") + name + "/" + std::to_string(port) + " " +
              port_state_name(attr.state);
      if (attr.state != IBV_PORT_ACTIVE) continue;
      open.port = port;
      open.port_attr = attr;
      open.roce = attr.link_layer == IBV_LINK_LAYER_ETHERNET;
      if (choice.gid_index >= 0) {
        open.gid_index = choice.gid_index;
      } else if (open.roce) {
        auto index = choose_gid_index(open.context.get(), port, attr.gid_tbl_len);
        if (!index) return Error{name + ": " + index.error().message};
        open.gid_index = *index;
      }
      if (int rc = ibv_query_gid(open.context.get(), static_cast<uint8_t>(port), open.gid_index,
                                 &open.gid);
          rc != 0) {
        return verbs_error("ibv_query_gid " + name, rc);
      }
      return open;
    }
  }
  if (!choice.device.empty() && seen.empty()) {
    return Error{"--device " + choice.device + ": no such RDMA device (see ibkit devices)"};
  }
  return Error{"no Active port" + std::string(choice.device.empty() ? "" : " on " + choice.device) +
               " (seen: " + seen + "); see ibkit check for why"};
}

}  // namespace ibkit
