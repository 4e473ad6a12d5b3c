#pragma once

#include <string>

namespace ibkit {

// A latency in us with 2 decimals or a bandwidth in Gb/s with 3: "1764.13 us", "0.033 Gb/s".
std::string figure_text(bool latency, double value);

// A ratio between two figures: "3.02x", "0.33x", "0.052x".
std::string ratio_text(double ratio);

}  // namespace ibkit
