#include "schema/sweep_pairs_v1_json.hpp"

#include <nlohmann/json.hpp>

#include "model/pair_report_ends.hpp"
#include "schema/pair_report_json.hpp"
#include "schema/sweep_pair_fields.hpp"

namespace ibkit {
namespace {

SweepPair read_pair(JsonFields& parent, const nlohmann::json& object, const std::string& path,
                    int rails, int rounds, const SweepNodeNames& names) {
  JsonFields fields(parent, object, path);
  SweepPair pair;
  pair.a = fields.text("a");
  pair.b = fields.text("b");
  pair.reason = fields.text("reason");
  read_pair_outcome(fields, rails, rounds, &pair);
  if (fields.failed()) return pair;
  if (const auto* report = fields.optional("report")) {
    auto read = pair_report_from_json(*report);
    if (!read) {
      fields.fail(fields.path_of("report") + ": " + read.error().message);
    } else if (const auto misfiled = names.misfiled(pair, *read); !misfiled.empty()) {
      fields.fail("field " + fields.path_of("report") + ": " + misfiled);
    } else {
      pair.report = std::move(*read);
    }
  }
  return pair;
}

}  // namespace

void read_sweep_pairs_v1(JsonFields& fields, SweepReport* report) {
  const auto* pairs = fields.array("pairs");
  if (pairs == nullptr) return;
  const SweepNodeNames names(report->nodes);
  for (std::size_t i = 0; i < pairs->size() && !fields.failed(); ++i) {
    report->pairs.push_back(read_pair(fields, (*pairs)[i], indexed_path(fields.path_of("pairs"), i),
                                      report->rails, report->rounds, names));
  }
}

}  // namespace ibkit
