#include "pair/pair_verdict.hpp"

#include <algorithm>

#include "config/config.hpp"
#include "config/transport_counters.hpp"
#include "model/pair_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string subject_of(const VerbsMeasurement& measurement) {
  return measurement.test + " " + measurement.op +
         (measurement.completions == "events" ? " events" : "") +
         (measurement.bidir ? " bidir" : "") +
         (measurement.qps > 1 ? " " + std::to_string(measurement.qps) + " QPs" : "") +
         (measurement.loopback.empty() ? "" : " loopback " + measurement.loopback);
}

void judge_latency(const VerbsMeasurement& measurement, const Thresholds& thresholds,
                   CheckResults& results) {
  const SizeMeasurement* smallest = smallest_latency_size(measurement);
  if (smallest == nullptr) return;
  const double typical = smallest->latency->typical_us;
  CheckResult result{
      "pair.latency",     subject_of(measurement) + " " + std::to_string(smallest->size) + " B",
      Status::kPass,      format_number(typical) + " us typical",
      "no threshold set", ""};
  if (thresholds.max_latency_us) {
    result.expected = "<= " + format_number(*thresholds.max_latency_us) + " us";
    if (typical > *thresholds.max_latency_us) {
      result.status = Status::kFail;
      result.hint =
          "latency above threshold: check the CPU governor and C-states, the HCA's NUMA node "
          "(run on a CPU near it), and port counters for retransmissions";
    }
  }
  results.push_back(std::move(result));
}

// Both ways of a bidirectional figure: the weaker, which a floor judges, and the text that
// shows both beside the sum.
struct BothWays {
  double weaker = 0;
  std::string weaker_way;  // "a -> b"
  std::string shown;       // " (a -> b 1.2, b -> a 3.4)"
};

BothWays both_ways(double to_peer, double from_peer, const PairEndNames& ends) {
  const std::string out = ends.local + " -> " + ends.peer;
  const std::string back = ends.peer + " -> " + ends.local;
  return {std::min(to_peer, from_peer), to_peer <= from_peer ? out : back,
          " (" + out + " " + format_number(to_peer, 3) + ", " + back + " " +
              format_number(from_peer, 3) + ")"};
}

// What a hint says first when one way of two fell below a floor.
std::string below_threshold_way(const BothWays& ways) {
  return ways.weaker_way.empty() ? ""
                                 : "the " + ways.weaker_way + " direction is below the threshold: ";
}

// A bidirectional test that measured each way holds each way to the floor: the sum would pass a
// link that is fast one way and broken the other.
void judge_bandwidth(const VerbsMeasurement& measurement, const Thresholds& thresholds,
                     const PairEndNames& ends, CheckResults& results) {
  const SizeMeasurement* largest = largest_bandwidth_size(measurement);
  if (largest == nullptr) return;
  const double gbps = largest->bandwidth->gbps;
  CheckResult result{
      "pair.bandwidth",   subject_of(measurement) + " " + std::to_string(largest->size) + " B",
      Status::kPass,      format_number(gbps, 3) + " Gb/s",
      "no threshold set", ""};
  const bool each_way = largest->to_peer && largest->from_peer;
  BothWays ways{gbps, "", ""};
  if (each_way) ways = both_ways(largest->to_peer->gbps, largest->from_peer->gbps, ends);
  result.observed += ways.shown;
  std::vector<std::string> floors;
  double floor = 0;
  if (thresholds.min_bandwidth_gbps) {
    floor = *thresholds.min_bandwidth_gbps;
    floors.push_back(format_number(floor) + " Gb/s");
  }
  if (thresholds.min_bandwidth_fraction && measurement.port_data_gbps) {
    double fraction_floor = *thresholds.min_bandwidth_fraction * *measurement.port_data_gbps;
    floors.push_back(format_number(*thresholds.min_bandwidth_fraction * 100) + "% of " +
                     format_number(*measurement.port_data_gbps) + " Gb/s");
    floor = std::max(floor, fraction_floor);
  }
  if (!floors.empty()) {
    result.expected = ">= " + join(floors, " and ") + (each_way ? " each way" : "");
    if (ways.weaker < floor) {
      result.status = Status::kFail;
      result.hint =
          below_threshold_way(ways) +
          "bandwidth below threshold: check the link rate (ibkit check), the HCA's PCIe link, "
          "more QPs (--qps), and port counters for errors";
    }
  }
  results.push_back(std::move(result));
}

// Like judge_bandwidth: each way of a bidirectional run held to the floor on its own.
void judge_tcp(const TcpResult& tcp, const Thresholds& thresholds, const PairEndNames& ends,
               CheckResults& results) {
  CheckResult result{"pair.tcp",         std::to_string(tcp.streams) + " streams",
                     Status::kPass,      format_number(tcp.gbps, 3) + " Gb/s",
                     "no threshold set", ""};
  const bool each_way = tcp.gbps_to_peer && tcp.gbps_from_peer;
  BothWays ways{tcp.gbps, "", ""};
  if (each_way) ways = both_ways(*tcp.gbps_to_peer, *tcp.gbps_from_peer, ends);
  result.observed += ways.shown;
  if (thresholds.min_tcp_gbps) {
    result.expected =
        ">= " + format_number(*thresholds.min_tcp_gbps) + " Gb/s" + (each_way ? " each way" : "");
    if (ways.weaker < *thresholds.min_tcp_gbps) {
      result.status = Status::kFail;
      result.hint = below_threshold_way(ways) +
                    "TCP below threshold: on IPoIB use connected mode and MTU 65520 where the HCA "
                    "allows it, more streams, and the performance governor";
    }
  }
  results.push_back(std::move(result));
}

