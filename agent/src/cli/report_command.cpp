#include <ostream>

#include "cli/report.hpp"
#include "cli/sweep_files.hpp"
#include "report/report_merge.hpp"
#include "report/sweep_render.hpp"
#include "util/exit_codes.hpp"

namespace ibkit {
namespace {

std::string render(const SweepReport& report, const std::string& format, bool colour) {
  if (format == "json") return render_sweep_json(report);
  if (format == "junit") return render_sweep_junit(report);
  if (format == "md") return render_sweep_markdown(report);
  if (format == "html") return render_sweep_html(report);
  return render_sweep_text(report, colour);
}

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
    console.err << "ibkit report: --format text goes to stdout; with --output DIR choose json, "
                   "junit, md, html or all\n";
    return kExitUsage;
  }
  if (!to_directory && options.format == "all") {
    console.err << "ibkit report: --format all writes several files; give --output DIR\n";
    return kExitUsage;
  }
  auto report = merged_inputs(options.files);
  if (!report) {
    console.err << "ibkit report: " << report.error().message << "\n";
    return kExitUsage;
  }
  const int verdict = sweep_failed(*report) ? kExitFail : kExitPass;
  if (!to_directory) {
    console.out << render(*report, options.format, console.colour);
    return verdict;
  }
  console.out << render_sweep_text(*report, console.colour);
  const std::string format = options.format.empty() ? "all" : options.format;
  return write_sweep_files(console, "report", *report, options.output, {format}, verdict,
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
  parser
      ->add_option("--format", options->format,
                   "text, json, junit, md, html, or all (default: text; all with --output)")
      ->check(CLI::IsMember({"text", "json", "junit", "md", "html", "all"}));
  parser
      ->add_option("--output", options->output,
                   "write report.json, junit.xml, summary.md, latency.csv, bandwidth.csv and "
                   "report.html (those --format picks) into DIR; the text goes to stdout")
      ->type_name("DIR");
  return {parser, [options](Console& console) { return run_report(*options, console); }};
}

}  // namespace ibkit
