#include "cli/baseline_option.hpp"

#include <variant>

#include "rules/baseline_rule.hpp"
#include "schema/report_input.hpp"

namespace ibkit {

void add_baseline_options(CLI::App& parser, BaselineOptions& options) {
  parser
      .add_option("--baseline", options.file,
                  "an earlier run's report.json: figures worse than its by --baseline-factor "
                  "fail; what changed since is listed first")
      ->type_name("FILE");
  parser
      .add_option("--baseline-factor", options.factor,
                  "how much worse than the baseline a figure may be: latency up to F x, "
                  "bandwidth down to 1/F x (default 1.25)")
      ->type_name("F")
      ->check(CLI::Range(kMinBaselineFactor, kMaxBaselineFactor));
}

Expected<std::optional<SweepReport>> read_baseline(const BaselineOptions& options) {
  if (options.file.empty()) return std::optional<SweepReport>{};
  auto input = read_report_input(options.file);
  if (!input) return Error{"--baseline " + input.error().message};
  auto* sweep = std::get_if<SweepReport>(&input->report);
  if (sweep == nullptr) {
    return Error{"--baseline " + options.file +
                 ": an ibkit check report; give the report.json of an earlier sweep or ibkit "
                 "report"};
  }
  return std::optional<SweepReport>{std::move(*sweep)};
}

Expected<Done> judge_with_baseline(SweepReport& report, const std::optional<SweepReport>& baseline,
                                   const BaselineOptions& options) {
  if (!baseline) return Done{};
  if (report.baseline) {
    return Error{"--baseline: the report was already judged against " + report.baseline->file +
                 " of " + report.baseline->generated_at +
                 "; give the report that was not (the sweep's own report.json)"};
  }
  judge_against_baseline(report, *baseline, options.file, options.factor);
  return Done{};
}

}  // namespace ibkit
