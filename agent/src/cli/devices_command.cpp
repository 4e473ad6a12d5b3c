#include <ostream>

#include "cli/commands.hpp"
#include "report/devices_report.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/host.hpp"
#include "util/exit_codes.hpp"

namespace ibkit {

int run_devices(const DevicesOptions& options, Console& console) {
  auto root = SysfsRoot::open(options.root);
  if (!root) {
    console.err << "ibkit devices: " << root.error().message << "\n";
    return kExitUsage;
  }
  const auto hcas = scan_hcas(*root);
  const std::string host = read_hostname(*root);
  console.out << (options.format == "json" ? render_devices_json(host, hcas)
                                           : render_devices_text(host, hcas));
  if (hcas.empty()) {
    console.err << "ibkit devices: no RDMA device under "
                << (root->path() / "sys/class/infiniband").string()
                << "; load the HCA driver or create a Soft-RoCE device\n";
    return kExitEnvironment;
  }
  return kExitPass;
}

}  // namespace ibkit
