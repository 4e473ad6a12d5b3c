#include "cli/report_command.hpp"

#include <algorithm>
#include <ostream>

#include "cli/command_options.hpp"
#include "cli/report_files.hpp"
#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "report/report_merge.hpp"
#include "report/sweep_text.hpp"
#include "schema/report_input.hpp"
#include "util/exit_codes.hpp"

namespace ibkit {
namespace {

Expected<SweepReport> merged_inputs(const std::vector<std::string>& files) {
  std::vector<ReportInput> inputs;
  for (const auto& file : files) {
    auto input = read_report_input(file);
    if (!input) return input.error();
    inputs.push_back(std::move(*input));
  }
  return merge_reports(inputs);
}

}  // namespace

int run_report(const ReportOptions& options, Console& console) {
  const bool to_directory = !options.output.empty();
  if (to_directory && options.format == "text") {
    auto files = report_file_formats();
    files.push_back("all");
    console.err << "ibkit report: --format text goes to stdout; with --output DIR choose "
                << format_words(files, " or ") << "\n";
    return kExitUsage;
  }
  const auto printable = report_stdout_formats();
  if (!to_directory && !options.format.empty() &&
      std::find(printable.begin(), printable.end(), options.format) == printable.end()) {
    console.err << "ibkit report: --format " << options.format
                << " writes several files; give --output DIR\n";
    return kExitUsage;
  }
  auto baseline = read_baseline(options.baseline);
  if (!baseline) {
    console.err << "ibkit report: " << baseline.error().message << "\n";
    return kExitUsage;
  }
  auto report = merged_inputs(options.files);
  if (!report) {
    console.err << "ibkit report: " << report.error().message << "\n";
    return kExitUsage;
  }
  if (auto judged = judge_with_baseline(*report, *baseline, options.baseline); !judged) {
    console.err << "ibkit report: " << judged.error().message << "\n";
    return kExitUsage;
  }
  const int verdict = sweep_failed(*report) ? kExitFail : kExitPass;
  if (!to_directory) {
    console.out << render_report(*report, options.format, console.colour, console.width);
    return verdict;
  }
  console.out << render_sweep_text(*report, console.colour, console.width);
  const std::string format = options.format.empty() ? "all" : options.format;
  return write_report_files(console, "report", *report, options.output, {format}, verdict,
                            kExitUsage);
}

Command add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  auto* parser = app.add_subcommand(
      "report", "merge check reports and a sweep into one verdict: text, JSON, JUnit, MD, HTML");
  parser
      ->add_option("files", options->files,
                   "ibkit check --format json files and at most one sweep report.json")
      ->required()
      ->type_name("FILE");
  auto formats = report_stdout_formats();
  for (const auto& word : report_file_formats()) {
    if (std::find(formats.begin(), formats.end(), word) == formats.end()) formats.push_back(word);
  }
  formats.push_back("all");
  parser
      ->add_option("--format", options->format,
                   format_words(formats, ", or ") + " (default: text; all with --output)")
      ->check(CLI::IsMember(formats));
  add_output_folder_option(*parser, options->output,
                           "write " + format_words(report_file_names(), " and ") +
                               " (those --format picks) into DIR; the text goes to stdout");
  add_baseline_options(*parser, options->baseline);
  return {parser, [options](Console& console) { return run_report(*options, console); }};
}

}  // namespace ibkit
