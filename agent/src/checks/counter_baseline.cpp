#include "checks/counter_baseline.hpp"

#include <filesystem>

#include "schema/counter_state_json.hpp"
#include "util/bounded_file.hpp"

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

CounterBaseline load_counter_baseline(const std::string& state_path, const std::string& host,
                                      const std::string& boot_id, std::int64_t now,
                                      std::size_t max_bytes) {
  CounterBaseline baseline{state_path, now, std::nullopt, "", false};
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(state_path, ec))) {
    baseline.why = "no earlier run in " + state_path;
    return baseline;
  }
  auto file = read_bounded_file(state_path,
                                {"--state", max_bytes, "ibkit check or ibkit fabric writes it"});
  if (!file) {
    baseline.why = file.error().message;
    baseline.unreadable = true;
    return baseline;
  }
  auto snapshot = parse_counter_snapshot(file->bytes);
  if (!snapshot) {
    baseline.why = "--state " + state_path + ": " + snapshot.error().message;
    baseline.unreadable = true;
    return baseline;
  }
  if (snapshot->host != host) {
    baseline.why = state_path + " is " + snapshot->host + "'s, not " + host + "'s";
    return baseline;
  }
  baseline.rate_history = snapshot->rate_history;
  if (snapshot->boot_id != boot_id) {
    baseline.why =
        "the node booted since the check in " + state_path + " (the counters started again from 0)";
  } else if (snapshot->taken_at > now) {
    baseline.why = "the run in " + state_path + " is dated after now (the clock went back)";
  } else {
    baseline.previous = std::move(*snapshot);
  }
  return baseline;
}

}  // namespace ibkit
