// The TOML configuration loader (`--config FILE`, /etc/ibkit/ibkit.toml) on any text: it must
// return a Config or an Error that names the file, line and column, and never crash.
#include <cstddef>
#include <cstdint>

#include "config/config_loader.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto config = ibkit::parse_config(ibkit::fuzz::as_text(data, size), "fuzz.toml");
  if (!config && config.error().message.rfind("fuzz.toml:", 0) != 0) {
    ibkit::fuzz::broken_promise("a config error that does not start with FILE:LINE:COL",
                                config.error().message);
  }
  return 0;
}
