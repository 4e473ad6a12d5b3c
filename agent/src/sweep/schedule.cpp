#include "sweep/schedule.hpp"

#include <random>
#include <set>
#include <utility>

#include "util/bounded_file.hpp"
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

Expected<int> host_index(const std::string& node, const std::vector<SweepHost>& hosts) {
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (hosts[i].name == node || hosts[i].address == node) return static_cast<int>(i);
  }
  return Error{"\"" + node + "\" is not in the hosts list"};
}

}  // namespace

Schedule all_pairs_schedule(int n) {
  // Odd n gets a phantom node; whoever meets it sits the round out.
  const int slots = n % 2 == 0 ? n : n + 1;
  const int turning = slots - 1;  // every node but the last turns around the circle
  Schedule schedule;
  for (int round = 0; round < turning; ++round) {
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
    schedule.push_back(std::move(pairs));
  }
  return schedule;
}

Schedule ring_schedule(int n) {
  std::vector<ScheduledPair> pairs;
  for (int i = 0; i < (n == 2 ? 1 : n); ++i) pairs.push_back({i, (i + 1) % n});
  return pack_rounds(pairs);
}

Expected<Schedule> random_schedule(int n, int k, std::uint64_t seed) {
  if (k < 1 || k > n - 1) {
    return Error{"random:" + std::to_string(k) + ": K must be 1.." + std::to_string(n - 1) +
                 " for " + std::to_string(n) + " nodes"};
  }
  std::mt19937_64 rng(seed);
  std::vector<std::set<int>> partners(static_cast<std::size_t>(n));
  std::vector<ScheduledPair> pairs;
  for (int node = 0; node < n; ++node) {
    auto& mine = partners[static_cast<std::size_t>(node)];
    while (static_cast<int>(mine.size()) < k) {
      // Prefer nodes that still need partners, so most nodes end with exactly k.
      std::vector<int> wanting;
      std::vector<int> any;
      for (int other = 0; other < n; ++other) {
        if (other == node || mine.count(other) != 0) continue;
        any.push_back(other);
        if (static_cast<int>(partners[static_cast<std::size_t>(other)].size()) < k) {
          wanting.push_back(other);
        }
      }
      const auto& pool = wanting.empty() ? any : wanting;
      const int other =
          pool[static_cast<std::size_t>(random_below(rng, static_cast<int>(pool.size())))];
      mine.insert(other);
      partners[static_cast<std::size_t>(other)].insert(node);
      pairs.push_back({node, other});
    }
  }
  return pack_rounds(pairs);
}

Schedule pack_rounds(const std::vector<ScheduledPair>& pairs) {
  Schedule schedule;
  std::vector<std::set<int>> busy;
  for (const auto& pair : pairs) {
    std::size_t round = 0;
    while (round < schedule.size() &&
           (busy[round].count(pair.a) != 0 || busy[round].count(pair.b) != 0)) {
      ++round;
    }
    if (round == schedule.size()) {
      schedule.emplace_back();
      busy.emplace_back();
    }
    schedule[round].push_back(pair);
    busy[round].insert({pair.a, pair.b});
  }
  return schedule;
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
  int number = 0;
  for (const auto& line : split(text, '\n')) {
    const std::string where = path + ":" + std::to_string(++number) + ": ";
    auto fields = split_whitespace(line.substr(0, line.find('#')));
    if (fields.empty()) continue;
    if (fields.size() != 2) {
      return Error{where + "expected two nodes, got " + std::to_string(fields.size()) + " fields"};
    }
    auto a = host_index(fields[0], hosts);
    if (!a) return Error{where + a.error().message};
    auto b = host_index(fields[1], hosts);
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

Expected<Schedule> schedule_for_pattern(const std::string& pattern,
                                        const std::vector<SweepHost>& hosts, std::uint64_t seed) {
  const int n = static_cast<int>(hosts.size());
  if (pattern == "all-pairs") return all_pairs_schedule(n);
  if (pattern == "ring") return ring_schedule(n);
  if (pattern.rfind("random:", 0) == 0) {
    auto k = parse_unsigned(pattern.substr(7));
    if (!k || *k > static_cast<std::uint64_t>(n)) {
      return Error{"--pattern " + pattern + ": K must be 1.." + std::to_string(n - 1) + " for " +
                   std::to_string(n) + " nodes"};
    }
    auto schedule = random_schedule(n, static_cast<int>(*k), seed);
    if (!schedule) return Error{"--pattern " + schedule.error().message};
    return schedule;
  }
  if (pattern.rfind("pairs:", 0) == 0 && pattern.size() > 6) {
    return read_pairs_file(pattern.substr(6), hosts);
  }
  return Error{"--pattern " + pattern + ": expected all-pairs, ring, random:K or pairs:FILE"};
}

std::size_t pair_count(const Schedule& schedule) {
  std::size_t count = 0;
  for (const auto& round : schedule) count += round.size();
  return count;
}

}  // namespace ibkit
