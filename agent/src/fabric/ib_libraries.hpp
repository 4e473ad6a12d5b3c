#pragma once

#include <optional>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

namespace ibkit {

// The calls fabric discovery makes, from rdma-core's libraries as installed (libibnetdisc5,
// libibmad5), loaded when asked for: a node without them still runs every other command.
struct IbLibraries {
  decltype(&ibnd_discover_fabric) discover = nullptr;
  decltype(&ibnd_destroy_fabric) destroy = nullptr;
  decltype(&mad_get_field) field = nullptr;
  decltype(&mad_get_field64) field64 = nullptr;
  decltype(&mad_rpc_open_port) open_port = nullptr;
  decltype(&mad_rpc_close_port) close_port = nullptr;
  decltype(&mad_rpc_set_retries) set_retries = nullptr;
  decltype(&smp_query_via) smp_query = nullptr;
  decltype(&pma_query_via) pma_query = nullptr;
};

// The libraries, or nullopt with the reason (and the packages to install) on stderr: call it
// in discovery's child process, whose stderr the parent quotes.
std::optional<IbLibraries> load_ib_libraries();

}  // namespace ibkit
