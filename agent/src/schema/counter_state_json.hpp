#pragma once

#include <string>
#include <string_view>

#include "model/counter_snapshot.hpp"
#include "util/expected.hpp"

namespace ibkit {

// ibkit.counters/2 adds "rate_history"; a file without one is written as /1, which every
// release reads, and both are read.
inline constexpr const char* kCounterSnapshotSchema = "ibkit.counters/1";
inline constexpr const char* kCounterSnapshotSchemaWithHistory = "ibkit.counters/2";

// The state file's text: {"schema", "host", "boot_id", "taken_at", "ports": {port: {name: n}}}
// and, when any port has one, "rate_history": {port: "ppd"}.
std::string render_counter_snapshot(const CounterSnapshot& snapshot);

// Reads what render_counter_snapshot wrote. Fails with one line naming the first field that is
// missing, of the wrong type or out of range (a count beyond 2^64-1, a negative time, a history
// letter other than p, d, f).
Expected<CounterSnapshot> parse_counter_snapshot(std::string_view text);

}  // namespace ibkit
