#include "util/closest_name.hpp"

#include <algorithm>
#include <cstddef>

namespace ibkit {
namespace {

constexpr std::size_t kMaxEdits = 2;

// Optimal string alignment distance: Levenshtein's, with a swap of neighbours as one edit
// ("chekc" is one from "check"), the commonest typo of all.
std::size_t edits_between(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  // Words are short (a command, an option, a config value); longer ones are no typo.
  constexpr std::size_t kLongest = 64;
  if (word.empty() || word.size() > kLongest) return "";
  std::string best;
  std::size_t best_edits = std::min(kMaxEdits, (word.size() - 1) / 2) + 1;
  for (const auto& candidate : candidates) {
    if (candidate.size() > kLongest) continue;
    const std::size_t edits = edits_between(word, candidate);
    if (edits < best_edits) {
      best = candidate;
      best_edits = edits;
    }
  }
  return best;
}

}  // namespace ibkit
