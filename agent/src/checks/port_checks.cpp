#include "checks/port_checks.hpp"

#include <algorithm>

#include "model/error_counters.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string port_state_text(const Port& port) {
  return (port.state.empty() ? "?" : port.state) + "/" +
         (port.phys_state.empty() ? "?" : port.phys_state);
}

// On Azure the fabric's own subnet manager activates the ports and the VM's HCA is a virtual
// function of the host's: neither cables nor opensm are the user's. What is: give the fabric a
// minute after boot, then move the VM to a healthy host.
constexpr const char* kAzureRedeploy =
    "on Azure the host and the fabric own this port (never run opensm in a VM: the fabric has its "
    "own subnet manager): give it a minute after boot, then deallocate and start the VM, or "
    "redeploy it to another host (az vm redeploy, or az vmss redeploy --instance-ids N for a "
    "scale-set instance); report it to Azure support if it comes back";

bool on_azure(const CheckContext& context) {
  return context.config.expect.platform == Platform::kAzure;
}

// Why a port is not Active/LinkUp on Azure, and what to do there.
std::string azure_port_state_hint(const Hca& hca, const Port& port) {
  const std::string where = hca.name + " port " + std::to_string(port.number);
  if (port.state == "INIT" || port.state == "ARMED" ||
      (port.state == "DOWN" && port.phys_state == "LinkUp")) {
    std::string sm =
        port.sm_lid.value_or(0) == 0 ? " (SM LID 0: the fabric's SM has not swept it yet)" : "";
    return where + " has a link but the Azure fabric's subnet manager has not activated it" + sm +
           "; " + kAzureRedeploy;
  }
  return "no working link on " + where + " (" + port.phys_state + "): " + kAzureRedeploy;
}

// Why a port is not Active/LinkUp, and what to do, from its two state machines.
std::string port_state_hint(const CheckContext& context, const Hca& hca, const Port& port) {
  const std::string where = hca.name + " port " + std::to_string(port.number);
  if (!port.unreadable.empty() && (port.state.empty() || port.phys_state.empty())) {
    return "cannot read the port's state files under sys/class/infiniband/" + hca.name + "/ports/" +
           std::to_string(port.number) + "; check the driver (dmesg)";
  }
  if (on_azure(context) && !port.is_ethernet()) return azure_port_state_hint(hca, port);
  if (port.is_ethernet()) {
    std::string netdev = port.netdevs.empty() ? "its netdev" : port.netdevs.front();
    if (port.netdev_admin_up.value_or(false)) {
      return "RoCE port without link: " + netdev +
             " is up but has no carrier; check the cable, the switch port and the peer";
    }
    return "RoCE port without link: bring up " + netdev + " (ip link set " + netdev +
           " up) and check the cable and switch port";
  }
  if (port.phys_state == "Polling" || port.phys_state == "Sleep") {
    return "no physical link on " + where +
           ": no cable, a bad cable, or the other end is down (tools then report UMAD port "
           "errors); "
           "check the cable and the switch or peer port";
  }
  if (port.phys_state == "Disabled") {
    return where + " is disabled: enable it on both ends (ibportstate -C " + hca.name + " -P " +
           std::to_string(port.number) + " -D 0 " + std::to_string(port.number) + " enable)";
  }
  if (port.phys_state == "PortConfigurationTraining" || port.phys_state == "LinkErrorRecovery") {
    return "the link keeps training or recovering: a marginal cable or transceiver, or mismatched "
           "speeds; replace the cable and watch symbol_error and link_error_recovery";
  }
  if (port.state == "INIT" || port.state == "DOWN") {
    std::string sm =
        port.sm_lid.value_or(0) == 0 ? " (SM LID 0: no subnet manager has swept it)" : "";
    return "link is up but no subnet manager activated the port" + sm +
           ": run opensm on exactly one node of the fabric (systemctl enable --now opensm); if it "
           "runs, check its log; rebooting both ends clears a port stuck in Initializing";
  }
  if (port.state == "ARMED") {
    return "the subnet manager armed the port but never activated it: check the SM's log for "
           "errors and restart it (systemctl restart opensm)";
  }
  return "check the port with ibstat and the kernel log (dmesg)";
}

