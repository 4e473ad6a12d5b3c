#include "report/pair_text.hpp"

#include <cstdarg>
#include <cstdio>

#include "model/pair_report.hpp"
#include "report/check_text.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string row(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string row(const char* format, ...) {
  char buffer[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(buffer, sizeof buffer, format, arguments);
  va_end(arguments);
  // Device names and the op come from the peer's report as much as from here.
  return terminal_safe(buffer) + "\n";
}

const char* completions_text(const VerbsMeasurement& measurement) {
  return measurement.completions == "events" ? "completion events" : "polled completions";
}

// The line under a bidirectional figure, verbs or TCP alike, that shows each way.
std::string each_way_row(double to_peer, double from_peer) {
  return row("   each way: to the peer %.3f Gb/s, from the peer %.3f Gb/s", to_peer, from_peer);
}

std::string verbs_table(const VerbsMeasurement& measurement) {
  if (measurement.sizes.empty()) return "";
  const std::string ack_timeout =
      measurement.ack_timeout ? ", ACK timeout " + std::to_string(*measurement.ack_timeout) : "";
  std::string out =
      row(" %s %s, %d QP%s%s%s%s, %s", measurement.test == "lat" ? "latency" : "bandwidth",
          measurement.op.c_str(), measurement.qps, measurement.qps == 1 ? "" : "s",
          measurement.bidir ? ", bidirectional" : "", measurement.rdma_cm ? ", rdma_cm" : "",
          ack_timeout.c_str(), completions_text(measurement));
  if (!measurement.loopback.empty()) {
    out += row(" loopback %s: %s -> %s", measurement.loopback.c_str(),
               measurement.local_device.c_str(), measurement.remote_device.c_str());
  } else {
    out += row(" local %s, peer %s", measurement.local_device.c_str(),
               measurement.remote_device.empty() ? "?" : measurement.remote_device.c_str());
  }
  if (measurement.test == "lat") {
    out += row(" %-9s %-12s %-12s %-12s %-15s %-12s %-13s %-12s %-12s", "#bytes", "#iterations",
               "t_min[us]", "t_max[us]", "t_typical[us]", "t_avg[us]", "t_stdev[us]", "99%[us]",
               "99.9%[us]");
    for (const auto& size : measurement.sizes) {
      if (!size.latency) continue;
      const auto& l = *size.latency;
      out += row(" %-9llu %-12llu %-12.2f %-12.2f %-15.2f %-12.2f %-13.2f %-12.2f %-12.2f",
                 static_cast<unsigned long long>(size.size),
                 static_cast<unsigned long long>(size.iterations), l.min_us, l.max_us, l.typical_us,
                 l.avg_us, l.stdev_us, l.p99_us, l.p999_us);
    }
  } else {
    out += row(" %-9s %-12s %-20s %-18s %-14s", "#bytes", "#iterations", "BW average[MiB/s]",
               "BW average[Gb/s]", "MsgRate[Mpps]");
    for (const auto& size : measurement.sizes) {
      if (!size.bandwidth) continue;
      const auto& b = *size.bandwidth;
      out +=
          row(" %-9llu %-12llu %-20.2f %-18.3f %-14.6f", static_cast<unsigned long long>(size.size),
              static_cast<unsigned long long>(size.iterations), b.mib_per_s, b.gbps, b.mpps);
      if (size.to_peer && size.from_peer) {
        out += each_way_row(size.to_peer->gbps, size.from_peer->gbps);
      }
    }
  }
  return out;
}

std::string tcp_line(const TcpResult& tcp) {
  std::string line =
      row(" tcp, %d stream%s%s: %.3f Gb/s (%.2f MiB/s), %llu bytes in %.2f s", tcp.streams,
          tcp.streams == 1 ? "" : "s", tcp.bidir ? ", bidirectional" : "", tcp.gbps, tcp.mib_per_s,
          static_cast<unsigned long long>(tcp.bytes), tcp.seconds);
  if (tcp.gbps_to_peer && tcp.gbps_from_peer) {
    line += each_way_row(*tcp.gbps_to_peer, *tcp.gbps_from_peer);
  }
  return line;
}

