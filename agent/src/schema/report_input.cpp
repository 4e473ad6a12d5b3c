#include "schema/report_input.hpp"

#include <nlohmann/json.hpp>

#include "model/check_report.hpp"
#include "schema/check_report_json.hpp"
#include "schema/sweep_report_json.hpp"
#include "util/files/bounded_file.hpp"

namespace ibkit {
namespace {

// A check report is a few KiB. A sweep's report.json of ibkit.sweep/1 holds every pair's whole
// report, about 3.5 KiB each at one size per test: 2 GiB is an all-pairs sweep of about 1,000
// nodes (ibkit.sweep/3 keeps a row of about 40 bytes a pair).
constexpr FileLimit kReportFile{"", std::size_t{2} << 30,
                                "give an ibkit check --format json file or a sweep's report.json"};

template <class Report>
Expected<ReportInput> input_of(const std::string& path, Expected<Report> read) {
  if (!read) return Error{path + ": " + read.error().message};
  return ReportInput{path, std::move(*read)};
}

// The report a parsed document holds, by the schema it names.
Expected<ReportInput> report_input_of(const nlohmann::json& document, const std::string& path) {
  if (document.is_discarded()) return Error{path + ": not JSON"};
  const auto found = document.is_object() ? document.find("schema") : document.end();
  const std::string schema =
      found != document.end() && found->is_string() ? found->get<std::string>() : "";
  if (schema == kCheckSchema) return input_of(path, check_report_from_json(document));
  if (schema == kSweepSchema || schema == kSweepSchemaV2 || schema == kSweepSchemaV1)
    return input_of(path, sweep_report_from_json(document));
  return Error{path + ": schema \"" + schema + "\" is neither " + kCheckSchema + " (ibkit check " +
               "--format json) nor " + kSweepSchema + " (a sweep's report.json)"};
}

}  // namespace

Expected<ReportInput> parse_report_input(std::string_view text, const std::string& path) {
  const auto document = nlohmann::json::parse(text, nullptr, false);
  return report_input_of(document, path);
}

Expected<ReportInput> read_report_input(const std::string& path) {
  auto content = read_bounded_file(path, kReportFile);
  if (!content) return content.error();
  const auto document = nlohmann::json::parse(content->bytes, nullptr, false);
  // Tens of megabytes for a large sweep: freed before its rows become pairs, not after.
  std::string().swap(content->bytes);
  return report_input_of(document, path);
}

}  // namespace ibkit
