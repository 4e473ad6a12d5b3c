#pragma once

#include <string>

namespace ibkit {

// This agent's version: the project's (CMakeLists.txt) and, built from a git checkout, the
// commit: "0.1.0+a5e85cb", "0.1.0+a5e85cb-dirty"; "0.1.0" from a tree without git. Written at
// build time (agent/cmake/write_build_version.cmake); every report records it.
const std::string& build_version();

}  // namespace ibkit
