#include "checks/counter_comparison.hpp"

namespace ibkit {

std::string interval_text(std::int64_t seconds) {
  if (seconds < 120) return std::to_string(seconds) + " s";
  if (seconds < 2 * 3600) return std::to_string(seconds / 60) + " min";
  return std::to_string(seconds / 3600) + " h";
}

std::string first_counter_reset(const std::map<std::string, std::uint64_t>& before,
                                const std::map<std::string, std::uint64_t>& now,
                                const std::function<bool(const std::string&)>& is_error_counter) {
  for (const auto& [name, value] : now) {
    if (!is_error_counter(name)) continue;
    auto earlier = before.find(name);
    if (earlier != before.end() && value < earlier->second)
      return name + " " + std::to_string(earlier->second) + " -> " + std::to_string(value);
  }
  return "";
}

}  // namespace ibkit
