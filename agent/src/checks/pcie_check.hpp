#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// pcie.link: each HCA's PCIe link trained at its maximum speed and width; a shortfall fails
// when PCIe then carries less than the HCA's ports, and warns otherwise.
void check_pcie(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
