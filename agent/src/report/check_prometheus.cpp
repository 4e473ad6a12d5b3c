#include "report/check_prometheus.hpp"

#include <map>
#include <tuple>

#include "checks/error_rate_check.hpp"
#include "config/transport_counters.hpp"
#include "util/text.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {
namespace {

// A label value in the text format: UTF-8, which it must be (a netdev's name may be any bytes;
// one bad label makes node_exporter drop every metric of the file) with bytes that are not UTF-8
// replaced, controls but line feeds as terminal_safe shows them (a .prom file is read with cat
// too), then backslash, double quote and line feed escaped.
std::string label_value(const std::string& value) {
  std::string out;
  for (char c : terminal_safe_lines(valid_utf8(value))) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// A transport counter's kind as a label value: "sequence_errors".
std::string metric_kind(TransportKind kind) {
  std::string name(transport_kind_name(kind));
  for (char& c : name) {
    if (c == ' ') c = '_';
  }
  return name;
}

class Metrics {
 public:
  void family(const char* name, const char* type, const char* help) {
    text_ += std::string("# HELP ") + name + " " + help + "\n";
    text_ += std::string("# TYPE ") + name + " " + type + "\n";
  }
  // `labels` is a list of name, value, name, value...
  void sample(const char* name, std::initializer_list<std::string> labels,
              const std::string& value) {
    text_ += name;
    if (labels.size() > 0) {
      text_ += "{";
      bool first = true;
      for (auto it = labels.begin(); it != labels.end(); it += 2) {
        if (!first) text_ += ",";
        text_ += *it + "=\"" + label_value(*(it + 1)) + "\"";
        first = false;
      }
      text_ += "}";
    }
    text_ += " " + value + "\n";
  }
  std::string text() const { return text_; }

 private:
  std::string text_;
};

void port_metrics(Metrics& metrics, const std::vector<Hca>& hcas) {
  metrics.family("ibkit_port_active", "gauge", "Whether the port is ACTIVE/LinkUp (1) or not (0).");
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      metrics.sample("ibkit_port_active",
                     {"device", hca.name, "port", std::to_string(port.number), "state", port.state,
                      "phys_state", port.phys_state},
                     port.is_active() ? "1" : "0");
    }
  }
  metrics.family("ibkit_port_data_rate_gbps", "gauge",
                 "The port's data rate after line encoding, Gb/s (4X HDR: 200).");
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      if (!port.rate) continue;
      metrics.sample("ibkit_port_data_rate_gbps",
                     {"device", hca.name, "port", std::to_string(port.number)},
                     format_number(port.rate->data_gbps));
    }
  }
  metrics.family(
      "ibkit_port_counter_total", "counter",
      "A port counter as read from sysfs, errors and traffic alike (the counter label names "
      "it): it only rises until the port's counters are reset.");
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      for (const auto& [counter, count] : port.counters) {
        metrics.sample(
            "ibkit_port_counter_total",
            {"device", hca.name, "port", std::to_string(port.number), "counter", counter},
            std::to_string(count));
      }
    }
  }
  metrics.family(
      "ibkit_port_transport_counter_total", "counter",
      "A transport counter of the port's driver (hw_counters/: retransmissions, sequence "
      "errors, timeouts, traffic; the counter label names it, the kind label says what it "
      "counts: retransmissions, sequence_errors, traffic..., \"other\" for one ibkit does not "
      "know): it rises until the driver reloads.");
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      for (const auto& [counter, count] : port.transport.values) {
        const TransportCounter* known = find_transport_counter(counter);
        metrics.sample("ibkit_port_transport_counter_total",
                       {"device", hca.name, "port", std::to_string(port.number), "counter", counter,
                        "kind", known != nullptr ? metric_kind(known->kind) : "other"},
                       std::to_string(count));
      }
    }
  }
}

// The limits port.error_rate judges each port's error counters by, beside the counters, so that
// alert rules and the check use one number: `per_hour` picks the per-hour or per-second ones.
void error_limit_metrics(Metrics& metrics, const std::vector<Hca>& hcas,
                         const ErrorRateLimits& rate_limits, bool per_hour) {
  const char* name =
      per_hour ? "ibkit_port_error_limit_per_hour" : "ibkit_port_error_limit_per_second";
  metrics.family(
      name, "gauge",
      per_hour
          ? "The most errors an hour ibkit check --state allows the counter between "
            "two checks (rise / max(interval, 1 h)); above it the port fails."
          : "The most errors a second (rise / max(interval, 1 min)) ibkit check --state allows "
            "the counter between two checks; above it the port is degraded.");
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      const auto data_gbps = infiniband_data_gbps(port);
      for (auto counter : kRateCounters) {
        if (port.counters.count(std::string(counter)) == 0) continue;
        const auto limit = error_rate_limit(rate_limits, counter, data_gbps);
        const auto& value = per_hour ? limit.per_hour : limit.per_second;
        if (!value) continue;
        metrics.sample(name,
                       {"device", hca.name, "port", std::to_string(port.number), "counter",
                        std::string(counter)},
                       format_number(*value, 6));
      }
    }
  }
}

}  // namespace

std::string render_check_prometheus(const CheckReport& report, const std::vector<Hca>& hcas,
                                    const ErrorRateLimits& rate_limits) {
  Metrics metrics;
  metrics.family("ibkit_check_passed", "gauge",
                 "Whether the node's ibkit check passed (1) or failed (0).");
  metrics.sample("ibkit_check_passed", {}, any_failed(report.results) ? "0" : "1");
  if (auto seconds = unix_seconds(report.generated_at)) {
    metrics.family("ibkit_check_timestamp_seconds", "gauge", "When the check ran, Unix time.");
    metrics.sample("ibkit_check_timestamp_seconds", {}, std::to_string(*seconds));
  }
  metrics.family("ibkit_check_result", "gauge",
                 "Results of a check on a subject with this status (pass, warn, fail, skip): 1, "
                 "or how many when a check says the same twice.");
  // Results alike in check, subject and status are one series, their number its value: a
  // series must not repeat.
  std::vector<std::tuple<std::string, std::string, Status>> order;
  std::map<std::tuple<std::string, std::string, Status>, int> counts;
  for (const auto& result : report.results) {
    auto key = std::make_tuple(result.id, result.subject, result.status);
    if (counts[key]++ == 0) order.push_back(key);
  }
  for (const auto& key : order) {
    const auto& [check, subject, status] = key;
    metrics.sample("ibkit_check_result",
                   {"check", check, "subject", subject, "status", std::string(status_name(status))},
                   std::to_string(counts[key]));
  }
  port_metrics(metrics, hcas);
  error_limit_metrics(metrics, hcas, rate_limits, true);
  error_limit_metrics(metrics, hcas, rate_limits, false);
  metrics.family("ibkit_agent_info", "gauge", "The agent that ran the check, 1.");
  metrics.sample("ibkit_agent_info", {"version", report.agent_version, "host", report.host}, "1");
  return metrics.text();
}

}  // namespace ibkit
