#include "report/check_json.hpp"

#include <nlohmann/json.hpp>

#include "model/check_report.hpp"
#include "schema/check_report_json.hpp"
#include "schema/json_text.hpp"

namespace ibkit {

std::string render_check_json(const CheckReport& report) {
  return report_json_text(check_report_json(report));
}

}  // namespace ibkit
