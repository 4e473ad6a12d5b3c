#include "schema/counter_baseline.hpp"

#include <filesystem>

#include "schema/counter_state_json.hpp"
#include "util/files/bounded_file.hpp"

namespace ibkit {

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
