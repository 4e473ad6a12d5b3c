#pragma once

namespace ibkit {

// The agent's exit codes. Each means one thing; CI and systemd units rely on them.
enum ExitCode : int {
  kExitPass = 0,         // every check or test passed (warnings allowed)
  kExitFail = 1,         // a check or test failed
  kExitUsage = 2,        // bad command line or configuration
  kExitEnvironment = 3,  // the environment cannot run the command (no RDMA device, no permission)
  kExitInternal = 4,     // a bug in ibkit
};

}  // namespace ibkit
