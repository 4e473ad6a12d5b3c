#include "fabric/ib_libraries.hpp"

#include <cstdio>
#include <dlfcn.h>

namespace ibkit {
namespace {

template <typename Function>
bool bind(void* library, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  return function != nullptr;
}

}  // namespace

std::optional<IbLibraries> load_ib_libraries() {
  void* netdisc = dlopen("libibnetdisc.so.5", RTLD_NOW | RTLD_LOCAL);
  void* mad = dlopen("libibmad.so.5", RTLD_NOW | RTLD_LOCAL);
  if (netdisc == nullptr || mad == nullptr) {
    std::fprintf(stderr,
                 "cannot load libibnetdisc.so.5 and libibmad.so.5 (%s): install infiniband-diags "
                 "(Debian: libibnetdisc5 libibmad5; RHEL: infiniband-diags)\n",
                 dlerror());
    return std::nullopt;
  }
  IbLibraries libraries;
  if (!bind(netdisc, "ibnd_discover_fabric", libraries.discover) ||
      !bind(netdisc, "ibnd_destroy_fabric", libraries.destroy) ||
      !bind(mad, "mad_get_field", libraries.field) ||
      !bind(mad, "mad_get_field64", libraries.field64) ||
      !bind(mad, "mad_rpc_open_port", libraries.open_port) ||
      !bind(mad, "mad_rpc_close_port", libraries.close_port) ||
      !bind(mad, "mad_rpc_set_retries", libraries.set_retries) ||
      !bind(mad, "smp_query_via", libraries.smp_query) ||
      !bind(mad, "pma_query_via", libraries.pma_query)) {
    std::fprintf(stderr, "libibnetdisc or libibmad lacks a function ibkit needs: %s\n", dlerror());
    return std::nullopt;
  }
  return libraries;
}

}  // namespace ibkit
