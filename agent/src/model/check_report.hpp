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

}  // namespace ibkit
