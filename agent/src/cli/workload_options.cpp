#include "cli/workload_options.hpp"

#include "cli/command_options.hpp"
#include "control/measurement_request.hpp"
#include "pair/test_budget.hpp"

namespace ibkit {

void add_workload_options(CLI::App& command, WorkloadOptions& options) {
  command.add_option("--test", options.test, "lat, bw, tcp or all")
      ->check(CLI::IsMember({"lat", "bw", "tcp", "all"}));
  command
      .add_option("--op", options.op, "send, write or read (lat: send|write; bw: write|read|send)")
      ->check(CLI::IsMember({"send", "write", "read"}));
  auto* size = command
                   .add_option("-s,--size", options.size,
                               "message size in bytes (64K, 1M), 1 B to 8 MiB (default 2 for lat, "
                               "65536 for bw, 131072 for tcp)")
                   ->transform(size_with_units())
                   ->check(CLI::Range(RequestBounds::kMinSize, RequestBounds::kMaxSize));
  command.add_flag("-a,--sweep", options.sweep, "every size from 2 B to 8 MiB, as perftest -a")
      ->excludes(size);
  command.add_option("-q,--qps", options.qps, "queue pairs (bw) or TCP streams")
      ->check(CLI::Range(1, RequestBounds::kMaxQps));
  auto* iters = command
                    .add_option("-n,--iters", options.iters,
                                "a count per size instead of a duration (lat: default 1000)")
                    ->check(CLI::Range(std::uint64_t{1}, RequestBounds::kMaxIters));
  command
      .add_option("-D,--duration", options.duration_s,
                  "seconds per size for bw and tcp (default 2 unless --iters)")
      ->transform(seconds_with_units())
      ->check(CLI::Range(0.1, RequestBounds::kMaxDurationS))
      ->excludes(iters);
  command.add_flag("-b,--bidir", options.bidir, "both directions at once (bw, tcp)");
  command
      .add_option("-u,--ack-timeout", options.ack_timeout,
                  "RC ACK timeout of both ends, 4.096 us x 2^N a try, 7 tries (perftest -u; "
                  "default 14 = 67 ms, or rdma_cm's with --cm); raise it for deep queues")
      ->check(CLI::Range(RequestBounds::kMinAckTimeout, RequestBounds::kMaxAckTimeout));
}

PairWorkload workload_of(const WorkloadOptions& options) {
  PairWorkload workload;
  workload.tests = options.test == "all" ? std::vector<std::string>{"lat", "bw", "tcp"}
                                         : std::vector<std::string>{options.test};
  workload.op = options.op;
  if (options.size != 0) workload.sizes = {options.size};
  if (options.sweep) workload.sizes = all_message_sizes();
  workload.qps = options.qps;
  workload.iters = options.iters;
  workload.duration_s = options.duration_s;
  workload.bidir = options.bidir;
  if (options.ack_timeout != 0) workload.ack_timeout = options.ack_timeout;
  return workload;
}

}  // namespace ibkit
