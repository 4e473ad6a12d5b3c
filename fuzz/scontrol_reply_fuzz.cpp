// What `ibkit health` reads from Slurm, on any bytes. The input is up to two sections, split by
// lines that are exactly "----": the reply of `scontrol -o show node c01`, and the summary of a
// failed check. A reply accepted must be one record of c01 itself; a refusal is one line of
// bounded length; the drain reason and the decision keep the promises of their headers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "slurm/health_action.hpp"
#include "slurm/health_reason.hpp"
#include "slurm/scontrol.hpp"

namespace {

using ibkit::fuzz::broken_promise;

const std::string kNode = "c01";
const std::string kCommand = "`scontrol -o show node c01`";
// The command, the longest of ibkit's words around it, and a bounded excerpt of the reply.
constexpr std::size_t kLongestError = 1024;

bool printable_reason(const std::string& reason) {
  return reason.size() <= ibkit::kMaxReasonLength &&
         std::all_of(reason.begin(), reason.end(), [](char c) {
           return c >= 0x20 && c < 0x7f && c != '"' && c != '\'' && c != '\\';
         });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ibkit::fuzz::sections(ibkit::fuzz::as_text(data, size), "----");
  auto node = ibkit::node_in_reply(parts[0], kNode, kCommand);
  if (!node) {
    const std::string& message = node.error().message;
    if (message.size() > kLongestError) broken_promise("a refusal past its bound", message);
    if (std::any_of(message.begin(), message.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
      broken_promise("a refusal with control characters", message);
    }
    return 0;
  }
  if (node->name != kNode) broken_promise("acted on another node", node->name);
  const std::string reason = ibkit::drain_reason(parts.size() > 1 ? std::string(parts[1]) : "");
  if (!printable_reason(reason) || reason.rfind(ibkit::kIbkitReasonMarker, 0) != 0) {
    broken_promise("a drain reason Slurm would not keep as it is", reason);
  }
  for (bool healthy : {true, false}) {
    const auto action = ibkit::decide_health_action(*node, healthy, reason);
    if (action.note.find('\n') != std::string::npos)
      broken_promise("a note of two lines", action.note);
    const bool sets_reason = action.kind == ibkit::HealthActionKind::kDrain ||
                             action.kind == ibkit::HealthActionKind::kUpdateReason;
    if (sets_reason && (healthy || action.reason != reason)) {
      broken_promise("a drain that is not the failure's", action.reason);
    }
    if (action.kind == ibkit::HealthActionKind::kResume &&
        (!healthy || !ibkit::reason_is_ibkit(node->reason))) {
      broken_promise("resumed a node ibkit did not drain", node->reason);
    }
  }
  return 0;
}
