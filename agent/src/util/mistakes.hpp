#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// The mistakes found in one input (a hosts file, a configuration), so that a run names them all,
// not one per run: add each as "WHERE: what is wrong; the fix", in the order a reader meets them.
class Mistakes {
 public:
  void add(const std::string& mistake);
  bool any() const { return count_ > 0; }

  // The first kNamed in full, then how many more, on one line: "a; b; c; d; e; and 2 more".
  Error error() const;

  static constexpr std::size_t kNamed = 5;

 private:
  std::vector<std::string> named_;
  std::size_t count_ = 0;
};

}  // namespace ibkit
