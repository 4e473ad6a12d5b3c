#include "model/check_result.hpp"

#include <algorithm>

namespace ibkit {

std::string_view status_name(Status status) {
  switch (status) {
    case Status::kPass:
      return "pass";
    case Status::kWarn:
      return "warn";
    case Status::kFail:
      return "fail";
    case Status::kSkip:
      return "skip";
  }
  return "fail";
}

bool any_failed(const CheckResults& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const CheckResult& result) { return result.status == Status::kFail; });
}

}  // namespace ibkit
