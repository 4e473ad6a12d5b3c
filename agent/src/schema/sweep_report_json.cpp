#include "schema/sweep_report_json.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "model/sweep_consistency.hpp"
#include "model/sweep_report.hpp"
#include "schema/baseline_json.hpp"
#include "schema/check_report_json.hpp"
#include "schema/fleet_json.hpp"
#include "schema/json_object_writer.hpp"
#include "schema/sweep_pairs_json.hpp"
#include "schema/sweep_pairs_v1_json.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr PairStatus kPairStatuses[] = {PairStatus::kPass,        PairStatus::kSlow,
                                        PairStatus::kFailed,      PairStatus::kTimedOut,
                                        PairStatus::kUnreachable, PairStatus::kNotRun};

ordered_json counts_of(const std::vector<SweepPair>& pairs) {
  std::size_t counts[std::size(kPairStatuses)] = {};
  for (const auto& pair : pairs) ++counts[static_cast<std::size_t>(pair.status)];
  ordered_json named;
  for (auto status : kPairStatuses)
    named[std::string(pair_status_name(status))] = counts[static_cast<std::size_t>(status)];
  return named;
}

// Runs `read` on each element of the array `key`; stops at the first error.
template <class Read>
void for_each_element(JsonFields& fields, const char* key, Read read) {
  const auto* array = fields.array(key);
  if (array == nullptr) return;
  for (std::size_t i = 0; i < array->size() && !fields.failed(); ++i) {
    read((*array)[i], indexed_path(fields.path_of(key), i));
  }
}

// The schema the document names, when it is one this reader reads; else the error.
std::string read_schema(JsonFields& fields) {
  const auto schema = fields.text("schema");
  if (!fields.failed() && schema != kSweepSchema && schema != kSweepSchemaV2 &&
      schema != kSweepSchemaV1) {
    fields.fail("schema \"" + schema + "\" is not " + kSweepSchema + " (nor " + kSweepSchemaV2 +
                " or " + kSweepSchemaV1 + ")");
  }
  return schema;
}

}  // namespace

std::string render_sweep_json(const SweepReport& report) {
  std::string text;
  JsonObjectWriter document(&text);
  document.member("schema", kSweepSchema);
  document.member("verdict", sweep_failed(report) ? "fail" : "pass");
  document.member("generated_at", report.generated_at);
  document.member("agent_version", report.agent_version);
  document.member("coordinator", report.coordinator);
  document.member("pattern", report.pattern);
  document.member("tests", report.tests);
  document.member("nodes", report.nodes);
  if (const auto untested = untested_nodes(report); !untested.empty())
    document.member("untested", untested);
  document.member("rails", report.rails);
  document.member("rounds", report.rounds);
  document.member("wall_seconds", report.wall_seconds);
  document.member("counts", counts_of(report.pairs));
  auto blamed = ordered_json::array();
  for (const auto& blame : report.blamed)
    blamed.push_back({{"node", blame.node}, {"reason", blame.reason}});
  document.member("blamed", blamed);
  if (!report.blamed_links.empty()) {
    auto links = ordered_json::array();
    for (const auto& blame : report.blamed_links)
      links.push_back({{"link", blame.link}, {"reason", blame.reason}});
    document.member("blamed_links", links);
  }
  if (report.fleet) document.member("fleet", fleet_json(*report.fleet));
  const auto subjects = figure_subjects_of(report);
  if (!subjects.latency.empty() || !subjects.bandwidth.empty()) {
    document.member("figure_subjects", ordered_json{{"latency_us", subjects.latency},
                                                    {"bandwidth_gbps", subjects.bandwidth}});
  }
  if (report.baseline) document.member("baseline", baseline_json(*report.baseline));
  write_sweep_pairs(report, document);
  std::string& checks = document.begin_member("node_checks");
  checks += '[';
  for (std::size_t i = 0; i < report.node_checks.size(); ++i) {
    if (i > 0) checks += ",\n";
    checks += compact_json(check_report_json(report.node_checks[i]));
  }
  checks += ']';
  if (!report.fabric_checks.empty()) {
    std::string& fabric = document.begin_member("fabric_checks");
    fabric += '[';
    for (std::size_t i = 0; i < report.fabric_checks.size(); ++i) {
      if (i > 0) fabric += ",\n";
      fabric += compact_json(check_report_json(report.fabric_checks[i]));
    }
    fabric += ']';
  }
  document.close();
  return text;
}

