#include "report/pair_junit.hpp"

#include "model/pair_report.hpp"
#include "report/junit.hpp"

namespace ibkit {

std::string render_pair_junit(const PairReport& report) {
  return render_junit("ibkit.pair", report.host + "-" + report.peer, report.generated_at,
                      report.results);
}

}  // namespace ibkit
