#include "cli/check_command.hpp"

#include <filesystem>
#include <ostream>

#include "checks/run_checks.hpp"
#include "cli/command_options.hpp"
#include "config/config_loader.hpp"
#include "model/check_report.hpp"
#include "pair/run_loopback_tests.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_prometheus.hpp"
#include "report/check_text.hpp"
#include "util/exit_codes.hpp"
#include "util/file_write.hpp"
#include "util/utc_time.hpp"
#include "verbs/port_mtus.hpp"

namespace ibkit {
namespace {

// The explicit --config, else the provisioned /etc/ibkit/ibkit.toml on the live system, else
// the defaults.
Expected<Config> resolve_config(const CheckOptions& options, const SysfsRoot& root) {
  if (!options.config.empty()) return load_config(options.config);
  std::error_code ec;
  if (root.is_live_system() && std::filesystem::exists(kDefaultConfigPath, ec)) {
    return load_config(kDefaultConfigPath);
  }
  return Config{};
}

// [expect] loopback: the data path of every rail port, judged by [thresholds]. It needs the
// live node's devices: over a --root tree it is skipped, saying so.
void add_loopback_results(const Config& config, const SysfsRoot& root, CheckResults& results) {
  if (!config.expect.loopback) return;
  if (!root.is_live_system()) {
    results.push_back({"loopback", "node", Status::kSkip, "not run",
                       "latency and bandwidth in loopback on every rail port",
                       "--root " + root.path().string() +
                           " reads files only; the loopback test runs on the live node"});
    return;
  }
  for (auto& result : run_loopback_check(config.thresholds)) results.push_back(std::move(result));
}

std::string render(const CheckReport& report, const std::vector<Hca>& hcas,
                   const std::string& format, bool colour) {
  if (format == "json") return render_check_json(report);
  if (format == "junit") return render_check_junit(report);
  if (format == "prometheus") return render_check_prometheus(report, hcas);
  return render_check_text(report, colour);
}

}  // namespace

int run_check(const CheckOptions& options, Console& console) {
  auto root = SysfsRoot::open(options.root);
  if (!root) {
    console.err << "ibkit check: " << root.error().message << "\n";
    return kExitUsage;
  }
  auto config = resolve_config(options, *root);
  if (!config) {
    console.err << "ibkit check: " << config.error().message << "\n";
    return kExitUsage;
  }
  if (options.config_only) {
    console.out << config->source << ": configuration is valid\n";
    return kExitPass;
  }

  CheckRun run = run_checks(*root, *config, read_active_mtus(*root));
  add_loopback_results(*config, *root, run.results);
  CheckReport report{run.hostname, utc_timestamp(), config->source, std::move(run.results)};

  int status = any_failed(report.results) ? kExitFail : kExitPass;
  if (run.no_rdma_device) {
    console.err << "ibkit check: no RDMA device under "
                << (root->path() / "sys/class/infiniband").string()
                << "; load the HCA driver (or create a Soft-RoCE device) and run again\n";
    status = kExitEnvironment;
  }
  if (!options.metrics.empty()) {
    // A metrics file that cannot be written fails the run like a report that cannot.
    if (auto problem =
            write_file_atomically(options.metrics, render_check_prometheus(report, run.hcas));
        !problem.empty()) {
      console.err << "ibkit check: --metrics " << problem << "\n";
      status = kExitUsage;
    }
  }
  const bool to_stdout = options.output.empty();
  return deliver_report(console, "check", options.output,
                        render(report, run.hcas, options.format, to_stdout && console.colour),
                        render_check_text(report, console.colour), status);
}

Command add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  auto* parser =
      app.add_subcommand("check", "readiness preflight of this node against the expected state");
  add_root_option(*parser, options->root);
  parser
      ->add_option("--config", options->config,
                   "TOML expectations (default /etc/ibkit/ibkit.toml if present)")
      ->type_name("FILE");
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
