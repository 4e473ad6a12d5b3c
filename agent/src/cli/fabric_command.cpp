#include "cli/fabric_command.hpp"

#include <ostream>

#include "cli/command_options.hpp"
#include "config/config_loader.hpp"
#include "fabric/counter_state.hpp"
#include "fabric/fabric_checks.hpp"
#include "fabric/fabric_discovery.hpp"
#include "fabric/fabric_record.hpp"
#include "fabric/link_training.hpp"
#include "fabric/topology_diff.hpp"
#include "fabric/umad_ports.hpp"
#include "model/check_report.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_text.hpp"
#include "schema/counter_state_json.hpp"
#include "util/exit_codes.hpp"
#include "util/files/file_write.hpp"
#include "util/hostname.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {

int run_fabric(const FabricOptions& options, Console& console) {
  if (!options.link_width.empty() && !width_named(options.link_width)) {
    console.err << "ibkit fabric: --link-width " << options.link_width << ": expected "
                << width_names() << "\n";
    return kExitUsage;
  }
  if (!options.link_speed.empty() && !speed_named(options.link_speed)) {
    console.err << "ibkit fabric: --link-speed " << options.link_speed << ": expected "
                << speed_names() << "\n";
    return kExitUsage;
  }
  Expected<Config> config =
      options.config.empty() ? Expected<Config>(Config{}) : load_config(options.config);
  if (!config) {
    console.err << "ibkit fabric: " << config.error().message << "\n";
    return kExitUsage;
  }
  std::optional<Subnet> saved;
  if (!options.topology.empty()) {
    auto read = read_topology_file(options.topology, "--topology");
    if (!read) {
      console.err << "ibkit fabric: " << read.error().message << "\n";
      return kExitUsage;
    }
    saved = std::move(*read);
  }
  const Deadline deadline = Deadline::after_seconds(options.deadline_s);
  DiscoveryOptions discovery;
  discovery.device = options.device;
  discovery.port = options.port;
  discovery.mad_timeout_ms = options.mad_timeout_ms;
  discovery.read_forwarding = !options.save_topology.empty();
  auto fabric = discover_fabric(discovery, deadline);
  if (!fabric) {
    // libibmad's own words (ibwarn, a source line) say less than sysfs does about why.
    if (const auto missing = options.device.empty() ? missing_umad_port() : std::nullopt) {
      console.err << "ibkit fabric: " << *missing << "\n";
      return kExitEnvironment;
    }
    console.err << "ibkit fabric: " << fabric.error().message << "\n";
    return fabric.error().environment ? kExitEnvironment : kExitUsage;
  }
  std::optional<FabricCounterState> state;
  if (!options.state.empty())
    state.emplace(use_counter_state(options.state, options.state_wait_seconds, *fabric));
  const std::string from = options.device.empty() ? "the first device" : options.device;
  CheckReport report{
      local_hostname(), utc_timestamp(), kFabricConfigPrefix + from,
      check_subnet(*fabric, {options.link_width, options.link_speed}, config->counter_limits)};
  report.command = "fabric";
  if (saved) {
    for (auto& result : check_topology(*saved, *fabric))
      report.results.push_back(std::move(result));
  }
  if (state && state->problem) report.results.push_back(*state->problem);
  int status = any_failed(report.results) ? kExitFail : kExitPass;
  if (state && state->turn.lock) {
    auto written = write_file_atomically(options.state, render_counter_snapshot(state->snapshot));
    if (!written) {
      console.err << "ibkit fabric: --state " << written.error().message << "\n";
      if (status == kExitPass) status = kExitUsage;
    }
  }
  if (!options.save_topology.empty()) {
    auto written = write_file_atomically(options.save_topology, record_fabric(*fabric));
    if (!written) {
      console.err << "ibkit fabric: --save-topology " << written.error().message << "\n";
      if (status == kExitPass) status = kExitUsage;  // a failing verdict stays one
    }
  }
  const bool to_stdout = report_to_stdout(options.output);
  std::string rendered = options.format == "json" ? render_check_json(report)
                         : options.format == "junit"
                             ? render_check_junit(report)
                             : render_check_text(report, to_stdout && console.colour,
                                                 to_stdout ? console.width : kReportWidth);
  return deliver_report(console, "fabric", options.output, rendered,
                        render_check_text(report, console.colour, console.width), status);
}

Command add_fabric_command(CLI::App& app) {
  auto options = std::make_shared<FabricOptions>();
  auto* parser = app.add_subcommand(
      "fabric", "the whole subnet from this node: its subnet manager, duplicates and every link");
  parser
      ->add_option("-d,--device", options->device,
                   "start from this RDMA device (default: the first)")
      ->type_name("NAME");
  parser->add_option("-i,--port", options->port, "and this port of it (default: its first active)")
      ->check(CLI::Range(1, 254));
  add_report_options(*parser, options->format, options->output);
  parser->add_option("--config", options->config, "TOML whose [limits] judge every port's errors")
      ->type_name("FILE");
  parser
      ->add_option("--save-topology", options->save_topology,
                   "also write the subnet as discovered to FILE, to compare later runs with")
      ->type_name("FILE");
  parser
      ->add_option("--topology", options->topology,
                   "compare with the subnet --save-topology wrote to FILE: every node and cable "
                   "moved, missing or new, as ibdiagnet -t")
      ->type_name("FILE");
  parser
      ->add_option("--state", options->state,
                   "judge every port's error counters by what they rose by since the run that "
                   "wrote FILE, then keep this run's there")
      ->type_name("FILE");
  parser->add_option("--deadline", options->deadline_s, "seconds the discovery may take")
      ->transform(seconds_with_units())
      ->check(CLI::Range(1.0, 3600.0));
  parser
      ->add_option("--mad-timeout", options->mad_timeout_ms,
                   "milliseconds to wait for one management answer")
      ->check(CLI::Range(10, 10000));
  parser
      ->add_option("--link-width", options->link_width,
                   "what every link must reach besides its ends' best, as ibdiagnet --lw: 4X")
      ->type_name("WIDTH");
  parser
      ->add_option("--link-speed", options->link_speed,
                   "and the speed, as ibdiagnet --ls: QDR, EDR, HDR, NDR...")
      ->type_name("SPEED");
  return {parser, [options](Console& console) { return run_fabric(*options, console); }};
}

}  // namespace ibkit
