// Which pair a pair report may be filed under in a sweep report read back: its host and peer
// name that pair's ends, or no node at all.
#include "model/pair_report_ends.hpp"

#include <catch2/catch.hpp>

namespace ibkit {
namespace {

PairReport report_of(const std::string& host, const std::string& peer) {
  PairReport report;
  report.host = host;
  report.peer = peer;
  return report;
}

SweepPair pair_of(const std::string& a, const std::string& b) {
  SweepPair pair;
  pair.a = a;
  pair.b = b;
  return pair;
}

}  // namespace

TEST_CASE("a pair report naming other nodes of the sweep is misfiled", "[model]") {
  const SweepNodeNames names({"lab1", "lab2", "lab3", "lab4"});
  const SweepPair pair = pair_of("lab2", "lab4");
  CHECK(names.misfiled(pair, report_of("lab2", "lab4")).empty());
  CHECK(names.misfiled(pair, report_of("lab1", "lab3")) ==
        "it is the report of lab1 -> lab3, not of lab2 -> lab4 rail 0");
  CHECK_FALSE(names.misfiled(pair, report_of("lab2", "lab3")).empty());  // one end wrong
  CHECK_FALSE(names.misfiled(pair, report_of("lab4", "lab2")).empty());  // the other way round
  // One line whatever the names hold.
  const SweepNodeNames hostile({"lab1", "lab\n2"});
  CHECK(hostile.misfiled(pair_of("lab1", "lab\n2"), report_of("lab\n2", "lab1")) ==
        "it is the report of lab\\n2 -> lab1, not of lab1 -> lab\\n2 rail 0");
}

TEST_CASE("a pair report naming its ends as the sweep reached them is filed right", "[model]") {
  // A hosts file of addresses with ports: a reports its own host name, which no node goes by,
  // and b by the address it was reached at.
  const SweepNodeNames names({"10.0.0.1:18515", "10.0.0.2:18515", "10.0.0.3:18515"});
  const SweepPair pair = pair_of("10.0.0.1:18515", "10.0.0.2:18515");
  CHECK(names.misfiled(pair, report_of("node1.cluster", "10.0.0.2")).empty());
  CHECK(names.misfiled(pair, report_of("10.0.0.1:18515", "10.0.0.2:18515")).empty());
  CHECK_FALSE(names.misfiled(pair, report_of("node1.cluster", "10.0.0.3")).empty());
  // Two agents on one machine share an address: it names either.
  const SweepNodeNames shared({"127.0.0.1:18515", "127.0.0.1:18516"});
  CHECK(
      shared.misfiled(pair_of("127.0.0.1:18515", "127.0.0.1:18516"), report_of("box", "127.0.0.1"))
          .empty());
}

}  // namespace ibkit
