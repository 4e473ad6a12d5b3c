#include "model/kept_figure.hpp"

#include <cmath>

namespace ibkit {

double kept_figure(double value) {
  const double size = std::fabs(value);
  if (!std::isfinite(value) || size > 1e12) return value;
  const double scale = size < 10 ? 1000 : size < 100 ? 100 : size < 1000 ? 10 : 1;
  return std::round(value * scale) / scale;
}

}  // namespace ibkit
