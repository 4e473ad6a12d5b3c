#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "guarded_fifo.hpp"
#include "schedule/pattern.hpp"
#include "schedule/schedule.hpp"
#include "scratch_path.hpp"

namespace {

using ibkit::Schedule;

std::vector<ibkit::SweepHost> hosts_named(int n) {
  std::vector<ibkit::SweepHost> hosts;
  for (int i = 0; i < n; ++i) {
    hosts.push_back({"n" + std::to_string(i), "10.0.0." + std::to_string(i + 1), 18515});
  }
  return hosts;
}

// Every round disjoint and every index valid; returns the unordered pairs, failing on repeats.
std::set<std::pair<int, int>> checked_pairs(const Schedule& schedule, int n) {
  std::set<std::pair<int, int>> pairs;
  for (const auto& round : schedule) {
    std::set<int> busy;
    for (const auto& pair : round) {
      REQUIRE(pair.a != pair.b);
      REQUIRE(pair.a >= 0);
      REQUIRE(pair.a < n);
      REQUIRE(pair.b >= 0);
      REQUIRE(pair.b < n);
      REQUIRE(busy.insert(pair.a).second);
      REQUIRE(busy.insert(pair.b).second);
      REQUIRE(pairs.insert(std::minmax(pair.a, pair.b)).second);
    }
  }
  return pairs;
}

}  // namespace

TEST_CASE("all-pairs: every pair exactly once in n-1 rounds of n/2 (even n)", "[schedule]") {
  for (int n : {2, 4, 6, 16, 64, 256, 1024}) {
    INFO("n = " << n);
    const Schedule schedule = ibkit::all_pairs_schedule(n);
    REQUIRE(schedule.size() == static_cast<std::size_t>(n - 1));
    for (const auto& round : schedule) REQUIRE(round.size() == static_cast<std::size_t>(n / 2));
    REQUIRE(checked_pairs(schedule, n).size() == static_cast<std::size_t>(n * (n - 1) / 2));
  }
}

TEST_CASE("all-pairs: odd n takes n rounds, one node sitting out each", "[schedule]") {
  for (int n : {3, 5, 7, 17, 255, 1023}) {
    INFO("n = " << n);
    const Schedule schedule = ibkit::all_pairs_schedule(n);
    REQUIRE(schedule.size() == static_cast<std::size_t>(n));
    std::vector<int> byes(static_cast<std::size_t>(n), 0);
    for (const auto& round : schedule) {
      REQUIRE(round.size() == static_cast<std::size_t>((n - 1) / 2));
      std::vector<bool> playing(static_cast<std::size_t>(n), false);
      for (const auto& pair : round) playing[pair.a] = playing[pair.b] = true;
      for (int i = 0; i < n; ++i) byes[static_cast<std::size_t>(i)] += playing[i] ? 0 : 1;
    }
    for (int bye : byes) REQUIRE(bye == 1);
    REQUIRE(checked_pairs(schedule, n).size() == static_cast<std::size_t>(n * (n - 1) / 2));
  }
}

TEST_CASE("all-pairs: every node both drives and serves", "[schedule]") {
  const Schedule schedule = ibkit::all_pairs_schedule(16);
  std::vector<int> drives(16, 0);
  for (const auto& round : schedule) {
    for (const auto& pair : round) ++drives[static_cast<std::size_t>(pair.a)];
  }
  for (int count : drives) {
    CHECK(count >= 7);
    CHECK(count <= 8);
  }
}

TEST_CASE("ring: each node with its successor, in 2 rounds (even) or 3 (odd)", "[schedule]") {
  for (int n : {2, 3, 4, 9, 16, 1024}) {
    INFO("n = " << n);
    const Schedule schedule = ibkit::ring_schedule(n);
    auto pairs = checked_pairs(schedule, n);
    CHECK(schedule.size() == (n == 2 ? 1u : n % 2 == 0 ? 2u : 3u));
    REQUIRE(pairs.size() == static_cast<std::size_t>(n == 2 ? 1 : n));
    for (int i = 0; i < n; ++i) CHECK(pairs.count(std::minmax(i, (i + 1) % n)) == 1);
  }
}

