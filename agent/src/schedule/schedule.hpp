#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/pair_routes.hpp"
#include "schedule/hosts.hpp"
#include "schedule/rounds.hpp"
#include "util/expected.hpp"

namespace ibkit {

// How many rounds the circle method takes for n nodes: n - 1 for even n, n for odd n (a phantom
// node makes n + 1, and whoever meets it sits the round out).
int circle_rounds(int n);

// Round `round` (0 to circle_rounds(n) - 1) of the circle method: every node but the last turns
// around a circle, and each meets the one across from it. In an odd n's round r, node r is the
// one that sits out. One round at a time, for a caller that may stop early.
Round circle_round(int n, int round);

// Every pair of n nodes exactly once by the circle method: n-1 rounds of n/2 pairs for even n,
// n rounds of (n-1)/2 pairs (one node sits out each round) for odd n. n >= 2.
Schedule all_pairs_schedule(int n);

// Each node with its successor (the last with the first): 2 rounds for even n, 3 for odd n,
// one pair for n = 2.
Schedule ring_schedule(int n);

// Each node paired with k others chosen at random (the same seed gives the same pairs): k of
// all_pairs_schedule's rounds, chosen at random, over the nodes in a random order. Even n: k
// rounds, every node in each, k partners each. Odd n: one node sat out each round, and one
// more round, of pairs from a round not chosen, gives those their k-th. Time and memory in
// proportion to the pairs (4,096 nodes, k = 4,095 is all-pairs). Fails when k is not 1..n-1.
Expected<Schedule> random_schedule(int n, int k, std::uint64_t seed);

// The ring, then random:k avoiding the ring's pairs: every node with its two neighbours and k
// random others, in 2 + k rounds (even n; odd n up to 4 + k). Fails when k is not 1..n-3.
Expected<Schedule> ring_and_random_schedule(int n, int k, std::uint64_t seed);

// Packs pairs into disjoint rounds, first fit, keeping their order within each round.
Schedule pack_rounds(const std::vector<ScheduledPair>& pairs);

// The same packing as indices into `pairs`: each index once, rounds in order.
std::vector<std::vector<std::size_t>> pack_round_indices(const std::vector<ScheduledPair>& pairs);

// Reads explicit pairs, one `NODE NODE` per line (a node by its name or address; `#` comments),
// packed into rounds. Fails with "FILE:LINE: problem" on an unknown node, a node paired with
// itself, a pair listed twice (either way round) or a line without exactly two nodes, and
// when the file cannot be read (not a regular file, larger than 4 MiB: "pairs file FILE ...").
Expected<Schedule> read_pairs_file(const std::string& path, const std::vector<SweepHost>& hosts);

// Same, from the file's text already in memory; `path` names it in messages.
Expected<Schedule> parse_pairs_text(std::string_view text, const std::string& path,
                                    const std::vector<SweepHost>& hosts);

// How many pairs the schedule holds.
std::size_t pair_count(const Schedule& schedule);

// Which of `nodes` nodes the schedule puts in at least one pair, by node number.
std::vector<bool> nodes_in_pairs(const Schedule& schedule, std::size_t nodes);

}  // namespace ibkit
