// The key file goes through the one bounded reader (util/bounded_file): never a hang.
#include <catch2/catch.hpp>

#include "control/auth.hpp"
#include "guarded_fifo.hpp"

TEST_CASE("a key file that is a FIFO is refused at once, not waited on", "[control]") {
  ibkit::test::GuardedFifo fifo("key-fifo");
  auto key = ibkit::load_key_file(fifo.path());
  REQUIRE_FALSE(key.ok());
  CHECK(key.error().message ==
        "key file " + fifo.path() + " is a FIFO, not a regular file; give a file");
}
