// The lines a launched sweep prints while its nodes' checks run: there were none until the
// rounds began, minutes at a thousand nodes.
#include <chrono>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "cli/phase_progress.hpp"

using namespace ibkit;

TEST_CASE("phase progress: done of total while the phase runs, and a last line when it ends",
          "[cli]") {
  std::ostringstream out;
  std::ostringstream err;
  Console console{out, err, false};
  {
    PhaseProgress progress(console, "ibkit check", 3, std::chrono::milliseconds(20));
    progress.done_one();
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    progress.done_one();
    progress.done_one();
  }
  const std::string lines = err.str();
  INFO(lines);
  CHECK_THAT(lines, Catch::Contains("ibkit sweep: ibkit check: 1 of 3 nodes done, 0 s\n"));
  CHECK_THAT(lines, Catch::EndsWith("ibkit sweep: ibkit check: 3 of 3 nodes done in 0 s\n"));
  CHECK(out.str().empty());
}

TEST_CASE("phase progress: a phase that ends at once says only how it ended", "[cli]") {
  std::ostringstream out;
  std::ostringstream err;
  Console console{out, err, false};
  {
    PhaseProgress progress(console, "ibkit check", 1);
    progress.done_one();
  }
  CHECK(err.str() == "ibkit sweep: ibkit check: 1 of 1 node done in 0 s\n");
}
