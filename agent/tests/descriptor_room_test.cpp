// This process's room for open files: the soft limit raised to the hard one, and the errors
// that mean no descriptor is left.
#include "util/process/descriptor_room.hpp"

#include <cerrno>
#include <sys/resource.h>

#include <catch2/catch.hpp>

#include "skip_test.hpp"

using namespace ibkit;

TEST_CASE("the soft open-files limit is raised to the hard one, and the room counts what is open",
          "[util]") {
  rlimit was{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &was) == 0);
  if (was.rlim_max != RLIM_INFINITY && was.rlim_max < 128) {
    test::skip_test("the hard open-files limit is below 128: nothing to raise the soft one to");
    return;
  }
  rlimit lowered = was;
  lowered.rlim_cur = 64;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  const DescriptorRoom room = raise_descriptor_limit();
  rlimit now{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &now) == 0);
  REQUIRE(setrlimit(RLIMIT_NOFILE, &was) == 0);
  CHECK(now.rlim_cur == now.rlim_max);
  CHECK(room.limit == now.rlim_cur);
  CHECK(room.hard_limit == room.limit);
  // stdin, stdout and stderr at least.
  CHECK(room.open >= 3);
  CHECK(room.free() == room.limit - room.open);
}

TEST_CASE("EMFILE and ENFILE mean no descriptor is left, other errors do not", "[util]") {
  CHECK(out_of_descriptors(EMFILE));
  CHECK(out_of_descriptors(ENFILE));
  CHECK_FALSE(out_of_descriptors(ENOENT));
  CHECK_FALSE(out_of_descriptors(0));
}
