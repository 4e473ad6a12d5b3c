#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// Expands a Slurm host list (SLURM_JOB_NODELIST, `scontrol show hostnames`' input) into node
// names, in order: names separated by commas, each with any number of bracketed ranges, a range
// being `N`, `LO-HI` or several of those separated by commas; a range whose low end has a
// leading zero keeps its width ("n[08-10]" is n08 n09 n10), and several brackets in one name
// multiply, the rightmost changing fastest ("r[1-2]n[1-2]" is r1n1 r1n2 r2n1 r2n2); empty
// names are skipped. As Slurm 22.05's scontrol does, and as strictly: fails with one line
// naming the problem and where it is in `list` for a list that names no node, a bracket not
// closed or not opened, a range that is not digits or runs backwards, text after a name's last
// bracket ("cn[5]-ib"), and more than `max_names` names.
Expected<std::vector<std::string>> expand_hostlist(std::string_view list, std::size_t max_names);

}  // namespace ibkit
