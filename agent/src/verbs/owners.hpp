#pragma once

#include <memory>

#include <infiniband/verbs.h>

namespace ibkit {

// RAII owners for verbs objects: each destroy call is made once, by the owner, in reverse
// order of creation when the owners are members declared in creation order.
template <class T, auto Destroy>
struct VerbsDeleter {
  void operator()(T* object) const {
    if (object != nullptr) Destroy(object);
  }
};

using DeviceListPtr = std::unique_ptr<ibv_device*, VerbsDeleter<ibv_device*, ibv_free_device_list>>;
using ContextPtr = std::unique_ptr<ibv_context, VerbsDeleter<ibv_context, ibv_close_device>>;
using ProtectionDomainPtr = std::unique_ptr<ibv_pd, VerbsDeleter<ibv_pd, ibv_dealloc_pd>>;
using MemoryRegionPtr = std::unique_ptr<ibv_mr, VerbsDeleter<ibv_mr, ibv_dereg_mr>>;
using CompletionChannelPtr =
    std::unique_ptr<ibv_comp_channel, VerbsDeleter<ibv_comp_channel, ibv_destroy_comp_channel>>;
using CompletionQueuePtr = std::unique_ptr<ibv_cq, VerbsDeleter<ibv_cq, ibv_destroy_cq>>;
using QueuePairPtr = std::unique_ptr<ibv_qp, VerbsDeleter<ibv_qp, ibv_destroy_qp>>;

// Page-aligned, zeroed memory for registration.
struct FreeDeleter {
  void operator()(void* memory) const;
};
using AlignedBuffer = std::unique_ptr<std::byte[], FreeDeleter>;
AlignedBuffer allocate_aligned(std::size_t bytes);

}  // namespace ibkit
