#include "schema/json_text.hpp"

#include <nlohmann/json.hpp>

namespace ibkit {

std::string report_json_text(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ibkit
