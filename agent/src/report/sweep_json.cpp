#include "report/sweep_json.hpp"

#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#include "model/check_report_json.hpp"
#include "model/fleet_json.hpp"
#include "model/pair_report_json.hpp"
#include "model/sweep_consistency.hpp"
#include "model/sweep_report.hpp"
#include "report/json_text.hpp"
#include "report/sweep_matrix.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr PairStatus kPairStatuses[] = {PairStatus::kPass,        PairStatus::kSlow,
                                        PairStatus::kFailed,      PairStatus::kTimedOut,
                                        PairStatus::kUnreachable, PairStatus::kNotRun};

ordered_json pair_json(const SweepPair& pair) {
  ordered_json entry;
  entry["a"] = pair.a;
  entry["b"] = pair.b;
  entry["rail"] = pair.rail;
  entry["round"] = pair.round;
  entry["status"] = pair_status_name(pair.status);
  entry["reason"] = pair.reason;
  if (pair.rules.recorded) entry["rule"] = pair_rules_name(pair.rules);
  entry["attempts"] = pair.attempts;
  entry["seconds"] = pair.seconds;
  // The matrices' figures, so a reader need not know which size they come from.
  const auto figures = pair_figures(pair);
  entry["latency_us"] = figures.latency_us ? json(*figures.latency_us) : json();
  entry["bandwidth_gbps"] = figures.bandwidth_gbps ? json(*figures.bandwidth_gbps) : json();
  if (pair.report) entry["report"] = pair_report_json(*pair.report);
  return entry;
}

ordered_json counts_of(const std::vector<SweepPair>& pairs) {
  ordered_json counts;
  for (auto status : kPairStatuses) counts[std::string(pair_status_name(status))] = 0;
  for (const auto& pair : pairs) {
    auto& count = counts[std::string(pair_status_name(pair.status))];
    count = count.get<int>() + 1;
  }
  return counts;
}

std::vector<std::string> read_strings(JsonFields& fields, const char* key, std::string* error) {
  std::vector<std::string> strings;
  const auto* array = fields.array(key);
  if (array == nullptr) return strings;
  for (std::size_t i = 0; i < array->size() && error->empty(); ++i) {
    if (!(*array)[i].is_string()) {
      *error = "field " + indexed_path(fields.path_of(key), i) + " is not a string";
      break;
    }
    strings.push_back((*array)[i].get<std::string>());
  }
  return strings;
}

// Runs `read` on each element of the array `key`; stops at the first error.
template <class Read>
void for_each_element(JsonFields& fields, const char* key, std::string* error, Read read) {
  const auto* array = fields.array(key);
  if (array == nullptr) return;
  for (std::size_t i = 0; i < array->size() && error->empty(); ++i) {
    read((*array)[i], indexed_path(fields.path_of(key), i));
  }
}

// Sets the error unless the document names `wanted` as its schema.
void expect_schema(JsonFields& fields, const char* wanted, std::string* error) {
  const auto schema = fields.text("schema");
  if (error->empty() && schema != wanted) *error = "schema \"" + schema + "\" is not " + wanted;
}

// A pair of a report with `rails` rails and `rounds` rounds.
SweepPair read_pair(const json& object, const std::string& path, int rails, int rounds,
                    std::string* error) {
  JsonFields fields(object, path, error);
  SweepPair pair;
  pair.a = fields.text("a");
  pair.b = fields.text("b");
  pair.rail = fields.integer_in("rail", 0, rails - 1);
  pair.round = fields.integer_in("round", 0, rounds);
  const auto status = fields.text("status");
  pair.reason = fields.text("reason");
  pair.rules = read_pair_rules(fields, error);
  pair.attempts = fields.integer_in("attempts", 0, kMaxPairAttempts);
  pair.seconds = fields.number_in("seconds", 0, kMaxReportSeconds);
  if (!error->empty()) return pair;
  const auto* known = std::find_if(std::begin(kPairStatuses), std::end(kPairStatuses),
                                   [&](PairStatus s) { return pair_status_name(s) == status; });
  if (known == std::end(kPairStatuses)) {
    *error = "field " + fields.path_of("status") + " \"" + status +
             "\" is not pass, slow, failed, timed_out, unreachable or not_run";
    return pair;
  }
  pair.status = *known;
  if (const auto* report = fields.optional("report")) {
    auto read = pair_report_from_json(*report);
    if (read) {
      pair.report = std::move(*read);
    } else {
      *error = fields.path_of("report") + ": " + read.error().message;
    }
  }
  return pair;
}

}  // namespace

