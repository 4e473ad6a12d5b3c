#pragma once

#include <string>
#include <string_view>

#include "model/counter_snapshot.hpp"
#include "util/expected.hpp"

namespace ibkit {

inline constexpr const char* kCounterSnapshotSchema = "ibkit.counters/1";

// The state file's text: {"schema", "host", "boot_id", "taken_at", "ports": {port: {name: n}}}.
std::string render_counter_snapshot(const CounterSnapshot& snapshot);

// Reads what render_counter_snapshot wrote. Fails with one line naming the first field that is
// missing, of the wrong type or out of range (a count beyond 2^64-1, a negative time).
Expected<CounterSnapshot> parse_counter_snapshot(std::string_view text);

}  // namespace ibkit
