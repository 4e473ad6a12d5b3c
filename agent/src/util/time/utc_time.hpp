#pragma once

#include <optional>
#include <string>

namespace ibkit {

// The current time as "2026-11-22T05:24:49Z".
std::string utc_timestamp();

// `seconds` since the Unix epoch, written the same way.
std::string utc_timestamp_of(long long seconds);

// Seconds since the Unix epoch of a time written as utc_timestamp() writes it; nullopt for any
// other text.
std::optional<long long> unix_seconds(const std::string& timestamp);

}  // namespace ibkit
