#pragma once

#include <string>
#include <string_view>

#include "fabric/fabric_model.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The fabric as lines of text: how discovery's child process hands it to ibkit, one line per
// node, port and subnet manager (a description in hex, so any bytes survive). Readers trust
// nothing in it: every number is range-checked, every reference must name a node or port
// listed, and at most kMaxFabricNodes nodes of at most 255 ports each are read.
inline constexpr std::size_t kMaxFabricNodes = 65536;

std::string record_fabric(const Subnet& fabric);

// The fabric a record holds, or an Error naming the line and what is wrong with it.
Expected<Subnet> read_fabric_record(std::string_view record);

// The fabric a topology file holds (what `ibkit fabric --save-topology` wrote), at most 64 MiB.
// Errors start with "LABEL PATH" (`label`: "--topology") and say what file to give instead.
Expected<Subnet> read_topology_file(const std::string& path, std::string_view label);

}  // namespace ibkit
