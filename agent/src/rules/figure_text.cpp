#include "rules/figure_text.hpp"

#include "util/text.hpp"

namespace ibkit {

std::string figure_text(bool latency, double value) {
  return format_number(value, latency ? 2 : 3) + (latency ? " us" : " Gb/s");
}

std::string ratio_text(double ratio) { return format_number(ratio, ratio < 0.1 ? 3 : 2) + "x"; }

}  // namespace ibkit