// One port's counters against their limits. A counter the limits judge that gave no count
// fails, like one over its limit; any other counter that gave none is a warning; a device
// without a performance management agent ("N/A (no PMA)") is a warning that says so.
CheckResult judge_counters(const Port& port, const CounterLimits& limits,
                           const std::string& subject, const std::string& dir) {
  std::vector<std::string> nonzero;
  std::vector<std::string> over;
  std::vector<std::string> unreadable_judged;
  std::vector<std::string> unreadable_other;
  bool no_pma = false;
  for (const auto& [name, problem] : port.counter_problems) {
    if (problem == "N/A (no PMA)") {
      no_pma = true;
    } else {
      (limits.count(name) != 0 ? unreadable_judged : unreadable_other)
          .push_back(name + ": " + problem);
    }
  }
  std::vector<std::string> over_names;
  for (const auto& [name, limit] : limits) {
    auto found = port.counters.find(name);
    if (found == port.counters.end() || found->second == 0) continue;
    const std::string value = std::to_string(found->second);
    nonzero.push_back(name + "=" + value);
    // sysfs reads the error counters of PortCounters, in its widths.
    if (auto failed = counter_over_limit(name, found->second, limit, false, value)) {
      over.push_back(std::move(*failed));
      over_names.push_back(name);
    }
  }
  CheckResult result{"port.counters",   subject,
                     Status::kPass,     nonzero.empty() ? "no errors" : join(nonzero, ", "),
                     "within [limits]", ""};
  std::vector<std::string> observed;
  std::vector<std::string> hints;
  if (!over.empty()) {
    result.status = Status::kFail;
    observed.insert(observed.end(), over.begin(), over.end());
    hints.push_back(counter_advice(over_names, "the far end") +
                    "; then reset the counters (perfquery -x -R) and watch them");
  }
  if (!unreadable_judged.empty()) {
    result.status = Status::kFail;
    observed.insert(observed.end(), unreadable_judged.begin(), unreadable_judged.end());
    hints.push_back("an error counter that cannot be read cannot pass: the files in " + dir +
                    " must hold counts; check the driver and the kernel log (dmesg)");
  }
  if (!unreadable_other.empty()) {
    if (result.status == Status::kPass) result.status = Status::kWarn;
    observed.insert(observed.end(), unreadable_other.begin(), unreadable_other.end());
    hints.push_back(
        "counters without a limit that cannot be read are not judged, but say the "
        "driver or " +
        dir + " is not well: check the kernel log (dmesg)");
  }
  if (no_pma) {
    if (result.status == Status::kPass) result.status = Status::kWarn;
    observed.push_back("N/A (no PMA)");
    hints.push_back(
        "the driver has no performance management agent: the kernel reads the "
        "counters as \"N/A (no PMA)\", so this port's errors cannot be judged here "
        "(read them from the switch side with perfquery)");
  }
  if (port.counters.empty() && port.counter_problems.empty()) {
    result.status = Status::kWarn;
    observed.push_back(dir + "/ is empty");
    hints.push_back(
        "the device has a counters directory with nothing in it: its errors cannot be "
        "judged; check the driver");
  }
  if (!observed.empty()) {
    result.observed = join(observed, ", ");
    result.hint = join(hints, "; ");
  }
  return result;
}

std::string data_rate_text(const LinkRate& rate) {
  return rate.text + " = " + format_number(rate.data_gbps) + " Gb/s data";
}

// DOWN, Polling or Disabled, with link_downed 0: no link since the driver loaded.
bool never_linked(const Port& port) {
  const bool down =
      port.state == "DOWN" && (port.phys_state == "Polling" || port.phys_state == "Disabled");
  const auto downed = port.counters.find("link_downed");
  return down && downed != port.counters.end() && downed->second == 0;
}

}  // namespace

void check_fabric(const CheckContext& context, CheckResults& results) {
  const Expectations& expect = context.config.expect;
  int active = 0;
  int total = 0;
  for (const auto& fabric : fabric_ports(context)) {
    ++total;
    if (fabric.port->is_active()) ++active;
  }
  const int wanted = expect.port_count.value_or(1);
  const std::string layer = expect.link_layer ? " " + *expect.link_layer : "";

  CheckResult result{
      "fabric.ports",
      context.hostname,
      Status::kPass,
      std::to_string(active) + " Active of " + std::to_string(total) + layer + " port(s)",
      "at least " + std::to_string(wanted) + " Active",
      ""};
  if (active < wanted) {
    result.status = Status::kFail;
    if (total == 0 && expect.link_layer && on_azure(context)) {
      result.hint = "no " + *expect.link_layer +
                    " port: the VM size has none (only the H and N sizes with an 'r' do, inside "
                    "one scale set), the image lacks the driver (use an Azure HPC image), or the "
                    "virtual function was not attached (lspci shows no Mellanox VF); " +
                    kAzureRedeploy;
    } else if (total == 0 && expect.link_layer) {
      result.hint = "no port runs " + *expect.link_layer +
                    ": a VPI HCA may be set to the other link layer (mlxconfig set "
                    "LINK_TYPE_P1=1 for InfiniBand, 2 for Ethernet, then reboot), or the driver "
                    "is missing";
    } else {
      result.hint = "fewer Active ports than expected: see the port.state results below";
    }
  }
  results.push_back(std::move(result));

  if (!expect.link_layer) return;
  for (const auto& hca : context.hcas) {
    for (const auto& port : hca.ports) {
      bool on_fabric = port.link_layer == *expect.link_layer;
      results.push_back({"port.link_layer", hca.subject(port.number),
                         on_fabric ? Status::kPass : Status::kSkip, port.link_layer,
                         *expect.link_layer,
                         on_fabric ? "" : "not a fabric port (another link layer): not checked"});
    }
  }
}

