#include "report/check_report.hpp"
#include "report/xml_escape.hpp"

namespace ibkit {

std::string render_check_junit(const CheckReport& report) {
  int failures = 0;
  int skipped = 0;
  for (const auto& result : report.results) {
    failures += result.status == Status::kFail;
    skipped += result.status == Status::kSkip;
  }
  const std::string host = xml_escape(report.host);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"ibkit check\" tests=\"" + std::to_string(report.results.size()) +
         "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" + std::to_string(skipped) +
         "\">\n";
  out += "  <testsuite name=\"ibkit.check." + host + "\" hostname=\"" + host + "\" timestamp=\"" +
         xml_escape(report.generated_at) + "\" tests=\"" + std::to_string(report.results.size()) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"" +
         std::to_string(skipped) + "\">\n";
  for (const auto& result : report.results) {
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

}  // namespace ibkit
