#pragma once

#include <string>
#include <vector>

#include "config/error_rate_limits.hpp"
#include "model/check_report.hpp"
#include "sysfs/hca.hpp"

namespace ibkit {

// A node's check as Prometheus text-format metrics, for node_exporter's textfile collector
// (docs/operations.md lists them): the verdict and the time of the check, one series per
// result labelled with its status, and each port's state, data rate and counters as
// read from `hcas`, with the error rate limits port.error_rate judges each port's counters by
// (`rate_limits` as [limits] sets them; empty: the defaults).
std::string render_check_prometheus(const CheckReport& report, const std::vector<Hca>& hcas,
                                    const ErrorRateLimits& rate_limits = {});

}  // namespace ibkit
