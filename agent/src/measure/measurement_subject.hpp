#pragma once

#include <cstdint>
#include <string>

#include "measure/tcp_result.hpp"
#include "measure/verbs_measurement.hpp"

namespace ibkit {

// What a figure measured, the words every report compares figures by: the test, its options and
// size. "lat send 2 B", "bw write bidir 2 QPs 1048576 B".
std::string verbs_subject(const VerbsMeasurement& verbs, std::uint64_t size);

// "tcp 4 streams 131072 B", "tcp 1 stream 131072 B bidir".
std::string tcp_subject(const TcpResult& tcp);

}  // namespace ibkit
