#pragma once

#include <string>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// A node's rails: its RDMA devices with an Active port, in natural name order (mlx5_2 before
// mlx5_10), so rail i is the same HCA slot on every node of a uniform cluster. When any of them
// is InfiniBand only the InfiniBand ones count: an Ethernet NIC beside the fabric (Azure's
// mlx5_an0) is no rail. Empty when there is no RDMA device; fails when one cannot be queried.
Expected<std::vector<std::string>> rail_devices();

// An Active port of a rail.
struct RailPort {
  std::string device;
  int port = 1;
};

// Every Active port of every rail, rail by rail, ports in order (a dual-port HCA with both
// ports cabled gives two). Empty when there is no rail; fails when a device cannot be queried.
Expected<std::vector<RailPort>> rail_ports();

// The name of rail i; fails naming the rails this node has.
Expected<std::string> rail_device(int rail);

// Sorts names with their digit runs compared as numbers ("mlx5_2" < "mlx5_10").
void sort_naturally(std::vector<std::string>& names);

}  // namespace ibkit
