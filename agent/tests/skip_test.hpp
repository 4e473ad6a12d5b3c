#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <catch2/catch.hpp>

// A test case that cannot run here says so as a skip, not a pass (Catch2 2 has no skip of its
// own, and a case that returns early passes). Under ctest, which sets IBKIT_SKIP_RETURN_CODE
// to the tests' SKIP_RETURN_CODE (agent/tests/CMakeLists.txt), the process runs this one case:
// skip_test prints the reason and exits with that code, and ctest reports the case skipped.
// Run by hand, with other cases in the same process, it only warns; the caller then returns.
namespace ibkit::test {

inline void skip_test(const std::string& reason) {
  if (const char* code = std::getenv("IBKIT_SKIP_RETURN_CODE")) {
    std::cout << "SKIPPED: " << reason << std::endl;
    std::fflush(nullptr);
    std::_Exit(std::atoi(code));
  }
  WARN("SKIPPED: " << reason);
}

// Whether this machine has an RDMA device (the lab's VMs do; the build host does not).
inline bool machine_has_rdma_devices() {
  std::error_code ec;
  std::filesystem::directory_iterator devices("/sys/class/infiniband", ec);
  return !ec && devices != std::filesystem::directory_iterator();
}

}  // namespace ibkit::test