TEST_CASE("random:K pairs each node with at least K others, the same for the same seed",
          "[schedule]") {
  for (int n : {2, 5, 16, 100}) {
    for (int k : {1, 3}) {
      if (k > n - 1) continue;
      INFO("n = " << n << ", k = " << k);
      auto schedule = ibkit::random_schedule(n, k, 42);
      REQUIRE(schedule.ok());
      auto pairs = checked_pairs(*schedule, n);
      std::vector<int> degree(static_cast<std::size_t>(n), 0);
      for (const auto& [a, b] : pairs) ++degree[a], ++degree[b];
      for (int d : degree) CHECK(d >= k);
      auto again = ibkit::random_schedule(n, k, 42);
      REQUIRE(again.ok());
      CHECK(checked_pairs(*again, n) == pairs);
    }
  }
  auto one = ibkit::random_schedule(64, 3, 1);
  auto other = ibkit::random_schedule(64, 3, 2);
  CHECK(checked_pairs(*one, 64) != checked_pairs(*other, 64));
}

TEST_CASE("random:K takes k rounds with every node in each, one more at most to top up",
          "[schedule]") {
  // First-fit packing of random pairs took up to 2k-1 rounds; a quick pattern for a large
  // fabric must cost k rounds, whatever n.
  for (int n : {4, 5, 16, 17, 64, 1024, 1023}) {
    for (int k : {1, 2, 3}) {
      INFO("n = " << n << ", k = " << k);
      auto schedule = ibkit::random_schedule(n, k, 7);
      REQUIRE(schedule.ok());
      const auto pairs = checked_pairs(*schedule, n);
      // A small fabric's last matchings can find few unused pairs (5 nodes, k = 3: 6 of the 10
      // pairs); from 16 nodes on, k rounds and the top-up.
      CHECK(schedule->size() <= static_cast<std::size_t>(n >= 16 ? k + 1 : 2 * k));
      std::vector<int> degree(static_cast<std::size_t>(n), 0);
      for (const auto& [a, b] : pairs) ++degree[a], ++degree[b];
      for (int d : degree) CHECK(d >= k);
      // Exactly k partners each but for the few a top-up round gives one more.
      CHECK(pairs.size() <= static_cast<std::size_t>((n * k + 1) / 2 + k));
    }
  }
}

TEST_CASE("random:K with K = n - 1 is every pair once, in as many rounds as all-pairs",
          "[schedule]") {
  // The greedy matchings this replaced grew with n cubed here: 1,024 nodes took 69 s before
  // --deadline began to count.
  for (int n : {64, 65, 512}) {
    INFO("n = " << n);
    auto schedule = ibkit::random_schedule(n, n - 1, 11);
    REQUIRE(schedule.ok());
    CHECK(checked_pairs(*schedule, n).size() == static_cast<std::size_t>(n * (n - 1) / 2));
    CHECK(schedule->size() == static_cast<std::size_t>(n % 2 == 0 ? n - 1 : n));
  }
}

TEST_CASE("random:K on odd n: the last round pairs only those that sat a round out", "[schedule]") {
  const int n = 33;
  const int k = 5;
  auto schedule = ibkit::random_schedule(n, k, 5);
  REQUIRE(schedule.ok());
  REQUIRE(schedule->size() == static_cast<std::size_t>(k + 1));
  std::vector<int> degree(static_cast<std::size_t>(n), 0);
  for (const auto& [a, b] : checked_pairs(*schedule, n)) ++degree[a], ++degree[b];
  // Every node k partners, or k + 1 when it met, in the last round, one that sat out.
  for (int d : degree) CHECK((d == k || d == k + 1));
  CHECK(schedule->back().size() <= static_cast<std::size_t>(k));
}

TEST_CASE("ring+random:K: the ring's pairs and k random partners more, in 2 + k rounds",
          "[schedule]") {
  for (int n : {6, 16, 17, 1024}) {
    for (int k : {1, 3}) {
      INFO("n = " << n << ", k = " << k);
      auto schedule =
          ibkit::schedule_for_pattern("ring+random:" + std::to_string(k), hosts_named(n), 3);
      REQUIRE(schedule.ok());
      const auto pairs = checked_pairs(*schedule, n);
      for (int i = 0; i < n; ++i) CHECK(pairs.count(std::minmax(i, (i + 1) % n)) == 1);
      std::vector<int> degree(static_cast<std::size_t>(n), 0);
      for (const auto& [a, b] : pairs) ++degree[a], ++degree[b];
      for (int d : degree) CHECK(d >= k + 2);
      CHECK(schedule->size() <= static_cast<std::size_t>((n % 2 == 0 ? 2 : 3) + k + 1));
    }
  }
}