std::string render_sweep_json(const SweepReport& report) {
  ordered_json document;
  document["schema"] = kSweepSchema;
  document["verdict"] = sweep_failed(report) ? "fail" : "pass";
  document["generated_at"] = report.generated_at;
  document["agent_version"] = report.agent_version;
  document["coordinator"] = report.coordinator;
  document["pattern"] = report.pattern;
  document["tests"] = report.tests;
  document["nodes"] = report.nodes;
  document["rails"] = report.rails;
  document["rounds"] = report.rounds;
  document["wall_seconds"] = report.wall_seconds;
  document["counts"] = counts_of(report.pairs);
  auto blamed = ordered_json::array();
  for (const auto& blame : report.blamed)
    blamed.push_back({{"node", blame.node}, {"reason", blame.reason}});
  document["blamed"] = blamed;
  if (report.fleet) document["fleet"] = fleet_json(*report.fleet);
  auto pairs = ordered_json::array();
  for (const auto& pair : report.pairs) pairs.push_back(pair_json(pair));
  document["pairs"] = pairs;
  auto checks = ordered_json::array();
  for (const auto& check : report.node_checks) checks.push_back(check_report_json(check));
  document["node_checks"] = checks;
  return report_json_text(document);
}

Expected<SweepReport> sweep_report_from_json(const json& document) {
  std::string error;
  JsonFields fields(document, "", &error);
  expect_schema(fields, kSweepSchema, &error);
  SweepReport report;
  report.generated_at = fields.text("generated_at");
  report.agent_version = fields.optional_text("agent_version");
  report.coordinator = fields.text("coordinator");
  report.pattern = fields.text("pattern");
  report.tests = read_strings(fields, "tests", &error);
  report.nodes = read_strings(fields, "nodes", &error);
  report.rails = fields.integer_in("rails", 1, kMaxRails);
  if (auto size = check_report_size(report.nodes.size(), report.rails); !size && error.empty())
    error = "field nodes: " + size.error().message;
  // First-fit packing (a pairs file, random:K) needs at most 2n-3 rounds for n nodes.
  const auto nodes = static_cast<int>(std::min(report.nodes.size(), kMaxSweepNodes));
  report.rounds = fields.integer_in("rounds", 0, 2 * nodes);
  report.wall_seconds = fields.number_in("wall_seconds", 0, kMaxReportSeconds);
  for_each_element(fields, "blamed", &error, [&](const json& object, const std::string& path) {
    JsonFields blame(object, path, &error);
    NodeBlame read{blame.text("node"), blame.text("reason")};
    report.blamed.push_back(std::move(read));
  });
  if (const auto* fleet = fields.optional("fleet"))
    report.fleet = read_fleet(*fleet, fields.path_of("fleet"), &error);
  for_each_element(fields, "pairs", &error, [&](const json& object, const std::string& path) {
    report.pairs.push_back(read_pair(object, path, report.rails, report.rounds, &error));
  });
  for_each_element(fields, "node_checks", &error, [&](const json& object, const std::string& path) {
    auto check = check_report_from_json(object);
    if (check) {
      report.node_checks.push_back(std::move(*check));
    } else {
      error = path + ": " + check.error().message;
    }
  });
  if (!error.empty()) return Error{error};
  if (auto consistent = check_sweep_consistency(report); !consistent) return consistent.error();
  return report;
}

}  // namespace ibkit
