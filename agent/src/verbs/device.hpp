#pragma once

#include <cstdint>
#include <string>

#include <infiniband/verbs.h>

#include "util/expected.hpp"
#include "verbs/owners.hpp"

namespace ibkit {

// An open RDMA device, the port the tests run on, and the address peers use to reach it.
struct OpenDevice {
  ContextPtr context;
  std::string name;
  int port = 1;
  ibv_port_attr port_attr{};
  ibv_device_attr device_attr{};
  bool roce = false;  // Ethernet link layer: address by GID, not LID
  int gid_index = 0;  // RoCE v2 IPv4 GID on RoCE; 0 on InfiniBand
  ibv_gid gid{};
};

struct DeviceChoice {
  std::string device;  // "" = the first device with an Active port
  int port = 0;        // 0 = its first Active port
  int gid_index = -1;  // -1 = RoCE v2 with an IPv4 address, else the first valid GID
  int rail = -1;       // >= 0 and no `device`: the device of rail i (verbs/rails.hpp)
};

// Opens the chosen device, or finds one by what it is (an Active port), never by a fixed name.
// Fails with a message naming the devices seen and their port states when none fits.
Expected<OpenDevice> open_device(const DeviceChoice& choice);

// "rxe0 port 1 (RoCE v2 GID 1, MTU 1024)" or "mlx5_0 port 1 (LID 2, MTU 4096)".
std::string describe(const OpenDevice& device);

// Bytes of an ibv_mtu value (IBV_MTU_1024 -> 1024).
int mtu_bytes(ibv_mtu mtu);

}  // namespace ibkit
