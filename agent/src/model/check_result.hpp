#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

enum class Status { kPass, kWarn, kFail, kSkip };

// "pass", "warn", "fail", "skip": the words every report format uses.
std::string_view status_name(Status status);

// One check of one subject (a port, a module, the node): what was seen, what was wanted, and
// for anything but a pass, what to do about it.
struct CheckResult {
  std::string id;       // "port.state", "module.loaded", ...
  std::string subject;  // "mlx5_0/1", "ib_uverbs", "node"
  Status status = Status::kSkip;
  std::string observed;
  std::string expected;
  std::string hint;
};

using CheckResults = std::vector<CheckResult>;

// Fail when any result failed; warnings and skips still pass.
bool any_failed(const CheckResults& results);

}  // namespace ibkit
