#include "cli/pair_command.hpp"

#include <algorithm>
#include <ostream>

#include "cli/command_options.hpp"
#include "config/config_loader.hpp"
#include "control/socket.hpp"
#include "model/pair_report.hpp"
#include "pair/pair_ends.hpp"
#include "pair/pair_verdict.hpp"
#include "pair/run_loopback_tests.hpp"
#include "pair/run_pair_tests.hpp"
#include "pair/test_budget.hpp"
#include "report/pair_json.hpp"
#include "report/pair_junit.hpp"
#include "report/pair_text.hpp"
#include "util/exit_codes.hpp"
#include "util/hostname.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"
#include "util/time/utc_time.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

// How long the name service may take to say it knows no such peer before the tests run: a "no
// such name" comes in milliseconds; a name service slower than this is left to the tests, whose
// deadline counts it, so a silent one costs this second and no more.
constexpr double kPeerLookupSeconds = 1;

Completions completions_of(const PairOptions& options) {
  if (options.events || options.completions == "events") return Completions::kEvents;
  if (options.completions == "both") return Completions::kBoth;
  return Completions::kPoll;
}

PairPlan plan_of(const PairOptions& options) {
  PairPlan plan;
  static_cast<PairWorkload&>(plan) = workload_of(options.workload);
  plan.tx_depth = options.tx_depth;
  plan.use_cm = options.cm;
  plan.completions = completions_of(options);
  plan.device = DeviceChoice{options.device, 0, options.gid_index};
  plan.deadline_s = options.deadline_s;
  return plan;
}

std::string render(const PairReport& report, const std::string& format, bool colour,
                   std::size_t width) {
  if (format == "json") return render_pair_json(report);
  if (format == "junit") return render_pair_junit(report);
  return render_pair_text(report, colour, width);
}

}  // namespace

Expected<Done> check_pair_options(const PairOptions& options) {
  if (options.events && options.completions == "both") {
    return Error{
        "--events runs events only and --completions both runs polling and events: "
        "give one of them"};
  }
  const bool events = completions_of(options) != Completions::kPoll;
  if (events && options.workload.test == "tcp") {
    return Error{
        "--events applies to the verbs tests: TCP has no completion queue; use --test "
        "lat, bw or all"};
  }
  if (!options.loopback) {
    if (options.peer.empty())
      return Error{
          "give PEER (the address of its ibkit serve), or --loopback to test this node "
          "alone"};
    if (!options.peer_device.empty())
      return Error{
          "--peer-device is for --loopback (the other queue pair's HCA on this node); a "
          "peer's ibkit serve picks its own device"};
    return Done{};
  }
  if (!options.peer.empty())
    return Error{"--loopback tests this node alone: drop PEER (" + options.peer + ")"};
  if (options.cm)
    return Error{"--cm connects to a peer through rdma_cm; --loopback has no peer: drop --cm"};
  if (!options.key_file.empty())
    return Error{"--key-file is the key of a peer's ibkit serve; --loopback needs none: drop it"};
  if (options.port != kDefaultControlPort)
    return Error{"--port is a peer's control port; --loopback has no peer: drop it"};
  if (options.workload.test == "tcp")
    return Error{
        "--loopback runs the verbs tests (TCP to this node never leaves it): use --test "
        "lat, bw or all"};
  if (!options.peer_device.empty() && options.device.empty())
    return Error{"--peer-device needs --device (the HCA of the first queue pair)"};
  return Done{};
}

