#include "cli/sweep_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <unistd.h>

#include "cli/command_options.hpp"
#include "cli/launched_sweep.hpp"
#include "cli/report_files.hpp"
#include "cli/serve_command.hpp"
#include "cli/sweep_run.hpp"
#include "config/config_loader.hpp"
#include "model/sweep_consistency.hpp"
#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "report/sweep_files.hpp"
#include "report/sweep_text.hpp"
#include "sweep/coordinator.hpp"
#include "sweep/drive_client.hpp"
#include "sweep/host_lookup.hpp"
#include "sweep/network_runner.hpp"
#include "sweep/sweep_summary.hpp"
#include "util/exit_codes.hpp"
#include "util/process/bounded_threads.hpp"
#include "util/text.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

Expected<std::vector<SweepHost>> hosts_of(const SweepOptions& options) {
  std::error_code error;
  // Anything there is read as a file, so a FIFO or a directory is named as such.
  if (std::filesystem::exists(options.hosts, error)) {
    return read_hosts_file(options.hosts, options.port);
  }
  if (options.hosts == "-") {
    return Error{
        "--hosts -: ibkit does not read the hosts from standard input; give a hosts file "
        "or a list (NODE,NODE,...)"};
  }
  if (options.hosts.find(',') == std::string::npos) {
    return Error{"--hosts " + options.hosts +
                 ": no such file, and as a list it names one node; a sweep needs at least two "
                 "(NODE,NODE,... or a hosts file)"};
  }
  return parse_hosts_list(options.hosts, options.port);
}

}  // namespace

int run_sweep_command(const SweepOptions& options, Console& console) {
  if (!options.launch.empty()) return run_launched_sweep(options, console);
  auto fail_usage = [&](const std::string& message) {
    console.err << "ibkit sweep: " << message << "\n";
    return kExitUsage;
  };
  if (options.hosts.empty())
    return fail_usage(
        "--hosts FILE|LIST is required: the nodes to sweep (or --launch slurm, inside an "
        "allocation)");
  auto hosts = hosts_of(options);
  if (!hosts) return fail_usage(hosts.error().message);
  auto baseline = read_baseline(options.baseline);
  if (!baseline) return fail_usage(baseline.error().message);
  std::optional<SharedKey> key;
  if (!options.key_file.empty()) {
    auto loaded = load_key_file(options.key_file);
    if (!loaded) return fail_usage(loaded.error().message);
    key = *loaded;
  }
  auto outcome = sweep_hosts(options, *hosts, key, console);
  if (!outcome.report) return outcome.status;
  return report_sweep(options, *baseline, *outcome.report, console);
}

Command add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  auto* parser = app.add_subcommand(
      "sweep", "every pair of HOSTS in parallel rounds through their ibkit serve, with blame");
  parser
      ->add_option("--hosts", options->hosts,
                   "hosts file (ADDRESS[:PORT] or NAME ADDRESS[:PORT] per line) or a comma list")
      ->type_name("FILE|LIST");
  parser->add_option("-p,--port", options->port, "control port of hosts without their own")
      ->check(CLI::Range(1, 65535));
  parser->add_option("--pattern", options->pattern,
                     "all-pairs, ring, random:K, ring+random:K, pairs:FILE, topo:FILE or "
                     "topo-blame:FILE (1,000+ nodes)");
  parser->add_option("--seed", options->seed,
                     "seed of random:K (the same seed, the same pairs; the report names it)");
  add_workload_options(*parser, options->workload);
  parser->get_option("--bidir")->description("both directions at once (bw, tcp): the default");
  parser
      ->add_flag("--one-way", options->one_way,
                 "bw and tcp from each pair's first node to its second only (default: both ways "
                 "at once, each judged on its own)")
      ->excludes("--bidir");
  parser->add_option("--rails", options->rails, "all, or how many rails to test (rail i to rail i)")
      ->type_name("all|N");
  parser
      ->add_option("--deadline", options->deadline_s,
                   "seconds the whole sweep may take (90, 10m, 2h; default: no limit)")
      ->transform(seconds_with_units())
      ->check(CLI::Range(1.0, 7 * 86400.0));
  parser
      ->add_option("--pair-deadline", options->pair_deadline_s,
                   "seconds one pair may take (default: derived from the tests' duration x "
                   "sizes and margins, at most 590)")
      ->transform(seconds_with_units())
      ->check(CLI::Range(1.0, DriveBounds::kMaxDeadlineS));
  parser
      ->add_option("--connect-timeout", options->connect_timeout_s,
                   "seconds to reach and authenticate a node (default 5)")
      ->check(CLI::Range(0.1, 600.0));
  parser
      ->add_option("--key-file", options->key_file, "the key every node's ibkit serve holds (0600)")
      ->type_name("FILE");
  parser->add_option("--config", options->config, "TOML with [thresholds]")->type_name("FILE");
  parser
      ->add_option("--launch", options->launch,
                   "start the nodes' agents for this run and stop them after: ssh (the nodes of "
                   "--hosts) or slurm (the allocation's nodes, through srun); ibkit check runs on "
                   "every node and joins the report")
      ->type_name("ssh|slurm")
      ->excludes("--key-file");
  parser
      ->add_option("--remote-ibkit", options->remote_ibkit,
                   "with --launch: the agent's path on the nodes (default: ibkit on their PATH)")
      ->type_name("PATH");
  parser
      ->add_option("--node-config", options->node_config,
                   "with --launch: ibkit check's --config on the nodes (default: their "
                   "/etc/ibkit/ibkit.toml)")
      ->type_name("PATH");
  add_baseline_options(*parser, options->baseline);
  parser->add_flag("--dry-run", options->dry_run,
                   "check the options, hosts, pattern and config, then exit: no node is asked, "
                   "no file written (0 valid, 2 not)");
  parser
      ->add_option("--format", options->format,
                   "report files: " + format_words(report_file_formats(), ", ") +
                       ", comma-separated, or all (default)")
      ->type_name("LIST");
  add_output_folder_option(
      *parser, options->output,
      "write " + format_words(report_file_names(), " and ") + " (those --format picks) into DIR");
  return {parser, [options](Console& console) { return run_sweep_command(*options, console); }};
}

}  // namespace ibkit
