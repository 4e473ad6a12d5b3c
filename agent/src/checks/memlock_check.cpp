#include "checks/memlock_check.hpp"

#include "sysfs/host.hpp"

namespace ibkit {
namespace {

std::string limit_text(const std::optional<std::uint64_t>& bytes) {
  return bytes ? std::to_string(*bytes / 1024) + " KiB" : "unlimited";
}

}  // namespace

void check_memlock(const CheckContext& context, CheckResults& results) {
  const auto& wanted_kib = context.config.expect.memlock_kib;
  const std::string expected =
      wanted_kib ? ">= " + std::to_string(*wanted_kib) + " KiB" : "unlimited";
  auto limit = read_memlock(context.root);
  if (!limit) {
    results.push_back({"memlock", "process", Status::kSkip, "unknown", expected,
                       "cannot read \"Max locked memory\" from proc/self/limits"});
    return;
  }
  // The soft limit is what applies; an unlimited soft limit implies an unlimited hard one.
  const auto& soft = limit->soft_bytes;
  bool enough = !soft || (wanted_kib && *soft / 1024 >= *wanted_kib);
  CheckResult result{"memlock",
                     "process",
                     enough ? Status::kPass : Status::kFail,
                     "soft " + limit_text(soft) + ", hard " + limit_text(limit->hard_bytes),
                     expected,
                     ""};
  if (!enough) {
    result.hint =
        "RDMA pins memory: add \"* - memlock unlimited\" and \"root - memlock unlimited\" "
        "to /etc/security/limits.d/ (\"*\" does not cover root), set DefaultLimitMEMLOCK="
        "infinity for services, then log in again";
  }
  results.push_back(std::move(result));
}

}  // namespace ibkit
