#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "pair/run_pair_tests.hpp"

namespace ibkit {

// The test options ibkit pair and ibkit sweep share: what runs between two nodes.
struct WorkloadOptions {
  std::string test = "lat";  // lat | bw | tcp | all (ibkit sweep: all)
  std::string op;            // "" = send for lat, write for bw
  std::uint64_t size = 0;    // 0 = 2 B for lat, 64 KiB for bw, 128 KiB writes for tcp
  bool sweep = false;        // 2 B .. 8 MiB, as perftest -a
  int qps = 1;               // queue pairs (bw) or TCP streams (tcp)
  std::uint64_t iters = 0;   // a count per size instead of a duration (lat: 0 = 1000)
  double duration_s = 0;     // per size (bw, tcp); 0 and no iters = 2 s
  bool bidir = false;
  int ack_timeout = 0;  // RC ACK timeout exponent (perftest -u); 0 = the default
};

// ibkit sweep's default: every test, bandwidth and TCP both ways at once (each way judged on its
// own: docs/verdicts.md).
inline WorkloadOptions every_test() {
  WorkloadOptions options;
  options.test = "all";
  options.bidir = true;
  return options;
}

// --test, --op, --size, --sweep, --qps, --iters, --duration, --bidir and --ack-timeout, within
// the bounds a peer accepts (RequestBounds).
void add_workload_options(CLI::App& command, WorkloadOptions& options);

// The workload the options ask for ("all" is every test, --sweep every size); no rail.
PairWorkload workload_of(const WorkloadOptions& options);

}  // namespace ibkit
