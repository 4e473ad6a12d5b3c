// The reader of ibkit check's state file (--state) on any bytes: what it accepts must write out
// and read back the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "schema/counter_state_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto snapshot = ibkit::parse_counter_snapshot(ibkit::fuzz::as_text(data, size));
  if (!snapshot) return 0;
  const std::string written = ibkit::render_counter_snapshot(*snapshot);
  auto again = ibkit::parse_counter_snapshot(written);
  if (!again) {
    ibkit::fuzz::broken_promise("a state file that was read cannot be read back",
                                again.error().message);
  }
  if (ibkit::render_counter_snapshot(*again) != written) {
    ibkit::fuzz::broken_promise("a state file reads back differently", written);
  }
  return 0;
}
