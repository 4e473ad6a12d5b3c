#pragma once

#include <string>
#include <vector>

#include "sysfs/hca.hpp"

namespace ibkit {

inline constexpr const char* kDevicesSchema = "ibkit.devices/1";

// Every HCA and port in one view: what ibstat, ibv_devinfo and ibdev2netdev show together.
std::string render_devices_text(const std::string& host, const std::vector<Hca>& hcas);

// {"schema": "ibkit.devices/1", "host": ..., "devices": [{"name": ..., "ports": [...]}]}
std::string render_devices_json(const std::string& host, const std::vector<Hca>& hcas);

}  // namespace ibkit
