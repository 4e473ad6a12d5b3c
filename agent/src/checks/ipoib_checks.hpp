#pragma once

#include <string>

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// ipoib.interface, ipoib.address, ipoib.mode, ipoib.mtu for each Active InfiniBand fabric
// port: the IPoIB interface exists, is up, has an address, and runs the mode and MTU the HCA
// generation wants ("auto": connected/65520 before ConnectX-4, enhanced datagram/4092 after).
void check_ipoib(const CheckContext& context, CheckResults& results);

// The IPoIB mode an HCA wants: "datagram" for enhanced IPoIB (mlx5, ConnectX-4 and later),
// "connected" for mthca, mlx4 and qib, "" for any other driver (then the mode check is skipped).
std::string preferred_ipoib_mode(const Hca& hca);

}  // namespace ibkit
