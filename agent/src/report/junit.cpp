#include "report/junit.hpp"

#include "report/xml_escape.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string testcase(const CheckResult& result, double seconds) {
  const std::string detail = "observed: " + result.observed + "\nexpected: " + result.expected;
  std::string out = "    <testcase classname=\"" + xml_escape(result.id) + "\" name=\"" +
                    xml_escape(result.subject) + "\" time=\"" + format_number(seconds, 3) + "\">";
  switch (result.status) {
    case Status::kFail:
      out += "\n      <failure message=\"" + xml_escape(result.hint) + "\" type=\"" +
             xml_escape(result.id) + "\">" + xml_escape(detail + "\nhint: " + result.hint) +
             "</failure>\n    ";
      break;
    case Status::kSkip:
      out += "\n      <skipped message=\"" + xml_escape(result.hint) + "\"/>\n    ";
      break;
    case Status::kWarn:
      out += "\n      <system-out>" + xml_escape("warning: " + detail + "\nhint: " + result.hint) +
             "</system-out>\n    ";
      break;
    case Status::kPass:
      break;
  }
  return out + "</testcase>\n";
}

}  // namespace

JunitCounts junit_counts(const CheckResults& results) {
  JunitCounts counts;
  counts.tests = results.size();
  for (const auto& result : results) {
    counts.failures += result.status == Status::kFail;
    counts.skipped += result.status == Status::kSkip;
  }
  return counts;
}

std::string junit_testsuite(const std::string& name, const std::string& host,
                            const std::string& timestamp, const CheckResults& results,
                            const std::vector<double>& seconds) {
  const JunitCounts counts = junit_counts(results);
  const std::string escaped_host = xml_escape(host);
  std::string out = "  <testsuite name=\"" + xml_escape(name) + "." + escaped_host +
                    "\" hostname=\"" + escaped_host + "\" timestamp=\"" + xml_escape(timestamp) +
                    "\" tests=\"" + std::to_string(counts.tests) + "\" failures=\"" +
                    std::to_string(counts.failures) + "\" errors=\"0\" skipped=\"" +
                    std::to_string(counts.skipped) + "\">\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    out += testcase(results[i], i < seconds.size() ? seconds[i] : 0.0);
  }
  return out + "  </testsuite>\n";
}

std::string junit_document(const std::string& name, const JunitCounts& totals,
                           const std::string& testsuites) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xml_escape(name) +
         "\" tests=\"" + std::to_string(totals.tests) + "\" failures=\"" +
         std::to_string(totals.failures) + "\" skipped=\"" + std::to_string(totals.skipped) +
         "\">\n" + testsuites + "</testsuites>\n";
}

std::string render_junit(const std::string& suite, const std::string& host,
                         const std::string& timestamp, const CheckResults& results) {
  return junit_document(suite, junit_counts(results),
                        junit_testsuite(suite, host, timestamp, results));
}

}  // namespace ibkit
