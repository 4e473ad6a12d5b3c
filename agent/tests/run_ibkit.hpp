#pragma once

#include <string>

namespace ibkit::test {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the built ibkit binary with `arguments` (shell words, already quoted) and a 30 s
// deadline; captures its exit code, stdout and stderr.
Outcome run_ibkit(const std::string& arguments);

}  // namespace ibkit::test
