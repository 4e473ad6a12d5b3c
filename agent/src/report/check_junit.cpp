#include "report/check_report.hpp"
#include "report/xml_escape.hpp"

namespace ibkit {

std::string render_junit(const std::string& suite, const std::string& host,
                         const std::string& timestamp, const CheckResults& results) {
  int failures = 0;
  int skipped = 0;
  for (const auto& result : results) {
    failures += result.status == Status::kFail;
    skipped += result.status == Status::kSkip;
  }
  const std::string escaped_host = xml_escape(host);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"" + xml_escape(suite) + "\" tests=\"" +
         std::to_string(results.size()) + "\" failures=\"" + std::to_string(failures) +
         "\" skipped=\"" + std::to_string(skipped) + "\">\n";
  out += "  <testsuite name=\"" + xml_escape(suite) + "." + escaped_host + "\" hostname=\"" +
         escaped_host + "\" timestamp=\"" + xml_escape(timestamp) + "\" tests=\"" +
         std::to_string(results.size()) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\">\n";
  for (const auto& result : results) {
    const std::string detail = "observed: " + result.observed + "\nexpected: " + result.expected;
    out += "    <testcase classname=\"" + xml_escape(result.id) + "\" name=\"" +
           xml_escape(result.subject) + "\" time=\"0\">";
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
        out += "\n      <system-out>" +
               xml_escape("warning: " + detail + "\nhint: " + result.hint) + "</system-out>\n    ";
        break;
      case Status::kPass:
        break;
    }
    out += "</testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string render_check_junit(const CheckReport& report) {
  return render_junit("ibkit.check", report.host, report.generated_at, report.results);
}

}  // namespace ibkit
