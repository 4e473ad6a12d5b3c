#include "slurm/slurm_node.hpp"

#include <cctype>
#include <vector>

namespace ibkit {
namespace {

// Where the value of `key` (with its '=') starts: the key must start the line or follow a
// space. npos when the line has no such key.
std::size_t value_start(std::string_view line, std::string_view key) {
  std::size_t at = 0;
  while ((at = line.find(key, at)) != std::string_view::npos) {
    if (at == 0 || line[at - 1] == ' ') return at + key.size();
    at += key.size();
  }
  return std::string_view::npos;
}

// The value of `key`: the text up to the next space; "" when absent.
std::string_view word_value(std::string_view line, std::string_view key) {
  const std::size_t begin = value_start(line, key);
  if (begin == std::string_view::npos) return {};
  const std::size_t end = line.find(' ', begin);
  return line.substr(begin, end == std::string_view::npos ? line.size() - begin : end - begin);
}

// Where a " [user@time]" suffix starts in `text` (no spaces inside the brackets, an '@'
// between them), or npos.
std::size_t stamp_start(std::string_view text) {
  std::size_t at = 0;
  while ((at = text.find(" [", at)) != std::string_view::npos) {
    const std::size_t close = text.find(']', at + 2);
    if (close == std::string_view::npos) return std::string_view::npos;
    const std::string_view inside = text.substr(at + 2, close - at - 2);
    if (inside.find('@') != std::string_view::npos && inside.find(' ') == std::string_view::npos)
      return at;
    at += 2;
  }
  return std::string_view::npos;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  return text;
}

std::vector<std::string_view> split_words(std::string_view text, char separator) {
  std::vector<std::string_view> words;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = text.find(separator, begin);
    words.push_back(
        text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return words;
}

}  // namespace

Expected<SlurmNode> parse_scontrol_node(std::string_view line) {
  line = trim(line.substr(0, line.find('\n')));
  SlurmNode node;
  node.name = std::string(word_value(line, "NodeName="));
  if (node.name.empty()) return Error{"no NodeName= in the scontrol output"};
  node.state = std::string(word_value(line, "State="));
  if (node.state.empty()) return Error{"no State= in the scontrol output"};
  if (const std::size_t begin = value_start(line, "Reason="); begin != std::string_view::npos) {
    std::string_view reason = line.substr(begin);
    if (const std::size_t stamp = stamp_start(reason); stamp != std::string_view::npos)
      reason = reason.substr(0, stamp);
    reason = trim(reason);
    if (reason != "(null)") node.reason = std::string(reason);
  }
  return node;
}

NodeCondition node_condition(std::string_view state) {
  NodeCondition condition;
  const auto words = split_words(state, '+');
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view word = words[i];
    if (i == 0) {
      while (!word.empty() && (word.back() == '*' || word.back() == '~' || word.back() == '#' ||
                               word.back() == '!' || word.back() == '%' || word.back() == '$' ||
                               word.back() == '@' || word.back() == '^' || word.back() == '-')) {
        if (word.back() == '*') condition.responding = false;
        if (word.back() == '@') condition.reboot_pending = true;
        word.remove_suffix(1);
      }
      if (word == "DOWN") condition.down = true;
      if (word == "DRAIN" || word == "DRAINED" || word == "DRAINING") condition.drain = true;
      if (word == "FAIL" || word == "FAILING") condition.down = true;
      continue;
    }
    if (word == "DRAIN") condition.drain = true;
    if (word == "FAIL") condition.down = true;
    if (word == "NOT_RESPONDING") condition.responding = false;
    if (word == "REBOOT" || word == "REBOOT_REQUESTED" || word == "REBOOT_ISSUED")
      condition.reboot_pending = true;
  }
  return condition;
}

}  // namespace ibkit
