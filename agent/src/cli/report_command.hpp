#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/baseline_option.hpp"
#include "cli/command.hpp"

namespace ibkit {

struct ReportOptions {
  std::vector<std::string> files;  // check JSONs and at most one sweep report.json
  std::string format;  // text | json | junit | md | html | all; "" = text, or all with --output
  std::string output;  // a directory for the report files; "" = stdout
  BaselineOptions baseline;
};

// `ibkit report FILE...`: merges the reports into one and renders it. Returns an ExitCode:
// 0 pass, 1 fail, 2 an input that cannot be read or merged (the message names the file), bad
// options, or an --output directory that cannot be written.
int run_report(const ReportOptions& options, Console& console);

Command add_report_command(CLI::App& app);

}  // namespace ibkit
