// Built into the agent only with IBKIT_PORTABLE (agent/CMakeLists.txt).
//
// Debian 12's static libstdc++ (GCC 12, built on glibc 2.36) calls arc4random in
// std::random_device, and its copy-on-write string instantiations pull that in even when
// nothing uses random_device (the agent does not). glibc has arc4random only from 2.36, so
// linking libstdc++ in would make the agent need GLIBC_2.36, more than Ubuntu 22.04 (2.35)
// and AlmaLinux 9 (2.34) have. Defining it here resolves the reference inside the binary;
// tests/portability/check_portability.py shows what the binary then asks of each image.
#include <cstdint>
#include <ctime>
#include <sys/random.h>

extern "C" std::uint32_t arc4random() noexcept {
  std::uint32_t value = 0;
  if (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    value = static_cast<std::uint32_t>(now.tv_nsec) ^ static_cast<std::uint32_t>(now.tv_sec);
  }
  return value;
}
