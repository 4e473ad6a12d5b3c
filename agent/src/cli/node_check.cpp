#include "cli/node_check.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>

#include "checks/run_checks.hpp"
#include "cli/command_options.hpp"
#include "config/config_loader.hpp"
#include "pair/run_loopback_tests.hpp"
#include "schema/counter_baseline.hpp"
#include "schema/counter_state_json.hpp"
#include "sysfs/host.hpp"
#include "sysfs/sysfs_root.hpp"
#include "util/exit_codes.hpp"
#include "util/files/file_write.hpp"
#include "util/files/state_turn.hpp"
#include "util/time/utc_time.hpp"
#include "verbs/port_mtus.hpp"

namespace ibkit {
namespace {

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

}  // namespace

void add_node_check_options(CLI::App& command, CheckOptions& options) {
  add_root_option(command, options.root);
  command
      .add_option("--config", options.config,
                  "TOML expectations (default /etc/ibkit/ibkit.toml if present)")
      ->type_name("FILE");
  command
      .add_option("--state", options.state,
                  "keep the port counters in FILE between runs and judge the link flaps "
                  "(link_downed rises) and error rates since the previous run against [limits]")
      ->type_name("FILE");
}

Expected<Config> load_check_config(const CheckOptions& options) {
  auto root = SysfsRoot::open(options.root);
  if (!root) return root.error();
  return resolve_config(options, *root);
}

Expected<NodeCheck> run_node_check(const CheckOptions& options) {
  auto root = SysfsRoot::open(options.root);
  if (!root) return root.error();
  auto config = resolve_config(options, *root);
  if (!config) return config.error();
  config->expect.ports.spare_never_linked = options.spare_never_linked;

  const std::string generated_at = utc_timestamp();
  const std::int64_t now = unix_seconds(generated_at).value_or(0);
  const std::string boot_id = root->read("proc/sys/kernel/random/boot_id").value_or("");
  std::optional<CounterBaseline> baseline;
  StateTurn turn =
      options.state.empty()
          ? StateTurn{}
          : take_state_turn(options.state, options.state_wait_seconds, "judged no flaps");
  if (turn.lock) {
    baseline = load_counter_baseline(options.state, read_hostname(*root), boot_id, now);
  } else if (!turn.problem.empty()) {
    baseline = CounterBaseline{options.state, now, std::nullopt, turn.problem, true};
  }

  CheckRun run =
      run_checks(*root, *config, read_active_mtus(*root), baseline ? &*baseline : nullptr);
  add_loopback_results(*config, *root, run.results);
  NodeCheck check{CheckReport{run.hostname, generated_at, config->source, std::move(run.results)},
                  std::move(run.hcas),
                  kExitPass,
                  "",
                  "",
                  config->error_rates};
  check.state_problem = turn.problem;
  if (turn.lock) {
    auto snapshot = take_counter_snapshot(check.hcas, run.hostname, boot_id, now);
    snapshot.rate_history = std::move(run.rate_history);
    auto written = write_file_atomically(options.state, render_counter_snapshot(snapshot));
    if (!written) check.state_problem = written.error().message;
  }
  if (any_failed(check.report.results)) check.status = kExitFail;
  if (run.no_rdma_device) {
    check.environment_note = "no RDMA device under " +
                             (root->path() / "sys/class/infiniband").string() +
                             "; load the HCA driver (or create a Soft-RoCE device) and run again";
    check.status = kExitEnvironment;
  }
  return check;
}

}  // namespace ibkit