TEST_CASE("ring+random:K refuses a K the ring leaves no room for, naming the limit", "[schedule]") {
  auto four = ibkit::schedule_for_pattern("ring+random:2", hosts_named(4), 1);
  REQUIRE_FALSE(four.ok());
  CHECK(four.error().message ==
        "--pattern ring+random:2: K must be 1..1 for 4 nodes (the ring "
        "takes two partners of each)");
  auto three = ibkit::schedule_for_pattern("ring+random:1", hosts_named(3), 1);
  REQUIRE_FALSE(three.ok());
  CHECK(three.error().message ==
        "--pattern ring+random:1: K must be 1..1 for 3 nodes: too few nodes; use all-pairs");
}

TEST_CASE("random:K refuses K outside 1..n-1", "[schedule]") {
  CHECK_FALSE(ibkit::random_schedule(4, 4, 1).ok());
  CHECK_FALSE(ibkit::random_schedule(4, 0, 1).ok());
  auto wrong = ibkit::schedule_for_pattern("random:9", hosts_named(4), 1);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message == "--pattern random:9: K must be 1..3 for 4 nodes");
  auto word = ibkit::schedule_for_pattern("random:x", hosts_named(4), 1);
  REQUIRE_FALSE(word.ok());
  CHECK(word.error().message ==
        "--pattern random:x: K is not a whole number; write random:K with K from 1 to 3 (4 "
        "nodes), e.g. random:1");
  auto ring = ibkit::schedule_for_pattern("ring+random:", hosts_named(5), 1);
  REQUIRE_FALSE(ring.ok());
  CHECK(ring.error().message ==
        "--pattern ring+random:: K is not a whole number; write ring+random:K with K from 1 to 2 "
        "(5 nodes), e.g. ring+random:1");
}

TEST_CASE("pairs:FILE packs the listed pairs into disjoint rounds", "[schedule]") {
  const auto path =
      ibkit::test::write_scratch_file("pairs",
                                      "# rail check\nn0 n1\nn1 n2   # shares n1: next round\n"
                                      "10.0.0.3 n3\n\nn0 n2\n");
  auto schedule = ibkit::schedule_for_pattern("pairs:" + path, hosts_named(4), 1);
  REQUIRE(schedule.ok());
  CHECK(checked_pairs(*schedule, 4) ==
        std::set<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {0, 2}});
  // First fit: n0-n1 and n2-n3, then n1-n2, then n0-n2 (n0 and n2 are busy in both before).
  REQUIRE(schedule->size() == 3);
  CHECK((*schedule)[0].size() == 2);
}

TEST_CASE("pairs:FILE errors name the file and line", "[schedule]") {
  const auto hosts = hosts_named(3);
  auto error_of = [&](const std::string& content) {
    const auto path = ibkit::test::write_scratch_file("bad-pairs", content);
    auto schedule = ibkit::read_pairs_file(path, hosts);
    REQUIRE_FALSE(schedule.ok());
    const std::string message = schedule.error().message;
    REQUIRE(message.rfind(path, 0) == 0);
    return message.substr(path.size());
  };
  CHECK(error_of("n0 n1\nn0 n9\n") == ":2: \"n9\" is not in the hosts list");
  CHECK(error_of("n0 n1 n2\n") == ":1: expected two nodes, got 3 fields");
  CHECK(error_of("n0 n0\n") == ":1: \"n0\" is paired with itself");
  CHECK(error_of("n0 n1\n# x\nn1 n0\n") == ":3: n1 and n0 are already paired");
  CHECK(error_of("# nothing\n") == ": no pairs in the pairs file");
  CHECK_FALSE(ibkit::read_pairs_file("/nonexistent/pairs", hosts).ok());
}

