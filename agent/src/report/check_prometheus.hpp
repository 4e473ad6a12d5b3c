#pragma once

#include <string>
#include <vector>

#include "model/check_report.hpp"
#include "sysfs/hca.hpp"

namespace ibkit {

// A node's check as Prometheus text-format metrics, for node_exporter's textfile collector
// (docs/operations.md lists them): the verdict and the time of the check, one series per
// result labelled with its status, and each port's state, data rate and counters as
// read from `hcas`.
std::string render_check_prometheus(const CheckReport& report, const std::vector<Hca>& hcas);

}  // namespace ibkit
