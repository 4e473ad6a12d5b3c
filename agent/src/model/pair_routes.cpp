#include "model/pair_routes.hpp"

namespace ibkit {

std::pair<std::string, std::string> route_key(const std::string& a, const std::string& b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

}  // namespace ibkit
