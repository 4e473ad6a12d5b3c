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

}  // namespace ibkit
