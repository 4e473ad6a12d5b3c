#include "cli/devices_command.hpp"

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_options.hpp"
#include "report/devices_report.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/host.hpp"
#include "util/exit_codes.hpp"
#include "util/text.hpp"
#include "verbs/port_mtus.hpp"

namespace ibkit {

int run_devices(const DevicesOptions& options, Console& console) {
  auto root = SysfsRoot::open(options.root);
  if (!root) {
    console.err << "ibkit devices: " << root.error().message << "\n";
    return kExitUsage;
  }
  auto hcas = scan_hcas(*root);
  if (!options.device.empty() && !hcas.empty()) {
    std::vector<std::string> names;
    for (const auto& hca : hcas) names.push_back(hca.name);
    std::erase_if(hcas, [&](const Hca& hca) { return hca.name != options.device; });
    if (hcas.empty()) {
      console.err << "ibkit devices: --device " << options.device << ": no such RDMA device here ("
                  << join(names, ", ") << ")\n";
      return kExitUsage;
    }
  }
  apply_active_mtus(hcas, read_active_mtus(*root));
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

Command add_devices_command(CLI::App& app) {
  auto options = std::make_shared<DevicesOptions>();
  auto* parser =
      app.add_subcommand("devices", "HCAs and ports: ibstat + ibv_devinfo + ibdev2netdev");
  add_root_option(*parser, options->root);
  parser->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  parser->add_option("-d,--device", options->device, "only this RDMA device (as ibstat DEVICE)")
      ->type_name("NAME");
  return {parser, [options](Console& console) { return run_devices(*options, console); }};
}

}  // namespace ibkit
