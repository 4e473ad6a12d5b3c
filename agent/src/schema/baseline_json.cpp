#include "schema/baseline_json.hpp"

#include <nlohmann/json.hpp>

#include "util/json_fields.hpp"

namespace ibkit {

nlohmann::ordered_json baseline_json(const BaselineComparison& baseline) {
  return {{"file", baseline.file},
          {"generated_at", baseline.generated_at},
          {"factor", baseline.factor},
          {"regressions", baseline.regressions},
          {"pairs_regressed", baseline.pairs_regressed},
          {"pairs_compared", baseline.pairs_compared},
          {"changes", baseline.changes},
          {"not_compared", baseline.not_compared}};
}

BaselineComparison read_baseline_comparison(JsonFields& parent, const nlohmann::json& object,
                                            const std::string& path) {
  JsonFields fields(parent, object, path);
  BaselineComparison baseline;
  baseline.file = fields.text("file");
  baseline.generated_at = fields.text("generated_at");
  baseline.factor = fields.number_in("factor", kMinBaselineFactor, kMaxBaselineFactor);
  baseline.regressions = fields.strings("regressions");
  baseline.pairs_regressed = fields.count("pairs_regressed");
  baseline.pairs_compared = fields.count("pairs_compared");
  baseline.changes = fields.strings("changes");
  baseline.not_compared = fields.strings("not_compared");
  return baseline;
}

}  // namespace ibkit
