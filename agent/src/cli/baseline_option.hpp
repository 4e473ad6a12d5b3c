#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// --baseline FILE and --baseline-factor F, as ibkit sweep and ibkit report take them.
struct BaselineOptions {
  std::string file;  // "" = no baseline
  double factor = kDefaultBaselineFactor;
};

void add_baseline_options(CLI::App& parser, BaselineOptions& options);

// The baseline's report, read before anything runs: none without --baseline; an error (naming
// the file and the fix) for a file that is not a sweep's report.json.
Expected<std::optional<SweepReport>> read_baseline(const BaselineOptions& options);

// Judges `report` against `baseline` (rules/baseline_rule.hpp) when there is one. A report
// already judged against one is refused: its pairs' reasons would name two baselines.
Expected<Done> judge_with_baseline(SweepReport& report, const std::optional<SweepReport>& baseline,
                                   const BaselineOptions& options);

}  // namespace ibkit