// The same test with polled completions: same kind, operation, QPs, direction and ends.
const VerbsMeasurement* polled_twin(const PairReport& report, const VerbsMeasurement& events) {
  for (const auto& outcome : report.outcomes) {
    if (!outcome.verbs) continue;
    const VerbsMeasurement& m = *outcome.verbs;
    if (m.completions != "events" && m.test == events.test && m.op == events.op &&
        m.qps == events.qps && m.bidir == events.bidir && m.rdma_cm == events.rdma_cm &&
        m.ack_timeout == events.ack_timeout && m.loopback == events.loopback &&
        m.local_device == events.local_device) {
      return &m;
    }
  }
  return nullptr;
}

// A line per test that ran both ways: the figure it is judged by, events against polling.
std::string events_vs_polling(const PairReport& report) {
  std::string out;
  for (const auto& outcome : report.outcomes) {
    if (!outcome.verbs || outcome.verbs->completions != "events") continue;
    const VerbsMeasurement& events = *outcome.verbs;
    const VerbsMeasurement* polled = polled_twin(report, events);
    if (polled == nullptr) continue;
    const std::string where = events.loopback.empty() ? "" : " loopback " + events.loopback;
    if (events.test == "lat") {
      const SizeMeasurement* e = smallest_latency_size(events);
      const SizeMeasurement* p = smallest_latency_size(*polled);
      if (e == nullptr || p == nullptr || e->size != p->size || p->latency->typical_us <= 0)
        continue;
      out += row(" latency %s%s %llu B, typical: events %.2f us, polling %.2f us (x%.2f)",
                 events.op.c_str(), where.c_str(), static_cast<unsigned long long>(e->size),
                 e->latency->typical_us, p->latency->typical_us,
                 e->latency->typical_us / p->latency->typical_us);
    } else {
      const SizeMeasurement* e = largest_bandwidth_size(events);
      const SizeMeasurement* p = largest_bandwidth_size(*polled);
      if (e == nullptr || p == nullptr || e->size != p->size || p->bandwidth->mib_per_s <= 0)
        continue;
      out += row(" bandwidth %s%s %llu B: events %.2f MiB/s, polling %.2f MiB/s (x%.2f)",
                 events.op.c_str(), where.c_str(), static_cast<unsigned long long>(e->size),
                 e->bandwidth->mib_per_s, p->bandwidth->mib_per_s,
                 e->bandwidth->mib_per_s / p->bandwidth->mib_per_s);
    }
  }
  if (out.empty()) return out;
  return "---------------------------------------------------------------------------------------"
         "\n events vs polling (ratio: events / polling)\n" +
         out;
}

}  // namespace

std::string render_pair_text(const PairReport& report, bool colour, std::size_t width) {
  std::string out = terminal_safe("ibkit pair " + report.host + " -> " + report.peer +
                                  " (config: " + report.config_source + ")") +
                    "\n";
  for (const auto& outcome : report.outcomes) {
    out +=
        "---------------------------------------------------------------------------------------\n";
    if (outcome.verbs) out += verbs_table(*outcome.verbs);
    if (outcome.tcp) out += tcp_line(*outcome.tcp);
    if (!outcome.error.empty()) {
      const bool loopback = outcome.verbs && !outcome.verbs->loopback.empty();
      out += terminal_safe(" " + outcome.test +
                           (loopback ? " loopback " + outcome.verbs->loopback : "") +
                           " stopped: " + outcome.error) +
             "\n";
    }
  }
  out += events_vs_polling(report);
  out +=
      "---------------------------------------------------------------------------------------\n";
  return out + render_results_table(report.results, colour, width);
}

}  // namespace ibkit
