#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "slurm/hostlist.hpp"

using ibkit::expand_hostlist;

namespace {

std::vector<std::string> names_of(const std::string& list, std::size_t max = 4096) {
  auto names = expand_hostlist(list, max);
  INFO(list << ": " << (names.ok() ? "" : names.error().message));
  REQUIRE(names.ok());
  return *names;
}

std::string error_of(const std::string& list, std::size_t max = 4096) {
  auto names = expand_hostlist(list, max);
  REQUIRE_FALSE(names.ok());
  return names.error().message;
}

using Names = std::vector<std::string>;

}  // namespace

// Every list here was given to Slurm 22.05's `scontrol show hostnames` (the lab's, Debian 12)
// and expands to what it printed.
TEST_CASE("host lists expand as Slurm's scontrol show hostnames does", "[slurm]") {
  CHECK(names_of("lab1") == Names{"lab1"});
  CHECK(names_of("lab[1-3]") == Names{"lab1", "lab2", "lab3"});
  CHECK(names_of("viper,columbia,prometheus") == Names{"viper", "columbia", "prometheus"});
  // A leading zero keeps the low end's width; without one numbers are not padded.
  CHECK(names_of("n[08-10]") == Names{"n08", "n09", "n10"});
  CHECK(names_of("n[8-10]") == Names{"n8", "n9", "n10"});
  CHECK(names_of("gpu-[001-002,010]") == Names{"gpu-001", "gpu-002", "gpu-010"});
  // Commas inside brackets belong to the range, outside they separate names.
  CHECK(names_of("hb[1,3-4],nd7,login") == Names{"hb1", "hb3", "hb4", "nd7", "login"});
  CHECK(names_of("n[01-100]").back() == "n100");
  // Several brackets multiply, the rightmost changing fastest; empty names are skipped.
  CHECK(names_of("r[1-2]n[1-2]") == Names{"r1n1", "r1n2", "r2n1", "r2n2"});
  CHECK(names_of("cn[5-6]x[1-2]") == Names{"cn5x1", "cn5x2", "cn6x1", "cn6x2"});
  CHECK(names_of("x[1-2],,y,") == Names{"x1", "x2", "y"});
}

TEST_CASE("a malformed host list is one line naming the problem and the name", "[slurm]") {
  CHECK(error_of("") == "host list is empty");
  CHECK(error_of(",,") == "host list \",,\" names no node");
  // Slurm 22.05's scontrol refuses these too ("Invalid hostlist").
  CHECK(
      error_of("cn[5]-ib") ==
      "host list name \"cn[5]-ib\": \"-ib\" after its last ']' (Slurm ends a name with its range)");
  CHECK(error_of("n[1-3") == "host list name \"n[1-3\": '[' not closed");
  CHECK(error_of("n1-3]") == "host list name \"n1-3]\": ']' without '['");
  CHECK(error_of("n[3-1]") == "host list name \"n[3-1]\": range 3-1 runs backwards");
  CHECK(error_of("n[a-b]") ==
        "host list name \"n[a-b]\": \"a-b\" in brackets is not N or LO-HI (digits)");
  CHECK(error_of("n[]") == "host list name \"n[]\": '[]' holds no number");
  CHECK(error_of("n[1,]") ==
        "host list name \"n[1,]\": \"\" in brackets is not N or LO-HI (digits)");
  CHECK(error_of("n[[1]]") == "host list name \"n[[1]]\": '[' inside brackets");
}

TEST_CASE("a host list past the limit fails without expanding it", "[slurm]") {
  CHECK(names_of("n[1-4]", 4).size() == 4);
  CHECK(error_of("n[1-5]", 4) == "host list name \"n[1-5]\": more than 4 names");
  CHECK(error_of("n[1-3],m[1-2]", 4) == "host list has more than 4 names");
  CHECK(error_of("a[1-3]b[1-3]", 4) == "host list has more than 4 names");
  // Ten billion names are refused at once, not listed.
  CHECK(error_of("n[0-9999999999]") == "host list name \"n[0-9999999999]\": more than 4096 names");
}
