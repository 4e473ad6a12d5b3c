#include "model/check_report.hpp"

namespace ibkit {

std::string fabric_origin(const CheckReport& fabric) {
  const std::string prefix = kFabricConfigPrefix;
  if (fabric.config_source.rfind(prefix, 0) != 0) return fabric.host;
  const std::string device = fabric.config_source.substr(prefix.size());
  return device == "the first device" ? fabric.host : fabric.host + ", " + device;
}

}  // namespace ibkit
