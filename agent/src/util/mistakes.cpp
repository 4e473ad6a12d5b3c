#include "util/mistakes.hpp"

#include "util/text.hpp"

namespace ibkit {

void Mistakes::add(const std::string& mistake) {
  if (named_.size() < kNamed) named_.push_back(mistake);
  ++count_;
}

Error Mistakes::error() const {
  std::string text = join(named_, "; ");
  if (count_ > named_.size()) text += "; and " + std::to_string(count_ - named_.size()) + " more";
  return Error{text};
}

}  // namespace ibkit
