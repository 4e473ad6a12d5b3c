// The TOML configuration loader (`--config FILE`, /etc/ibkit/ibkit.toml) on any text: it must
// return a Config or an Error that names the file, line and column, and never crash. And toml++
// itself on the text the loader gives it (toml_safe_text), without the pre-scan's refusals: the
// pre-scan only guesses where toml++ reads outside a string, so toml++ must be safe on any text
// without it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <toml++/toml.h>

#include "config/config_loader.hpp"
#include "config/toml_prescan.hpp"
#include "fuzz_input.hpp"

namespace {

// toml++ bounds the nesting of arrays and inline tables, not of dotted keys and table headers
// (the pre-scan's other hazard, kMaxConfigDepth): text with fewer nesting marks than this cannot
// overflow its stack.
constexpr std::ptrdiff_t kShallowMarks = 100;

void parse_unscanned(std::string_view text) {
  const auto marks = std::count_if(text.begin(), text.end(),
                                   [](char c) { return c == '.' || c == '[' || c == '{'; });
  if (marks >= kShallowMarks) return;
  try {
    (void)toml::parse(ibkit::toml_safe_text(text), std::string_view("fuzz.toml"));
  } catch (const toml::parse_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ibkit::fuzz::as_text(data, size);
  auto config = ibkit::parse_config(text, "fuzz.toml");
  if (!config && config.error().message.rfind("fuzz.toml:", 0) != 0) {
    ibkit::fuzz::broken_promise("a config error that does not start with FILE:LINE:COL",
                                config.error().message);
  }
  parse_unscanned(text);
  return 0;
}
