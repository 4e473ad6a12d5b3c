#include "report/report_merge.hpp"

#include <map>
#include <set>

#include "model/check_report.hpp"
#include "model/sweep_consistency.hpp"
#include "model/sweep_report.hpp"
#include "schema/report_input.hpp"

namespace ibkit {

Expected<SweepReport> merge_reports(const std::vector<ReportInput>& inputs) {
  if (inputs.empty()) return Error{"no report to merge"};
  const ReportInput* sweep_input = nullptr;
  for (const auto& input : inputs) {
    if (!std::holds_alternative<SweepReport>(input.report)) continue;
    if (sweep_input != nullptr)
      return Error{input.path + " and " + sweep_input->path + " are both sweep reports; give one"};
    sweep_input = &input;
  }

  SweepReport merged;
  std::map<std::string, std::string> checked_in;  // host -> the file its check came from
  // fabric_origin -> the file its fabric report came from
  std::map<std::string, std::string> discovered_in;
  if (sweep_input != nullptr) {
    merged = std::get<SweepReport>(sweep_input->report);
    for (const auto& check : merged.node_checks) {
      if (!checked_in.emplace(check.host, sweep_input->path).second)
        return Error{sweep_input->path + " holds two check reports of " + check.host};
    }
    for (const auto& fabric : merged.fabric_checks) {
      if (!discovered_in.emplace(fabric_origin(fabric), sweep_input->path).second)
        return Error{sweep_input->path + " holds two fabric reports from " + fabric_origin(fabric)};
    }
  }
  for (const auto& input : inputs) {
    const auto* check = std::get_if<CheckReport>(&input.report);
    if (check == nullptr) continue;
    if (check->command == "fabric") {
      if (auto [at, added] = discovered_in.emplace(fabric_origin(*check), input.path); !added)
        return Error{input.path + " and " + at->second + " are both fabric reports from " +
                     fabric_origin(*check)};
      merged.fabric_checks.push_back(*check);
      if (sweep_input == nullptr)
        merged.generated_at = std::max(merged.generated_at, check->generated_at);
      continue;
    }
    if (auto [at, added] = checked_in.emplace(check->host, input.path); !added)
      return Error{input.path + " and " + at->second + " are both check reports of " + check->host};
    merged.node_checks.push_back(*check);
    if (sweep_input == nullptr) {
      merged.nodes.push_back(check->host);
      // The newest check dates the report (ISO 8601 strings sort by time).
      merged.generated_at = std::max(merged.generated_at, check->generated_at);
    }
  }
  // Checked hosts that the sweep did not test join its matrices too.
  std::set<std::string> nodes(merged.nodes.begin(), merged.nodes.end());
  for (const auto& check : merged.node_checks) nodes.insert(check.host);
  if (auto size = check_report_size(nodes.size(), merged.rails); !size)
    return Error{"the reports name " + size.error().message};
  return merged;
}

}  // namespace ibkit
