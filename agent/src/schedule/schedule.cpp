#include "schedule/schedule.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>

#include "util/files/bounded_file.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Some 100,000 pairs of long names: a pairs file picks pairs; every pair is --pattern all-pairs.
constexpr FileLimit kPairsFile{"pairs file", std::size_t{4} << 20,
                               "give one NODE NODE pair per line, or use --pattern all-pairs"};

std::pair<int, int> ordered(int a, int b) { return a < b ? std::pair{a, b} : std::pair{b, a}; }

// A uniform index below `bound`, the same on every standard library (unlike the distributions).
int random_below(std::mt19937_64& rng, int bound) {
  return static_cast<int>(rng() % static_cast<std::uint64_t>(bound));
}

// Nodes 0..n-1 in a random order, the same for the same generator state on every library.
std::vector<int> shuffled_nodes(int n, std::mt19937_64& rng) {
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {
    std::swap(order[static_cast<std::size_t>(i)],
              order[static_cast<std::size_t>(random_below(rng, i + 1))]);
  }
  return order;
}

// One round pairing every node it can (one sits out when n is odd) with a partner it has not
// had in `used`, in random order.
Round random_matching(int n, std::mt19937_64& rng, const std::set<std::pair<int, int>>& used) {
  const std::vector<int> order = shuffled_nodes(n, rng);
  std::vector<bool> taken(static_cast<std::size_t>(n), false);
  Round round;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int a = order[i];
    if (taken[static_cast<std::size_t>(a)]) continue;
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const int b = order[j];
      if (taken[static_cast<std::size_t>(b)] || used.count(ordered(a, b)) != 0) continue;
      taken[static_cast<std::size_t>(a)] = taken[static_cast<std::size_t>(b)] = true;
      round.push_back({a, b});
      break;
    }
  }
  return round;
}

// The fullest of a few random matchings: late in a dense schedule a greedy one can leave nodes
// without a partner they have not had, and those wait for the top-up round.
Round fullest_matching(int n, std::mt19937_64& rng, const std::set<std::pair<int, int>>& used) {
  constexpr int kTries = 16;
  Round best;
  for (int i = 0; i < kTries && best.size() < static_cast<std::size_t>(n / 2); ++i) {
    Round round = random_matching(n, rng, used);
    if (round.size() > best.size()) best = std::move(round);
  }
  return best;
}

// Pairs for each node with fewer than k partners in `used` (it sat out a round), preferring
// partners that want one too; packed into rounds of their own.
Schedule top_up(int n, int k, std::mt19937_64& rng, std::set<std::pair<int, int>>& used,
                std::vector<int>& partners) {
  std::vector<ScheduledPair> pairs;
  for (int node = 0; node < n; ++node) {
    while (partners[static_cast<std::size_t>(node)] < k) {
      std::vector<int> wanting;
      std::vector<int> any;
      for (int other = 0; other < n; ++other) {
        if (other == node || used.count(ordered(node, other)) != 0) continue;
        any.push_back(other);
        if (partners[static_cast<std::size_t>(other)] < k) wanting.push_back(other);
      }
      if (any.empty()) break;  // paired with every other node already
      const auto& pool = wanting.empty() ? any : wanting;
      const int other =
          pool[static_cast<std::size_t>(random_below(rng, static_cast<int>(pool.size())))];
      used.insert(ordered(node, other));
      ++partners[static_cast<std::size_t>(node)];
      ++partners[static_cast<std::size_t>(other)];
      pairs.push_back({node, other});
    }
  }
  return pack_rounds(pairs);
}

Error k_out_of_range(const std::string& prefix, int k, int n) {
  return Error{prefix + std::to_string(k) + ": K must be 1.." + std::to_string(n - 1) + " for " +
               std::to_string(n) + " nodes"};
}

// k random matchings that avoid the pairs in `used` (and add theirs to it): every node in
// every round, so k rounds for even n, and one more to top up the nodes that sat out.
Expected<Schedule> random_rounds(int n, int k, std::uint64_t seed,
                                 std::set<std::pair<int, int>>& used) {
  if (k < 1 || k > n - 1) return k_out_of_range("random:", k, n);
  std::mt19937_64 rng(seed);
  std::vector<int> partners(static_cast<std::size_t>(n), 0);
  Schedule schedule;
  for (int round = 0; round < k; ++round) {
    Round matching = fullest_matching(n, rng, used);
    for (const auto& pair : matching) {
      used.insert(ordered(pair.a, pair.b));
      ++partners[static_cast<std::size_t>(pair.a)];
      ++partners[static_cast<std::size_t>(pair.b)];
    }
    if (!matching.empty()) schedule.push_back(std::move(matching));
  }
  for (auto& round : top_up(n, k, rng, used, partners)) schedule.push_back(std::move(round));
  return schedule;
}

