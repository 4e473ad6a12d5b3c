#include "checks/run_checks.hpp"

#include "checks/check_context.hpp"
#include "checks/cpu_governor_check.hpp"
#include "checks/error_rate_check.hpp"
#include "checks/ipoib_checks.hpp"
#include "checks/link_flap_check.hpp"
#include "checks/memlock_check.hpp"
#include "checks/module_checks.hpp"
#include "checks/mtu_check.hpp"
#include "checks/pcie_check.hpp"
#include "checks/port_checks.hpp"
#include "checks/transport_check.hpp"

namespace ibkit {

CheckRun run_checks(const SysfsRoot& root, const Config& config, const ActiveMtus& active_mtus,
                    const CounterBaseline* baseline) {
  CheckContext context = gather_context(root, config, active_mtus);
  CheckRun run;
  run.hostname = context.hostname;
  if (context.hcas.empty()) {
    run.no_rdma_device = true;
    run.results.push_back({"rdma.devices", context.hostname, Status::kFail,
                           "no RDMA device under /sys/class/infiniband", "at least one",
                           "load the HCA's driver (mlx5_ib, mlx4_ib, ib_mthca, ib_qib) or create a "
                           "Soft-RoCE device (rdma link add rxe0 type rxe netdev <nic>)"});
  } else {
    check_fabric(context, run.results);
    check_port_states(context, run.results);
    check_port_rates(context, run.results);
    check_port_mtus(context, run.results);
    check_port_lids(context, run.results);
    check_port_counters(context, run.results);
    check_transport_counters(context, run.results);
    if (baseline != nullptr) {
      check_link_flaps(context, *baseline, run.results);
      run.rate_history = baseline->rate_history;
      check_error_rates(context, *baseline, run.results, run.rate_history);
    }
    check_ipoib(context, run.results);
    check_pcie(context, run.results);
  }
  check_modules(context, run.results);
  check_gpu_direct(context, run.results);
  check_memlock(context, run.results);
  check_cpu_governor(context, run.results);
  run.hcas = std::move(context.hcas);
  return run;
}

}  // namespace ibkit
