#pragma once
// ssh and srun replaced by fake_launcher.sh for the launcher's tests (launch_test.cpp,
// launch_stop_test.cpp), and what those tests ask of this machine's processes and ports.

#include <cstdint>
#include <filesystem>
#include <string>

#include "launch/launch_settings.hpp"

namespace ibkit::test {

// fake_agent.sh: another node's ibkit, as the fake launchers run it.
extern const std::string kFakeAgent;

// ssh and srun on PATH are fake_launcher.sh for the life of the object; its calls are logged.
struct FakeLaunchers {
  std::filesystem::path dir;
  std::string log;
  std::string old_path;
  FakeLaunchers();
  ~FakeLaunchers();
  FakeLaunchers(const FakeLaunchers&) = delete;
  FakeLaunchers& operator=(const FakeLaunchers&) = delete;
  std::string calls() const;  // every call so far, a line each
};

// Launch settings for `method` with short bounds, running `agent` on the nodes.
LaunchSettings settings_for(LaunchMethod method, const std::string& agent = kFakeAgent);

// A loopback TCP port nothing listens on now.
std::uint16_t free_port();

// Whether a process of this machine has `needle` in its command line.
bool process_with(const std::string& needle);

}  // namespace ibkit::test
