#include "verbs/owners.hpp"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ibkit {

void FreeDeleter::operator()(void* memory) const { std::free(memory); }

AlignedBuffer allocate_aligned(std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t rounded = (bytes + page - 1) / page * page;
  void* memory = std::aligned_alloc(page, rounded == 0 ? page : rounded);
  if (memory != nullptr) std::memset(memory, 0, rounded == 0 ? page : rounded);
  return AlignedBuffer(static_cast<std::byte*>(memory));
}

}  // namespace ibkit