TEST_CASE("a pairs-file entry two hosts answer to is refused, naming both", "[schedule]") {
  // b's name is a's address; c and d are two agents on one address.
  const std::vector<ibkit::SweepHost> hosts{{"a", "10.0.0.2", 18515},
                                            {"10.0.0.2", "10.0.0.9", 18515},
                                            {"c", "10.0.0.3", 18515},
                                            {"d", "10.0.0.3", 18516}};
  auto error_of = [&](const std::string& content) {
    auto schedule = ibkit::parse_pairs_text(content, "p", hosts);
    REQUIRE_FALSE(schedule.ok());
    return schedule.error().message;
  };
  CHECK(error_of("c 10.0.0.2\n") ==
        "p:1: \"10.0.0.2\" could be a (10.0.0.2:18515) or 10.0.0.2 (10.0.0.9:18515); name each "
        "node so no name is another node's address, and pair them by name");
  CHECK(error_of("a c\n10.0.0.3 a\n")
            .rfind("p:2: \"10.0.0.3\" could be c (10.0.0.3:18515) or d (10.0.0.3:18516);", 0) == 0);
  // Names and unshared addresses still pick one host each; a name that is its own address too.
  auto schedule = ibkit::parse_pairs_text("a c\n10.0.0.9 d\n", "p", hosts);
  REQUIRE(schedule.ok());
  CHECK(checked_pairs(*schedule, 4) == std::set<std::pair<int, int>>{{0, 2}, {1, 3}});
  const std::vector<ibkit::SweepHost> unnamed{{"10.0.0.1", "10.0.0.1", 1},
                                              {"10.0.0.2", "10.0.0.2", 1}};
  CHECK(ibkit::parse_pairs_text("10.0.0.1 10.0.0.2\n", "p", unnamed).ok());
}

TEST_CASE("a pairs file that is not a regular file is refused at once", "[schedule]") {
  ibkit::test::GuardedFifo fifo("pairs-fifo");
  auto schedule = ibkit::read_pairs_file(fifo.path(), hosts_named(3));
  REQUIRE_FALSE(schedule.ok());
  CHECK(schedule.error().message ==
        "pairs file " + fifo.path() + " is a FIFO, not a regular file; give a file");
}

TEST_CASE("an unknown pattern is refused naming --pattern", "[schedule]") {
  auto schedule = ibkit::schedule_for_pattern("mesh", hosts_named(4), 1);
  REQUIRE_FALSE(schedule.ok());
  CHECK(schedule.error().message ==
        "--pattern mesh: expected all-pairs, ring, random:K, ring+random:K, pairs:FILE, topo:FILE "
        "or topo-blame:FILE");
}

TEST_CASE(
    "pack_rounds packs pairs first fit into disjoint rounds, and pack_round_indices "
    "gives the same rounds as indices",
    "[schedule]") {
  // Two rails of 0-1 share both nodes, so they go to different rounds; 2-3 fits beside the
  // first; 1-2 and 3-0 find both their nodes free only in the third round.
  const std::vector<ibkit::ScheduledPair> pairs = {{0, 1}, {0, 1}, {2, 3}, {1, 2}, {3, 0}};
  const ibkit::Schedule rounds = ibkit::pack_rounds(pairs);
  REQUIRE(rounds.size() == 3);
  const auto indices = ibkit::pack_round_indices(pairs);
  CHECK(indices == std::vector<std::vector<std::size_t>>{{0, 2}, {1}, {3, 4}});
  REQUIRE(indices.size() == rounds.size());
  std::set<std::size_t> seen;
  for (std::size_t r = 0; r < indices.size(); ++r) {
    REQUIRE(indices[r].size() == rounds[r].size());
    std::set<int> nodes;
    for (std::size_t k = 0; k < indices[r].size(); ++k) {
      const ibkit::ScheduledPair& pair = pairs[indices[r][k]];
      CHECK(pair.a == rounds[r][k].a);
      CHECK(pair.b == rounds[r][k].b);
      CHECK(nodes.insert(pair.a).second);
      CHECK(nodes.insert(pair.b).second);
      CHECK(seen.insert(indices[r][k]).second);
    }
  }
  CHECK(seen.size() == pairs.size());
}

TEST_CASE("nodes in pairs: a ring pairs every node, a pairs list only the ones it names",
          "[schedule]") {
  CHECK(ibkit::nodes_in_pairs(ibkit::ring_schedule(5), 5) == std::vector<bool>(5, true));
  const ibkit::Schedule listed = {{{0, 2}}, {{2, 3}}};
  CHECK(ibkit::nodes_in_pairs(listed, 5) == std::vector<bool>{true, false, true, true, false});
}
