#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ibkit {

// An interval between two checks as the results name it: "45 s", "10 min", "3 h".
std::string interval_text(std::int64_t seconds);

// The first counter named by `is_error_counter` that went back from `before` to `now`, as
// "symbol_error 5 -> 0": the counters were reset (perfquery -R, a driver reload) and nothing
// can be said of what happened in between. "" when none did. Traffic counters
// (port_xmit_data, ...) may wrap and are not to be named.
std::string first_counter_reset(const std::map<std::string, std::uint64_t>& before,
                                const std::map<std::string, std::uint64_t>& now,
                                const std::function<bool(const std::string&)>& is_error_counter);

}  // namespace ibkit