Expected<SweepReport> sweep_report_from_json(const json& document) {
  JsonFields fields(document, "");
  const auto schema = read_schema(fields);
  SweepReport report;
  report.generated_at = fields.text("generated_at");
  report.agent_version = fields.optional_text("agent_version");
  report.coordinator = fields.text("coordinator");
  report.pattern = fields.text("pattern");
  report.tests = fields.strings("tests");
  report.nodes = fields.strings("nodes");
  report.rails = fields.integer_in("rails", 1, kMaxRails);
  if (auto size = check_report_size(report.nodes.size(), report.rails); !size)
    fields.fail("field nodes: " + size.error().message);
  // First-fit packing (a pairs file, random:K) needs at most 2n-3 rounds for n nodes.
  const auto nodes = static_cast<int>(std::min(report.nodes.size(), kMaxSweepNodes));
  report.rounds = fields.integer_in("rounds", 0, 2 * nodes);
  report.wall_seconds = fields.number_in("wall_seconds", 0, kMaxReportSeconds);
  for_each_element(fields, "blamed", [&](const json& object, const std::string& path) {
    JsonFields blame(fields, object, path);
    NodeBlame read{blame.text("node"), blame.text("reason")};
    report.blamed.push_back(std::move(read));
  });
  if (fields.optional("blamed_links") != nullptr) {
    for_each_element(fields, "blamed_links", [&](const json& object, const std::string& path) {
      JsonFields blame(fields, object, path);
      LinkBlame read{blame.text("link"), blame.text("reason")};
      report.blamed_links.push_back(std::move(read));
    });
  }
  if (const auto* fleet = fields.optional("fleet"))
    report.fleet = read_fleet(fields, *fleet, fields.path_of("fleet"));
  if (const auto* subjects = fields.optional("figure_subjects")) {
    JsonFields read(fields, *subjects, fields.path_of("figure_subjects"));
    report.figure_subjects = {read.text("latency_us"), read.text("bandwidth_gbps")};
  }
  if (const auto* baseline = fields.optional("baseline"))
    report.baseline = read_baseline_comparison(fields, *baseline, fields.path_of("baseline"));
  if (!fields.failed()) {
    if (schema == kSweepSchemaV1) {
      read_sweep_pairs_v1(fields, &report);
    } else if (schema == kSweepSchemaV2) {
      read_sweep_pairs_v2(fields, &report);
    } else {
      read_sweep_pairs(fields, &report);
    }
  }
  for_each_element(fields, "node_checks", [&](const json& object, const std::string& path) {
    auto check = check_report_from_json(object);
    if (check && check->command == "check") {
      report.node_checks.push_back(std::move(*check));
    } else {
      fields.fail(
          path + ": " +
          (check ? "an ibkit fabric report belongs in fabric_checks" : check.error().message));
    }
  });
  if (fields.optional("fabric_checks") != nullptr) {
    for_each_element(fields, "fabric_checks", [&](const json& object, const std::string& path) {
      auto check = check_report_from_json(object);
      if (check && check->command == "fabric") {
        report.fabric_checks.push_back(std::move(*check));
      } else {
        fields.fail(path + ": " + (check ? "not an ibkit fabric report" : check.error().message));
      }
    });
  }
  if (fields.failed()) return Error{fields.error()};
  if (auto consistent = check_sweep_consistency(report); !consistent) return consistent.error();
  return report;
}

}  // namespace ibkit
