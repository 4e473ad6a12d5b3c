#pragma once

#include <cstddef>
#include <string>

#include "model/check_result.hpp"

namespace ibkit {

// Slurm keeps a node's reason short in its listings; ibkit's reasons stay within this.
inline constexpr std::size_t kMaxReasonLength = 200;

// One line naming the first failed check: "<id> <subject> <observed>", plus " (+N more)" when
// others failed too. "" when none failed.
std::string summarize_failures(const CheckResults& results);

// The Reason= ibkit sets: "ibkit: " and `summary`, on one line of printable ASCII without
// quotes or backslashes (anything else becomes a space, runs of spaces one space), cut to
// kMaxReasonLength characters (ending in "..." when cut).
std::string drain_reason(const std::string& summary);

}  // namespace ibkit