// Each host's name and address, to the host that answers to it: a pairs file of 400,000 lines
// looks each node up in constant time, not by reading the list through. A text two hosts answer
// to (one's name is another's address; two agents on one address) keeps both, and naming it in
// a pairs file is refused: a pair meant for one would silently test the other.
struct HostMatches {
  int first;
  int second = -1;
};
using HostIndex = std::unordered_map<std::string, HostMatches>;

HostIndex index_hosts(const std::vector<SweepHost>& hosts) {
  HostIndex index;
  for (int i = 0; i < static_cast<int>(hosts.size()); ++i) {
    const auto& host = hosts[static_cast<std::size_t>(i)];
    for (const std::string* text : {&host.name, &host.address}) {
      auto [entry, added] = index.emplace(*text, HostMatches{i});
      if (!added && entry->second.first != i && entry->second.second < 0) entry->second.second = i;
    }
  }
  return index;
}

Expected<int> host_index(const std::string& node, const HostIndex& index,
                         const std::vector<SweepHost>& hosts) {
  const auto found = index.find(node);
  if (found == index.end()) return Error{"\"" + node + "\" is not in the hosts list"};
  const auto [first, second] = found->second;
  if (second < 0) return first;
  return Error{"\"" + node + "\" could be " +
               host_description(hosts[static_cast<std::size_t>(first)]) + " or " +
               host_description(hosts[static_cast<std::size_t>(second)]) +
               "; name each node so no name is another node's address, and pair them by name"};
}

}  // namespace

int circle_rounds(int n) { return n % 2 == 0 ? n - 1 : n; }

Round circle_round(int n, int round) {
  const int slots = n % 2 == 0 ? n : n + 1;
  const int turning = slots - 1;
  Round pairs;
  for (int i = 0; i < slots / 2; ++i) {
    int a = i == 0 ? slots - 1 : (round + i) % turning;
    int b = (round - i + turning) % turning;
    if (a >= n || b >= n) continue;
    // Every turning node is (round + i) as often as (round - i), so it drives half its pairs;
    // the fixed node alternates.
    if (i == 0 && round % 2 == 1) std::swap(a, b);
    pairs.push_back({a, b});
  }
  return pairs;
}

Schedule all_pairs_schedule(int n) {
  Schedule schedule;
  for (int round = 0; round < circle_rounds(n); ++round) schedule.push_back(circle_round(n, round));
  return schedule;
}

Schedule ring_schedule(int n) {
  std::vector<ScheduledPair> pairs;
  for (int i = 0; i < (n == 2 ? 1 : n); ++i) pairs.push_back({i, (i + 1) % n});
  return pack_rounds(pairs);
}

Expected<Schedule> random_schedule(int n, int k, std::uint64_t seed) {
  if (k < 1 || k > n - 1) return k_out_of_range("random:", k, n);
  std::mt19937_64 rng(seed);
  const std::vector<int> label = shuffled_nodes(n, rng);
  const std::vector<int> rounds = shuffled_nodes(circle_rounds(n), rng);
  Schedule schedule;
  std::vector<int> partners(static_cast<std::size_t>(n), 0);
  const auto take = [&](const Round& round, auto wanted) {
    Round labelled;
    for (const auto& pair : round) {
      if (!wanted(pair)) continue;
      ++partners[static_cast<std::size_t>(pair.a)];
      ++partners[static_cast<std::size_t>(pair.b)];
      labelled.push_back(
          {label[static_cast<std::size_t>(pair.a)], label[static_cast<std::size_t>(pair.b)]});
    }
    if (!labelled.empty()) schedule.push_back(std::move(labelled));
  };
  for (int i = 0; i < k; ++i) {
    take(circle_round(n, rounds[static_cast<std::size_t>(i)]),
         [](const ScheduledPair&) { return true; });
  }
  // Odd n: each chosen round left one node out. A round not chosen (there are n, k < n) meets
  // every one of them, never with a partner it has had: their pairs in it are the last round.
  if (n % 2 == 1) {
    take(circle_round(n, rounds[static_cast<std::size_t>(k)]), [&](const ScheduledPair& pair) {
      return partners[static_cast<std::size_t>(pair.a)] < k ||
             partners[static_cast<std::size_t>(pair.b)] < k;
    });
  }
  return schedule;
}

Expected<Schedule> ring_and_random_schedule(int n, int k, std::uint64_t seed) {
  Schedule schedule = ring_schedule(n);
  std::set<std::pair<int, int>> used;
  for (const auto& round : schedule) {
    for (const auto& pair : round) used.insert(ordered(pair.a, pair.b));
  }
  // The ring gives each node two partners already: k more must still be there to pick.
  if (k > n - 3) {
    return Error{"ring+random:" + std::to_string(k) + ": K must be 1.." + std::to_string(n - 3) +
                 " for " + std::to_string(n) + " nodes (the ring takes two partners of each)"};
  }
  auto random = random_rounds(n, k, seed, used);
  if (!random) return random.error();
  for (auto& round : *random) schedule.push_back(std::move(round));
  return schedule;
}

