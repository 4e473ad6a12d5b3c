#pragma once

#include <string>

#include "checks/check_result.hpp"

namespace ibkit {

inline constexpr const char* kCheckSchema = "ibkit.check/1";

// One node's check results, the single model every format is rendered from.
struct CheckReport {
  std::string host;
  std::string generated_at;  // UTC, ISO 8601
  std::string config_source;
  CheckResults results;
};

}  // namespace ibkit
