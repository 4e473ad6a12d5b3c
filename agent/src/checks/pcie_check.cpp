#include "checks/pcie_check.hpp"

#include <algorithm>

#include "sysfs/link_rate.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string link_text(const std::string& speed, int width) {
  return (speed.empty() ? "?" : speed) + " x" + std::to_string(width);
}

bool same_speed(const std::string& a, const std::string& b) {
  auto first = [](const std::string& text) {
    auto fields = split_whitespace(text);
    return fields.empty() ? std::optional<double>{} : parse_double(fields[0]);
  };
  auto x = first(a);
  auto y = first(b);
  return x && y && *x == *y;
}

}  // namespace

void check_pcie(const CheckContext& context, CheckResults& results) {
  if (!context.config.expect.pcie) return;
  for (const auto& hca : context.hcas) {
    if (!hca.pci) continue;
    const PciFunction& pci = *hca.pci;
    const std::string subject = hca.name + " (" + pci.address + ")";
    auto current = pcie_data_gbps(pci.current_link_speed, pci.current_link_width);
    auto max = pcie_data_gbps(pci.max_link_speed, pci.max_link_width);
    if (!current || !max) {
      results.push_back({"pcie.link", subject, Status::kSkip,
                         link_text(pci.current_link_speed, pci.current_link_width), "",
                         "the PCIe link is not visible here (a virtual function or a hypervisor "
                         "hides it)"});
      continue;
    }
    CheckResult result{"pcie.link",
                       subject,
                       Status::kPass,
                       link_text(pci.current_link_speed, pci.current_link_width),
                       link_text(pci.max_link_speed, pci.max_link_width),
                       ""};
    if (!same_speed(pci.current_link_speed, pci.max_link_speed) ||
        pci.current_link_width < pci.max_link_width) {
      double ports_gbps = 0;
      for (const auto& port : hca.ports) {
        if (port.is_active() && port.rate) ports_gbps += port.rate->data_gbps;
      }
      bool bottleneck = *current < ports_gbps;
      result.status = bottleneck ? Status::kFail : Status::kWarn;
      result.observed += " = " + format_number(*current, 1) + " Gb/s";
      result.hint = std::string(bottleneck ? "PCIe now carries less than the ports (" +
                                                 format_number(ports_gbps, 1) + " Gb/s): "
                                           : "trained below its maximum: ") +
                    "reseat the HCA or move it to a slot wired for x" +
                    std::to_string(pci.max_link_width) +
                    ", and check the BIOS PCIe generation setting";
    }
    results.push_back(std::move(result));
  }
}

}  // namespace ibkit
