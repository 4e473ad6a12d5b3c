#pragma once

#include <map>
#include <string>

#include "config/config.hpp"
#include "model/check_result.hpp"
#include "schema/counter_baseline.hpp"
#include "sysfs/active_mtu.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {

struct CheckRun {
  std::string hostname;
  CheckResults results;
  bool no_rdma_device = false;  // nothing under sys/class/infiniband: an environment error
  std::vector<Hca> hcas;        // the devices as the checks read them (for the port metrics)
  // The ports' rate histories for the state file: the baseline's with this check's verdicts.
  std::map<std::string, std::string> rate_history = {};
};

// Runs every readiness check of the node under `root` against `config`, with the ports'
// active MTUs from `active_mtus` (verbs/port_mtus.hpp reads them). Never throws; a file that
// cannot be read, or an MTU nobody could say, becomes a failed or skipped result that says
// which. With a `baseline` (ibkit check --state) the ports' link flaps and error
// rates since it are judged too.
CheckRun run_checks(const SysfsRoot& root, const Config& config, const ActiveMtus& active_mtus = {},
                    const CounterBaseline* baseline = nullptr);

}  // namespace ibkit
