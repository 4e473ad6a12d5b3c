#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// One node of a sweep: the name reports use, and where its `ibkit serve` listens.
struct SweepHost {
  std::string name;
  std::string address;
  std::uint16_t port = 0;
};

// "n1 (10.0.0.1:18515)", "n2 ([fe80::1%ib0]:18515)": a node as errors name it.
std::string host_description(const SweepHost& host);

// Done unless `address` (canonical: "0.0.0.0", "::") is the unspecified address, which a
// connect takes to the machine it runs on: then an Error saying why no node can be reached at it.
Expected<Done> check_node_address(std::string_view address);

// True when `text` can be a host name or a numeric address (letters, digits, ".-_:%", at most
// 253 bytes): what a hosts file and a drive request accept before any lookup.
bool is_host_text(std::string_view text);

// Reads a hosts file: one node per line, `#` starts a comment, blank lines are skipped. A line
// is `ADDRESS[:PORT]` or `NAME ADDRESS[:PORT]` (IPv6 with a port as `[ADDRESS]:PORT`); a node
// without a port uses `default_port`; a node without a name is called by its address (and
// its port when the line gives one). Fails with "FILE:LINE: problem" on a bad line, a repeated
// name or address:port and the unspecified address (0.0.0.0, ::), naming every such line, the
// first five in full then "and N more", on one line; on more than kMaxSweepNodes nodes; and when
// the file names fewer than two nodes or cannot be read (not a regular file, larger than 4 MiB:
// "hosts file FILE ...").
Expected<std::vector<SweepHost>> read_hosts_file(const std::string& path,
                                                 std::uint16_t default_port);

// Same, from the file's text already in memory; `path` names it in messages.
Expected<std::vector<SweepHost>> parse_hosts_text(std::string_view text, const std::string& path,
                                                  std::uint16_t default_port);

// Reads a comma-separated list of `[NAME=]ADDRESS[:PORT]`; the same rules as the file, with
// problems named as "--hosts entry N".
Expected<std::vector<SweepHost>> parse_hosts_list(const std::string& list,
                                                  std::uint16_t default_port);

}  // namespace ibkit