int run_pair(const PairOptions& options, Console& console) {
  if (auto valid = check_pair_options(options); !valid) {
    console.err << "ibkit pair: " << valid.error().message << "\n";
    return kExitUsage;
  }
  Expected<Config> config =
      options.config.empty() ? Expected<Config>(Config{}) : load_config(options.config);
  if (!config) {
    console.err << "ibkit pair: " << config.error().message << "\n";
    return kExitUsage;
  }
  std::optional<SharedKey> key;
  if (!options.key_file.empty()) {
    auto loaded = load_key_file(options.key_file);
    if (!loaded) {
      console.err << "ibkit pair: " << loaded.error().message << "\n";
      return kExitUsage;
    }
    key = *loaded;
  }
  if (!options.loopback) {
    // A peer the name service does not know is a mistake in the command, as sweep's --hosts
    // treats one: exit 2 in one line, not a report of tests that stopped. No answer at all (the
    // name service down) is left to the tests, which say so.
    auto known = resolve_addresses(
        options.peer, Deadline::after_seconds(std::min(kPeerLookupSeconds, options.deadline_s)));
    if (!known && !known.error().environment) {
      console.err << "ibkit pair: " << terminal_safe(known.error().message) << "\n";
      return kExitUsage;
    }
  }
  const PairPlan plan = plan_of(options);
  for (const auto& test : plan.tests) {
    if (test == "tcp") continue;
    TestRequest request = build_pair_request(plan, test);
    request.events = plan.completions != Completions::kPoll;  // kBoth: the events run too
    if (auto valid = check_verbs_request(request); !valid) {
      console.err << "ibkit pair: " << valid.error().message << "\n";
      return kExitUsage;
    }
  }

  PairReport report{local_hostname(),
                    options.loopback ? "loopback" : options.peer,
                    utc_timestamp(),
                    config->source,
                    {},
                    {}};
  report.outcomes = options.loopback
                        ? run_loopback_tests(plan, options.peer_device).outcomes
                        : run_pair_tests(options.peer, options.port, key, plan).outcomes;
  bool no_local_device = false;
  for (const auto& outcome : report.outcomes) {
    no_local_device = no_local_device || (outcome.verbs && outcome.verbs->no_local_device);
  }
  report.results = judge_pair(report.outcomes, config->thresholds);
  add_pair_ends_result(report.results, report.outcomes, report.host, options.peer);

  int status = any_failed(report.results) ? kExitFail : kExitPass;
  if (no_local_device) status = kExitEnvironment;
  const bool to_stdout = report_to_stdout(options.output);
  return deliver_report(console, "pair", options.output,
                        render(report, options.format, to_stdout && console.colour,
                               to_stdout ? console.width : kReportWidth),
                        render_pair_text(report, console.colour, console.width), status);
}

Command add_pair_command(CLI::App& app) {
  auto options = std::make_shared<PairOptions>();
  auto* parser = app.add_subcommand(
      "pair",
      "verbs latency/bandwidth and TCP against one peer running ibkit serve, or --loopback");
  parser->add_option("peer", options->peer, "the peer's address (its ibkit serve)");
  parser->add_flag("--loopback", options->loopback,
                   "no peer: latency and bandwidth between two queue pairs of this node, on every "
                   "rail (or --device), as perftest's loopback");
  parser->add_option("-p,--port", options->port, "the peer's control port")
      ->check(CLI::Range(1, 65535));
  parser
      ->add_option("--key-file", options->key_file,
                   "shared key of the peer's ibkit serve (a 0600 file)")
      ->type_name("FILE");
  add_workload_options(*parser, options->workload);
  parser->add_option("-t,--tx-depth", options->tx_depth, "outstanding work requests per QP (bw)")
      ->check(CLI::Range(1, 4096));
  auto* cm = parser->add_flag("-R,--cm", options->cm,
                              "connect the queue pairs through rdma_cm (PEER must be its fabric "
                              "address)");
  parser
      ->add_option("-d,--device", options->device,
                   "RDMA device (default: the first with an Active port)")
      ->excludes(cm);
  parser->add_option("--peer-device", options->peer_device,
                     "--loopback: the other queue pair's RDMA device (another HCA of this node)");
  parser->add_flag("-e,--events", options->events,
                   "wait for completions on a completion channel (perftest -e), not polling");
  parser
      ->add_option("--completions", options->completions,
                   "poll, events, or both (each verbs test twice, shown side by side)")
      ->check(CLI::IsMember({"poll", "events", "both"}));
  parser
      ->add_option("-x,--gid-index", options->gid_index,
                   "GID index (default: RoCE v2 IPv4, else the first)")
      ->check(CLI::Range(0, 1023));
  parser->add_option("--config", options->config, "TOML with [thresholds]")->type_name("FILE");
  parser
      ->add_option("--deadline", options->deadline_s,
                   "seconds each test may take beyond --duration x sizes (default 120, plus 2 "
                   "per size)")
      ->transform(seconds_with_units())
      ->check(CLI::Range(1.0, 86400.0));
  add_report_options(*parser, options->format, options->output);
  return {parser, [options](Console& console) { return run_pair(*options, console); }};
}

}  // namespace ibkit
