#pragma once

#include <string>
#include <vector>

namespace ibkit {

// The candidate `word` most likely mistypes: the nearest by edits (an insertion, a deletion, a
// substitution or two neighbours swapped, each one edit), when it is at most 2 edits away and
// fewer than half of `word`'s letters; "" when none is that near. Ties go to the first listed.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ibkit
