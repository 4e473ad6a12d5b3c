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
  return std::string(buffer) + "\n";
}

std::string verbs_table(const VerbsMeasurement& measurement) {
  if (measurement.sizes.empty()) return "";
  std::string out =
      row(" %s %s, %d QP%s%s%s", measurement.test == "lat" ? "latency" : "bandwidth",
          measurement.op.c_str(), measurement.qps, measurement.qps == 1 ? "" : "s",
          measurement.bidir ? ", bidirectional" : "", measurement.rdma_cm ? ", rdma_cm" : "");
  out += row(" local %s, peer %s", measurement.local_device.c_str(),
             measurement.remote_device.empty() ? "?" : measurement.remote_device.c_str());
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
    }
  }
  return out;
}

std::string tcp_line(const TcpResult& tcp) {
  return row(" tcp, %d stream%s%s: %.3f Gb/s (%.2f MiB/s), %llu bytes in %.2f s", tcp.streams,
             tcp.streams == 1 ? "" : "s", tcp.bidir ? ", bidirectional" : "", tcp.gbps,
             tcp.mib_per_s, static_cast<unsigned long long>(tcp.bytes), tcp.seconds);
}

}  // namespace

std::string render_pair_text(const PairReport& report, bool colour) {
  std::string out = "ibkit pair " + report.host + " -> " + report.peer +
                    " (config: " + report.config_source + ")\n";
  for (const auto& outcome : report.outcomes) {
    out +=
        "---------------------------------------------------------------------------------------\n";
    if (outcome.verbs) out += verbs_table(*outcome.verbs);
    if (outcome.tcp) out += tcp_line(*outcome.tcp);
    if (!outcome.error.empty()) out += " " + outcome.test + " stopped: " + outcome.error + "\n";
  }
  out +=
      "---------------------------------------------------------------------------------------\n";
  return out + render_results_table(report.results, colour);
}

}  // namespace ibkit
