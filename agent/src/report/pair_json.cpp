#include "report/pair_json.hpp"

#include <nlohmann/json.hpp>

#include "model/pair_report.hpp"
#include "schema/json_text.hpp"
#include "schema/pair_report_json.hpp"

namespace ibkit {

std::string render_pair_json(const PairReport& report) {
  return report_json_text(pair_report_json(report));
}

}  // namespace ibkit
