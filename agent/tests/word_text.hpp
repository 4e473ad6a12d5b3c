#pragma once
// Text of words of varied length for the wrapping tests (text_wrap_test, report_text_table_test).

#include <cstddef>
#include <string>
#include <vector>

namespace ibkit::test {

// `first`, then words of varied length after it, single spaces between them, until the text is at
// least `size` bytes; it ends in a whole word.
inline std::string words_of(std::size_t size, const std::string& first = "") {
  static const std::vector<std::string> kWords = {"port",
                                                  "mlx5_0/1",
                                                  "link_downed",
                                                  "rose",
                                                  "by",
                                                  "3",
                                                  "since",
                                                  "the",
                                                  "last",
                                                  "check,",
                                                  "spine",
                                                  "leaf-17",
                                                  "(0x0002c903000e1a2b)"};
  std::string text = first;
  for (std::size_t i = 0; text.size() < size; ++i) {
    if (!text.empty()) text += ' ';
    text += kWords[i % kWords.size()];
  }
  return text;
}

}  // namespace ibkit::test
