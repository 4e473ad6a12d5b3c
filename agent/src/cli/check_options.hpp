#pragma once

#include <string>

namespace ibkit {

inline constexpr const char* kDefaultConfigPath = "/etc/ibkit/ibkit.toml";

// `ibkit check`'s options, as parsed.
struct CheckOptions {
  std::string root = "/";
  std::string config;               // "" = /etc/ibkit/ibkit.toml on the live system if present
  std::string format = "text";      // text | json | junit | prometheus
  std::string output;               // "" = stdout
  std::string metrics;              // "" = none; else Prometheus metrics written there as well
  std::string state;                // "" = none; else the port counters kept there between checks
  double state_wait_seconds = 30;   // how long a run waits for another using the same --state
  bool config_only = false;         // validate the configuration and stop
  bool spare_never_linked = false;  // ibkit health: see PortSelection::spare_never_linked
};

}  // namespace ibkit
