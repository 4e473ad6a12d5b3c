#pragma once

#include <cstddef>
#include <string>

#include "model/check_report.hpp"
#include "model/sweep_report.hpp"

namespace ibkit::test {

// A width no line of a sweep's text reaches, so none wraps: for tests of what the text says,
// not of how it is laid out.
constexpr std::size_t kUnwrapped = std::size_t{1} << 20;

// A node name as hostile as a hosts file can make it: markup, quotes, a comma, a pipe.
inline const std::string kHostileNode = "<img src=x onerror=alert(1)>,\"lab|4\"";

// A measured pair: latency at 2 B (typical `latency_us`) and 4 KiB (ten times more), bandwidth
// at 64 KiB (half `gbps`) and 1 MiB (`gbps`); a pass the fleet rule judged.
SweepPair measured_pair(const std::string& a, const std::string& b, int round, double latency_us,
                        double gbps);

// Makes the pair's 1 MiB bandwidth size (measured_pair's) a bidirectional test that measured each
// way, `a_to_b` and `b_to_a` Gb/s, their sum its bandwidth; the pair back to an unjudged pass.
void set_each_way(SweepPair& pair, double a_to_b, double b_to_a);

// Every pair of n nodes named n0, n1, ..., in the rounds all-pairs gives them, each a
// measured_pair at these figures; not judged.
SweepReport all_pairs_sweep(int n, double latency_us, double gbps);

// Four nodes (lab1..lab3 and kHostileNode), all six pairs in three rounds: lab1-lab2 passed
// (1.5 us, 90 Gb/s), lab3-lab4 failed (measured its latency before it did), lab1-lab3 slow,
// lab2-lab4 unreachable, lab1-lab4 timed out, lab2-lab3 not run; kHostileNode is blamed. The
// pass was judged by the fleet rule, the slow pair by a threshold. No node checks.
SweepReport sample_sweep();

// "a-b: reason" for each pair that did not pass, a line each: what a failed check shows.
std::string pairs_not_passed(const SweepReport& report);

// One node's check report with a pass and, when `failing`, a failed memlock check.
CheckReport sample_check(const std::string& host, bool failing);

}  // namespace ibkit::test
