#include "checks/cpu_governor_check.hpp"

#include <map>

#include "sysfs/host.hpp"
#include "util/text.hpp"

namespace ibkit {

void check_cpu_governor(const CheckContext& context, CheckResults& results) {
  const std::string& wanted = context.config.expect.cpu_governor;
  if (wanted == "any") return;
  const auto governors = read_cpu_governors(context.root);
  if (governors.empty()) {
    results.push_back(
        {"cpu.governor", "cpus", Status::kSkip, "no cpufreq", wanted,
         "this machine exposes no CPU frequency scaling (a VM, or the BIOS owns it)"});
    return;
  }
  std::map<std::string, std::vector<std::string>> cpus_by_governor;
  for (const auto& cpu : governors) cpus_by_governor[cpu.governor].push_back(cpu.cpu);
  const auto& matching = cpus_by_governor[wanted];
  const std::string total = std::to_string(governors.size());

  CheckResult result{"cpu.governor",
                     "cpus",
                     Status::kPass,
                     wanted + " on " + std::to_string(matching.size()) + " of " + total + " CPUs",
                     wanted + " on every CPU",
                     ""};
  if (matching.size() != governors.size()) {
    std::vector<std::string> others;
    for (const auto& [governor, cpus] : cpus_by_governor) {
      if (governor == wanted || cpus.empty()) continue;
      std::vector<std::string> shown(cpus.begin(),
                                     cpus.begin() + std::min<std::size_t>(cpus.size(), 4));
      others.push_back(governor + " on " + std::to_string(cpus.size()) + " of " + total + " (" +
                       join(shown, ", ") + (cpus.size() > 4 ? ", ..." : "") + ")");
    }
    result.status = Status::kFail;
    result.observed = join(others, "; ");
    result.hint = "cpupower frequency-set -g " + wanted + " (and at boot: the cpu_governor role)";
  }
  results.push_back(std::move(result));
}

}  // namespace ibkit
