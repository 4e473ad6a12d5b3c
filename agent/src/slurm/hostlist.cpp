#include "slurm/hostlist.hpp"

#include <cstdint>
#include <utility>

#include "util/text.hpp"

namespace ibkit {
namespace {

// One bracket's numbers, as text of their final width.
using Range = std::vector<std::string>;

// A name's pieces: literal text, then a range, then text, ...; texts has one more entry than
// ranges.
struct Pattern {
  std::vector<std::string> texts{""};
  std::vector<Range> ranges;
};

Error problem(std::string_view where, const std::string& what) {
  return Error{"host list " + std::string(where) + ": " + what};
}

bool all_digits(std::string_view text) {
  if (text.empty() || text.size() > 18) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string padded(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// The numbers of one bracket's contents ("1-3,7"), each at most `max_names` of them.
Expected<Range> expand_range(std::string_view body, std::size_t max_names, std::string_view where) {
  Range numbers;
  for (const std::string& part : split(body, ',')) {
    const auto dash = part.find('-');
    const std::string low = part.substr(0, dash);
    const std::string high = dash == std::string::npos ? low : part.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high))
      return problem(where, "\"" + part + "\" in brackets is not N or LO-HI (digits)");
    const std::uint64_t from = std::stoull(low);
    const std::uint64_t to = std::stoull(high);
    if (to < from) return problem(where, "range " + part + " runs backwards");
    if (to - from >= max_names || numbers.size() + (to - from) >= max_names)
      return problem(where, "more than " + std::to_string(max_names) + " names");
    const std::size_t width = low.size() > 1 && low.front() == '0' ? low.size() : 0;
    for (std::uint64_t n = from; n <= to; ++n) numbers.push_back(padded(n, width));
  }
  return numbers;
}

Expected<Pattern> parse_name(std::string_view name, std::size_t max_names) {
  Pattern pattern;
  const std::string where = "name \"" + std::string(name) + "\"";
  std::size_t at = 0;
  while (at < name.size()) {
    const char c = name[at];
    if (c == ']') return problem(where, "']' without '['");
    if (c != '[') {
      pattern.texts.back() += c;
      ++at;
      continue;
    }
    const auto close = name.find(']', at);
    if (close == std::string_view::npos) return problem(where, "'[' not closed");
    const std::string_view body = name.substr(at + 1, close - at - 1);
    if (body.empty()) return problem(where, "'[]' holds no number");
    if (body.find('[') != std::string_view::npos) return problem(where, "'[' inside brackets");
    auto range = expand_range(body, max_names, where);
    if (!range.ok()) return range.error();
    pattern.ranges.push_back(std::move(*range));
    pattern.texts.emplace_back();
    at = close + 1;
  }
  if (!pattern.ranges.empty() && !pattern.texts.back().empty()) {
    return problem(where, "\"" + pattern.texts.back() +
                              "\" after its last ']' (Slurm ends a name with its range)");
  }
  return pattern;
}

// Appends the names `pattern` stands for; false when that would pass `max_names`.
bool append_names(const Pattern& pattern, std::size_t max_names, std::vector<std::string>& names) {
  std::size_t count = 1;
  for (const auto& range : pattern.ranges) {
    if (range.size() > max_names / count) return false;
    count *= range.size();
  }
  if (names.size() + count > max_names) return false;
  std::vector<std::size_t> digit(pattern.ranges.size(), 0);
  for (std::size_t n = 0; n < count; ++n) {
    std::string name = pattern.texts[0];
    for (std::size_t i = 0; i < pattern.ranges.size(); ++i)
      name += pattern.ranges[i][digit[i]] + pattern.texts[i + 1];
    names.push_back(std::move(name));
    for (std::size_t i = pattern.ranges.size(); i-- > 0;) {  // the rightmost changes fastest
      if (++digit[i] < pattern.ranges[i].size()) break;
      digit[i] = 0;
    }
  }
  return true;
}

// The list's names at the commas outside brackets.
std::vector<std::string_view> top_level_names(std::string_view list) {
  std::vector<std::string_view> names;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '[') ++depth;
    if (list[i] == ']' && depth > 0) --depth;
    if (list[i] == ',' && depth == 0) {
      names.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  names.push_back(list.substr(start));
  return names;
}

}  // namespace

Expected<std::vector<std::string>> expand_hostlist(std::string_view list, std::size_t max_names) {
  if (list.empty()) return Error{"host list is empty"};
  std::vector<std::string> names;
  for (std::string_view name : top_level_names(list)) {
    if (name.empty()) continue;  // as Slurm reads "a,,b"
    auto pattern = parse_name(name, max_names);
    if (!pattern.ok()) return pattern.error();
    if (!append_names(*pattern, max_names, names))
      return Error{"host list has more than " + std::to_string(max_names) + " names"};
  }
  if (names.empty()) return Error{"host list \"" + std::string(list) + "\" names no node"};
  return names;
}

}  // namespace ibkit
