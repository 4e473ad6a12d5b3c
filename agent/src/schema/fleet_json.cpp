#include "schema/fleet_json.hpp"

#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/sweep_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kLatencyFigure = "latency_us";
constexpr const char* kBandwidthFigure = "bandwidth_gbps";

// A finite number at least `low`; else the error.
double checked_number(JsonFields& fields, const char* key, double low) {
  const double value = fields.number(key);
  if (!fields.failed() && !(std::isfinite(value) && value >= low)) {
    fields.fail("field " + fields.path_of(key) + " is not a number of at least " +
                std::to_string(static_cast<int>(low)));
  }
  return value;
}

// How a reference's line was drawn, as its "line_basis" names it.
constexpr std::pair<FleetLineBasis, const char*> kLineBases[] = {
    {FleetLineBasis::kFactors, "factors"},
    {FleetLineBasis::kSpread, "spread"},
    {FleetLineBasis::kPinned, "pinned"}};

const char* line_basis_name(FleetLineBasis basis) {
  for (const auto& [value, name] : kLineBases) {
    if (value == basis) return name;
  }
  return "factors";
}

// The line, its basis and its spread, when the reference has them (a report from before lines
// were drawn has none: its figures were held to the factors).
void read_line(JsonFields& fields, FleetReference& reference) {
  if (fields.optional("line") == nullptr) return;
  reference.line = checked_number(fields, "line", 0);
  const std::string basis = fields.text("line_basis");
  reference.spread = checked_number(fields, "spread", 0);
  reference.spread_ways = fields.integer_in("spread_ways", 0, 100'000'000);
  if (fields.optional("low_senders") != nullptr)
    reference.low_senders = fields.strings("low_senders");
  if (fields.optional("low_receivers") != nullptr)
    reference.low_receivers = fields.strings("low_receivers");
  if (fields.failed()) return;
  for (const auto& [value, name] : kLineBases) {
    if (basis == name) {
      reference.basis = value;
      return;
    }
  }
  fields.fail("field " + fields.path_of("line_basis") + " \"" + basis +
              "\" is not factors, spread or pinned");
}

FleetReference read_reference(JsonFields& parent, const json& object, const std::string& path) {
  JsonFields fields(parent, object, path);
  FleetReference reference;
  reference.subject = fields.text("subject");
  reference.rail = fields.integer_in("rail", 0, kMaxRails - 1);
  const std::string figure = fields.text("figure");
  reference.typical = checked_number(fields, "typical", 0);
  if (fields.optional("typical_floor") != nullptr) {
    reference.typical_floor = checked_number(fields, "typical_floor", 0);
  }
  reference.nodes = fields.integer_in("nodes", 0, 1'000'000);
  read_line(fields, reference);
  if (fields.failed()) return reference;
  if (figure != kLatencyFigure && figure != kBandwidthFigure) {
    fields.fail("field " + fields.path_of("figure") + " \"" + figure + "\" is not " +
                kLatencyFigure + " or " + kBandwidthFigure);
  }
  reference.latency = figure == kLatencyFigure;
  // A line past 1 the wrong way would make every figure of a healthy fleet far from it.
  if (reference.line > 0 && (reference.latency ? reference.line < 1 : reference.line > 1)) {
    fields.fail("field " + fields.path_of("line") + " is " + format_number(reference.line) +
                (reference.latency ? ", not a latency's line (at least 1)"
                                   : ", not a bandwidth's line (above 0, at most 1)"));
  }
  return reference;
}

}  // namespace

ordered_json fleet_json(const FleetJudgment& fleet) {
  ordered_json document;
  document["on"] = fleet.factors.on;
  document["max_latency_ratio"] = fleet.factors.max_latency_ratio;
  document["min_bandwidth_ratio"] = fleet.factors.min_bandwidth_ratio;
  if (fleet.factors.latency_pinned) document["max_latency_ratio_pinned"] = true;
  if (fleet.factors.bandwidth_pinned) document["min_bandwidth_ratio_pinned"] = true;
  auto references = ordered_json::array();
  for (const auto& reference : fleet.references) {
    ordered_json entry;
    entry["subject"] = reference.subject;
    entry["rail"] = reference.rail;
    entry["figure"] = reference.latency ? kLatencyFigure : kBandwidthFigure;
    entry["typical"] = reference.typical;
    if (reference.typical_floor > 0) entry["typical_floor"] = reference.typical_floor;
    entry["nodes"] = reference.nodes;
    if (reference.line > 0) {
      entry["line"] = reference.line;
      entry["line_basis"] = line_basis_name(reference.basis);
      entry["spread"] = reference.spread;
      entry["spread_ways"] = reference.spread_ways;
      if (!reference.low_senders.empty()) entry["low_senders"] = reference.low_senders;
      if (!reference.low_receivers.empty()) entry["low_receivers"] = reference.low_receivers;
    }
    references.push_back(std::move(entry));
  }
  document["references"] = references;
  return document;
}

FleetJudgment read_fleet(JsonFields& parent, const json& object, const std::string& path) {
  JsonFields fields(parent, object, path);
  FleetJudgment fleet;
  fleet.factors.on = fields.flag("on");
  fleet.factors.max_latency_ratio = checked_number(fields, "max_latency_ratio", 1);
  fleet.factors.min_bandwidth_ratio = checked_number(fields, "min_bandwidth_ratio", 0);
  if (fields.optional("max_latency_ratio_pinned") != nullptr)
    fleet.factors.latency_pinned = fields.flag("max_latency_ratio_pinned");
  if (fields.optional("min_bandwidth_ratio_pinned") != nullptr)
    fleet.factors.bandwidth_pinned = fields.flag("min_bandwidth_ratio_pinned");
  const auto* references = fields.array("references");
  if (references == nullptr) return fleet;
  for (std::size_t i = 0; i < references->size() && !fields.failed(); ++i) {
    fleet.references.push_back(
        read_reference(fields, (*references)[i], indexed_path(fields.path_of("references"), i)));
  }
  return fleet;
}

PairRules read_pair_rules(JsonFields& fields) {
  PairRules rules;
  const json* rule = fields.optional("rule");
  if (rule == nullptr) {
    rules.recorded = false;
    return rules;
  }
  const std::string name = rule->is_string() ? rule->get<std::string>() : "";
  for (bool threshold : {false, true}) {
    for (bool fleet : {false, true}) {
      for (bool baseline : {false, true}) {
        const PairRules candidate{true, threshold, fleet, baseline};
        if (pair_rules_name(candidate) == name) return candidate;
      }
    }
  }
  fields.fail("field " + fields.path_of("rule") + " " + rule->dump().substr(0, 60) +
              " is not \"none\" nor threshold, fleet and baseline joined by +");
  return rules;
}

}  // namespace ibkit
