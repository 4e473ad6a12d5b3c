#include "report/check_junit.hpp"

#include "model/check_report.hpp"
#include "report/junit.hpp"

namespace ibkit {

std::string render_check_junit(const CheckReport& report) {
  return render_junit("ibkit.check", report.host, report.generated_at, report.results);
}

}  // namespace ibkit
