#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// One node of a sweep: the name reports use, and where its `ibkit serve` listens.
struct SweepHost {
  std::string name;
  std::string address;
  std::uint16_t port = 0;
};

// Reads a hosts file: one node per line, `#` starts a comment, blank lines are skipped. A line
// is `ADDRESS[:PORT]` or `NAME ADDRESS[:PORT]` (IPv6 with a port as `[ADDRESS]:PORT`); a node
// without a port uses `default_port`. Fails with "FILE:LINE: problem" on a bad line, a repeated
// name or address:port, and when the file cannot be read or names fewer than two nodes.
Expected<std::vector<SweepHost>> read_hosts_file(const std::string& path,
                                                 std::uint16_t default_port);

// Reads a comma-separated list of `[NAME=]ADDRESS[:PORT]`; the same rules as the file, with
// problems named as "--hosts entry N".
Expected<std::vector<SweepHost>> parse_hosts_list(const std::string& list,
                                                  std::uint16_t default_port);

}  // namespace ibkit