void check_port_states(const CheckContext& context, CheckResults& results) {
  const auto ports = fabric_ports(context);
  for (const auto& fabric : ports) {
    const Port& port = *fabric.port;
    CheckResult result{"port.state",    fabric.hca->subject(port.number),
                       Status::kPass,   port_state_text(port),
                       "ACTIVE/LinkUp", ""};
    if (!port.is_active()) {
      result.status = fabric.required ? Status::kFail : Status::kSkip;
      result.hint = fabric.required ? port_state_hint(context, *fabric.hca, port)
                                    : "not required by [expect].ports";
      const auto& selection = context.config.expect.ports;
      if (fabric.required && selection.spare_never_linked && !selection.given &&
          never_linked(port)) {
        result.status = Status::kWarn;
        result.hint =
            "this port has had no link since boot (link_downed 0): an uncabled port, not a "
            "reason to drain the node; set [expect] ports = \"all\" (or list the ports in use) "
            "to require it";
      }
    }
    results.push_back(std::move(result));
  }
  const auto& listed = context.config.expect.ports.listed;
  for (const auto& subject : listed) {
    const bool found = std::any_of(ports.begin(), ports.end(), [&](const FabricPort& candidate) {
      return candidate.hca->subject(candidate.port->number) == subject;
    });
    if (!found) {
      results.push_back({"port.state", subject, Status::kFail, "no such fabric port",
                         "ACTIVE/LinkUp",
                         "[expect].ports names a port this node does not have; device names can "
                         "differ between nodes (mlx5_0 vs mlx5_ib0): prefer ports = \"all\""});
    }
  }
}

void check_port_rates(const CheckContext& context, CheckResults& results) {
  const auto& min_rate = context.config.expect.min_rate_gbps;
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    if (!port.is_active()) continue;
    const std::string subject = fabric.hca->subject(port.number);
    if (!port.rate) {
      results.push_back(
          {"port.rate", subject, Status::kFail,
           port.rate_text.empty() ? "unreadable" : port.rate_text,
           "a rate such as \"100 Gb/sec (4X EDR)\"",
           "cannot understand ports/" + std::to_string(port.number) + "/rate; check the driver"});
      continue;
    }
    if (!min_rate) {
      results.push_back({"port.rate", subject, Status::kSkip, data_rate_text(*port.rate), "",
                         "no expectation: set [expect].min_rate_gbps"});
      continue;
    }
    CheckResult result{"port.rate",
                       subject,
                       Status::kPass,
                       data_rate_text(*port.rate),
                       ">= " + format_number(*min_rate) + " Gb/s data",
                       ""};
    if (port.rate->data_gbps + 1e-9 < *min_rate) {
      result.status = Status::kFail;
      if (on_azure(context) && !port.is_ethernet()) {
        result.hint = "the link trained below the VM size's rate; " + std::string(kAzureRedeploy);
      } else if (port.rate->width > 0 && port.rate->width < 4 && !port.is_ethernet()) {
        result.hint =
            "the link trained at " + std::to_string(port.rate->width) +
            "X: a lane is bad or the cable is not seated; reseat or replace the cable and "
            "check the switch port";
      } else {
        result.hint =
            "the link trained at a lower speed than expected: check the cable's rating, "
            "the switch port's speed and the HCA's firmware";
      }
    }
    results.push_back(std::move(result));
  }
}

void check_port_lids(const CheckContext& context, CheckResults& results) {
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    if (port.is_ethernet() || !fabric.required || port.phys_state != "LinkUp") continue;
    const std::uint64_t lid = port.lid.value_or(0);
    const std::uint64_t sm_lid = port.sm_lid.value_or(0);
    CheckResult result{"port.lid",
                       fabric.hca->subject(port.number),
                       Status::kPass,
                       "LID " + std::to_string(lid) + ", SM LID " + std::to_string(sm_lid),
                       "LID and SM LID assigned (not 0)",
                       ""};
    if (lid == 0 || sm_lid == 0) {
      result.status = Status::kFail;
      result.hint = on_azure(context)
                        ? "the Azure fabric's subnet manager has not assigned this port's LID; " +
                              std::string(kAzureRedeploy)
                        : "no subnet manager has assigned this port's LID: run opensm on exactly "
                          "one node of the fabric (or check the fabric's SM: sminfo)";
    }
    results.push_back(std::move(result));
  }
}

void check_port_counters(const CheckContext& context, CheckResults& results) {
  const CounterLimits& limits = context.config.counter_limits;
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    const std::string subject = fabric.hca->subject(port.number);
    const std::string dir = "ports/" + std::to_string(port.number) + "/counters";
    if (!port.has_counters_dir) {
      results.push_back({"port.counters", subject, Status::kSkip, "no counters", "",
                         "the device exposes no port counters (soft RoCE, some VFs)"});
      continue;
    }
    if (!port.counters_dir_problem.empty()) {
      results.push_back({"port.counters", subject, Status::kFail,
                         dir + "/: " + port.counters_dir_problem, "a directory of counters",
                         "the port's error counters cannot be read, so they cannot pass: check the "
                         "driver (dmesg) and sys/class/infiniband/" +
                             fabric.hca->name + "/" + dir});
      continue;
    }
    results.push_back(judge_counters(port, limits, subject, dir));
  }
}

}  // namespace ibkit