namespace {

// Each pair's round when `pairs` are packed first fit, in order, into rounds of disjoint pairs.
std::vector<std::size_t> first_fit_rounds(const std::vector<ScheduledPair>& pairs) {
  std::vector<std::size_t> rounds;
  rounds.reserve(pairs.size());
  // busy[node]: bit r is set when the node has a pair in round r. A pair's round is the first
  // bit clear in both its nodes', found 64 rounds at a time.
  std::vector<std::vector<std::uint64_t>> busy;
  const auto word = [&](int node, std::size_t w) {
    const auto& bits = busy[static_cast<std::size_t>(node)];
    return w < bits.size() ? bits[w] : std::uint64_t{0};
  };
  const auto mark = [&](int node, std::size_t round) {
    auto& bits = busy[static_cast<std::size_t>(node)];
    if (bits.size() <= round / 64) bits.resize(round / 64 + 1, 0);
    bits[round / 64] |= std::uint64_t{1} << (round % 64);
  };
  for (const auto& pair : pairs) {
    const auto most = static_cast<std::size_t>(std::max(pair.a, pair.b));
    if (busy.size() <= most) busy.resize(most + 1);
    std::size_t w = 0;
    std::uint64_t taken = word(pair.a, 0) | word(pair.b, 0);
    for (; taken == ~std::uint64_t{0}; taken = word(pair.a, w) | word(pair.b, w)) ++w;
    const std::size_t round = w * 64 + static_cast<std::size_t>(std::countr_one(taken));
    rounds.push_back(round);
    mark(pair.a, round);
    mark(pair.b, round);
  }
  return rounds;
}

}  // namespace

Schedule pack_rounds(const std::vector<ScheduledPair>& pairs) {
  Schedule schedule;
  const std::vector<std::size_t> rounds = first_fit_rounds(pairs);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (rounds[i] >= schedule.size()) schedule.resize(rounds[i] + 1);
    schedule[rounds[i]].push_back(pairs[i]);
  }
  return schedule;
}

std::vector<std::vector<std::size_t>> pack_round_indices(const std::vector<ScheduledPair>& pairs) {
  std::vector<std::vector<std::size_t>> packed;
  const std::vector<std::size_t> rounds = first_fit_rounds(pairs);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (rounds[i] >= packed.size()) packed.resize(rounds[i] + 1);
    packed[rounds[i]].push_back(i);
  }
  return packed;
}

Expected<Schedule> read_pairs_file(const std::string& path, const std::vector<SweepHost>& hosts) {
  auto content = read_bounded_file(path, kPairsFile);
  if (!content) return content.error();
  return parse_pairs_text(content->bytes, path, hosts);
}

Expected<Schedule> parse_pairs_text(std::string_view text, const std::string& path,
                                    const std::vector<SweepHost>& hosts) {
  std::vector<ScheduledPair> pairs;
  std::set<std::pair<int, int>> seen;
  const HostIndex index = index_hosts(hosts);
  int number = 0;
  for (const auto& line : split(text, '\n')) {
    const std::string where = path + ":" + std::to_string(++number) + ": ";
    auto fields = split_whitespace(line.substr(0, line.find('#')));
    if (fields.empty()) continue;
    if (fields.size() != 2) {
      return Error{where + "expected two nodes, got " + std::to_string(fields.size()) + " fields"};
    }
    auto a = host_index(fields[0], index, hosts);
    if (!a) return Error{where + a.error().message};
    auto b = host_index(fields[1], index, hosts);
    if (!b) return Error{where + b.error().message};
    if (*a == *b) return Error{where + "\"" + fields[0] + "\" is paired with itself"};
    if (!seen.insert(ordered(*a, *b)).second) {
      return Error{where + fields[0] + " and " + fields[1] + " are already paired"};
    }
    pairs.push_back({*a, *b});
  }
  if (pairs.empty()) return Error{path + ": no pairs in the pairs file"};
  return pack_rounds(pairs);
}

std::size_t pair_count(const Schedule& schedule) {
  std::size_t count = 0;
  for (const auto& round : schedule) count += round.size();
  return count;
}

std::vector<bool> nodes_in_pairs(const Schedule& schedule, std::size_t nodes) {
  std::vector<bool> paired(nodes, false);
  for (const auto& round : schedule) {
    for (const auto& pair : round) {
      paired[static_cast<std::size_t>(pair.a)] = paired[static_cast<std::size_t>(pair.b)] = true;
    }
  }
  return paired;
}

}  // namespace ibkit
