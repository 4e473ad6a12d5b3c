#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/check_result.hpp"

namespace ibkit {

// The pieces every JUnit XML report is built of, so a check, a pair and a sweep report look
// alike to a CI system.

struct JunitCounts {
  std::size_t tests = 0;
  std::size_t failures = 0;
  std::size_t skipped = 0;
};
JunitCounts junit_counts(const CheckResults& results);

// One <testsuite> for `host`, a testcase per result: failures carry the hint, skips their
// reason, warnings a system-out. `seconds`, when given, holds each result's time.
std::string junit_testsuite(const std::string& name, const std::string& host,
                            const std::string& timestamp, const CheckResults& results,
                            const std::vector<double>& seconds = {});

// A whole JUnit document of one testsuite: one testcase per result; failures carry the hint,
// skips their reason.
std::string render_junit(const std::string& suite, const std::string& host,
                         const std::string& timestamp, const CheckResults& results);

// The document around `testsuites` (junit_testsuite output) with the totals of all of them.
std::string junit_document(const std::string& name, const JunitCounts& totals,
                           const std::string& testsuites);

}  // namespace ibkit
