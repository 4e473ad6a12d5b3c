#pragma once

#include <string>

#include "model/check_result.hpp"
#include "util/build_version.hpp"

namespace ibkit {

inline constexpr const char* kCheckSchema = "ibkit.check/1";

// One node's check results, the single model every format is rendered from.
struct CheckReport {
  std::string host;
  std::string generated_at;  // UTC, ISO 8601
  std::string config_source;
  CheckResults results;
  std::string agent_version = build_version();  // the writer's; "" in reports older than it
  std::string command = "check";                // the subcommand that judged: "check", "fabric"
};

inline constexpr const char* kFabricConfigPrefix = "the subnet as discovered from ";

// Where an `ibkit fabric` report was discovered from, as merged reports name it: "mgmt1", or
// "mgmt1, mlx5_1" when it started from a device it named.
std::string fabric_origin(const CheckReport& fabric);

}  // namespace ibkit
