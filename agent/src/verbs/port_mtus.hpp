#pragma once

#include "sysfs/active_mtu.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {

// The active MTU of every port of every RDMA device on this machine, asked through verbs
// (ibv_query_port). A device that cannot be opened or queried is left out; no device (or no
// ib_uverbs) gives an empty map. Never throws.
ActiveMtus query_active_mtus();

// The active MTUs `root` shows: the live machine's through verbs, a fixture tree's from its
// ibv_devinfo.txt (empty without one).
ActiveMtus read_active_mtus(const SysfsRoot& root);

}  // namespace ibkit