void judge_counters(const VerbsMeasurement& measurement, const Thresholds& thresholds,
                    const PairEndNames& ends, CheckResults& results) {
  const auto error_counters = default_counter_limits();
  std::vector<std::string> risen;
  auto collect = [&](const std::map<std::string, std::int64_t>& deltas, const std::string& end) {
    for (const auto& [name, delta] : deltas) {
      if (error_counters.count(name) != 0 &&
          delta > static_cast<std::int64_t>(thresholds.max_counter_delta)) {
        risen.push_back(end + " " + name + " +" + std::to_string(delta));
      }
    }
  };
  collect(measurement.local_counter_deltas, ends.local);
  collect(measurement.remote_counter_deltas, ends.peer);
  results.push_back(
      {"pair.counters", subject_of(measurement), risen.empty() ? Status::kPass : Status::kFail,
       risen.empty() ? "no error counter rose" : join(risen, ", "),
       "error counters rise by <= " + std::to_string(thresholds.max_counter_delta),
       risen.empty() ? ""
                     : "errors during the test point at the cable or a port: see ibkit check"});
}

// The transport counters that mean loss (sequence errors, exhausted retries: not the
// retransmissions a late ACK also causes), at either end, against max_transport_delta. Nothing
// is said when neither end's driver keeps transport counters.
void judge_transport(const VerbsMeasurement& measurement, const Thresholds& thresholds,
                     const PairEndNames& ends, CheckResults& results) {
  bool counted = false;
  std::vector<std::string> risen;
  auto collect = [&](const std::map<std::string, std::int64_t>& deltas, const std::string& end) {
    for (const auto& [key, delta] : deltas) {
      if (!key.starts_with(kTransportCounterPrefix)) continue;
      counted = true;
      const std::string name = key.substr(kTransportCounterPrefix.size());
      const TransportCounter* counter = find_transport_counter(name);
      if (counter == nullptr || !transport_kind_means_loss(counter->kind) ||
          delta <= static_cast<std::int64_t>(thresholds.max_transport_delta)) {
        continue;
      }
      risen.push_back(end + " " + name + " +" + std::to_string(delta) + " (" +
                      std::string(transport_kind_name(counter->kind)) + ")");
    }
  };
  collect(measurement.local_counter_deltas, ends.local);
  collect(measurement.remote_counter_deltas, ends.peer);
  if (!counted) return;
  results.push_back(
      {"pair.transport", subject_of(measurement), risen.empty() ? Status::kPass : Status::kFail,
       risen.empty() ? "no sequence errors or broken connections beyond the limit"
                     : join(risen, ", "),
       "sequence errors and broken connections rise by <= " +
           std::to_string(thresholds.max_transport_delta) + " at either end",
       risen.empty()
           ? ""
           : "the path between the two loses packets: the end that receives a gap counts it "
             "(out_of_seq_request, out_of_sequence) and the end whose packets were lost counts the "
             "NAK (rcvd_seq_err, packet_seq_err); check the cable, transceiver and switch port on "
             "the losing side, and flow control (PFC) on RoCE"});
}

}  // namespace

CheckResults judge_pair(const std::vector<PairOutcome>& outcomes, const Thresholds& thresholds,
                        const PairEndNames& ends) {
  CheckResults results;
  for (const auto& outcome : outcomes) {
    if (outcome.verbs) {
      judge_latency(*outcome.verbs, thresholds, results);
      judge_bandwidth(*outcome.verbs, thresholds, ends, results);
      if (outcome.error.empty()) judge_counters(*outcome.verbs, thresholds, ends, results);
      // A test that stopped keeps its counters: sequence errors tell a lossy path from a dead peer.
      judge_transport(*outcome.verbs, thresholds, ends, results);
    }
    if (outcome.tcp) judge_tcp(*outcome.tcp, thresholds, ends, results);
    if (!outcome.error.empty()) {
      // A sweep tells a test that stopped by the subject "test"; a loopback test names its ports.
      const bool loopback = outcome.verbs && !outcome.verbs->loopback.empty();
      results.push_back({"pair." + outcome.test, loopback ? subject_of(*outcome.verbs) : "test",
                         Status::kFail, "stopped: " + outcome.error, "ran to the end",
                         loopback
                             ? "see the message: a loopback test has no peer, so the cause is "
                               "on this node (driver, ib_uverbs, memlock; ibkit check names "
                               "most)"
                             : "see the message; ibkit check on both nodes names most causes"});
    }
  }
  return results;
}

}  // namespace ibkit
