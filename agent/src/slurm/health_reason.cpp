#include "slurm/health_reason.hpp"

#include "slurm/health_action.hpp"

namespace ibkit {
namespace {

bool allowed(char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\'' && c != '\\'; }

// Printable ASCII only, single spaces, no leading or trailing space.
std::string clean(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char kept = allowed(c) ? c : ' ';
    if (kept == ' ' && (out.empty() || out.back() == ' ')) continue;
    out.push_back(kept);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string summarize_failures(const CheckResults& results) {
  const CheckResult* first = nullptr;
  int more = 0;
  for (const auto& result : results) {
    if (result.status != Status::kFail) continue;
    if (first == nullptr) {
      first = &result;
    } else {
      ++more;
    }
  }
  if (first == nullptr) return "";
  std::string summary = first->id + " " + first->subject;
  if (!first->observed.empty()) summary += " " + first->observed;
  if (more > 0) summary += " (+" + std::to_string(more) + " more)";
  return summary;
}

std::string drain_reason(const std::string& summary) {
  std::string reason = clean(std::string(kIbkitReasonMarker) + " " + summary);
  if (reason.size() > kMaxReasonLength) {
    reason.resize(kMaxReasonLength - 3);
    while (!reason.empty() && reason.back() == ' ') reason.pop_back();
    reason += "...";
  }
  return reason;
}

}  // namespace ibkit
