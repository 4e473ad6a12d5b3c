#include "cli/check_command.hpp"

#include <ostream>

#include "cli/command_options.hpp"
#include "cli/node_check.hpp"
#include "model/check_report.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_prometheus.hpp"
#include "report/check_text.hpp"
#include "util/exit_codes.hpp"
#include "util/files/file_write.hpp"

namespace ibkit {
namespace {

std::string render(const NodeCheck& check, const std::string& format, bool colour,
                   std::size_t width) {
  if (format == "json") return render_check_json(check.report);
  if (format == "junit") return render_check_junit(check.report);
  if (format == "prometheus")
    return render_check_prometheus(check.report, check.hcas, check.rate_limits);
  return render_check_text(check.report, colour, width);
}

}  // namespace

int run_check(const CheckOptions& options, Console& console) {
  if (options.config_only) {
    auto config = load_check_config(options);
    if (!config) {
      console.err << "ibkit check: " << config.error().message << "\n";
      return kExitUsage;
    }
    console.out << config->source << ": configuration is valid\n";
    return kExitPass;
  }
  auto check = run_node_check(options);
  if (!check) {
    console.err << "ibkit check: " << check.error().message << "\n";
    return kExitUsage;
  }
  int status = check->status;
  if (!check->environment_note.empty())
    console.err << "ibkit check: " << check->environment_note << "\n";
  if (!check->state_problem.empty()) {
    // The next check would judge flaps against an older snapshot, or none: say so now.
    console.err << "ibkit check: --state " << check->state_problem << "\n";
    status = kExitUsage;
  }
  if (!options.metrics.empty()) {
    // A metrics file that cannot be written fails the run like a report that cannot.
    if (auto written = write_file_atomically(
            options.metrics,
            render_check_prometheus(check->report, check->hcas, check->rate_limits));
        !written) {
      console.err << "ibkit check: --metrics " << written.error().message << "\n";
      status = kExitUsage;
    }
  }
  const bool to_stdout = report_to_stdout(options.output);
  return deliver_report(console, "check", options.output,
                        render(*check, options.format, to_stdout && console.colour,
                               to_stdout ? console.width : kReportWidth),
                        render_check_text(check->report, console.colour, console.width), status);
}

Command add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  auto* parser =
      app.add_subcommand("check", "readiness preflight of this node against the expected state");
  add_node_check_options(*parser, *options);
  add_report_options(*parser, options->format, options->output, /*prometheus=*/true);
  parser
      ->add_option("--metrics", options->metrics,
                   "also write the results as Prometheus metrics to FILE (node_exporter's "
                   "textfile collector: a .prom file in its directory)")
      ->type_name("FILE");
  parser->add_flag("--config-only", options->config_only,
                   "validate --config and exit (0 valid, 2 not)");
  return {parser, [options](Console& console) { return run_check(*options, console); }};
}

}  // namespace ibkit
