#include "report/report_input.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/check_report.hpp"
#include "model/check_report_json.hpp"
#include "report/report_merge.hpp"
#include "report/sweep_json.hpp"

namespace ibkit {
namespace {

template <class Report>
Expected<ReportInput> input_of(const std::string& path, Expected<Report> read) {
  if (!read) return Error{path + ": " + read.error().message};
  return ReportInput{path, std::move(*read)};
}

}  // namespace

Expected<ReportInput> read_report_input(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path + ": cannot be read"};
  std::stringstream content;
  content << file.rdbuf();
  const auto document = nlohmann::json::parse(content.str(), nullptr, false);
  if (document.is_discarded()) return Error{path + ": not JSON"};
  const auto found = document.is_object() ? document.find("schema") : document.end();
  const std::string schema =
      found != document.end() && found->is_string() ? found->get<std::string>() : "";
  if (schema == kCheckSchema) return input_of(path, check_report_from_json(document));
  if (schema == kSweepSchema) return input_of(path, sweep_report_from_json(document));
  return Error{path + ": schema \"" + schema + "\" is neither " + kCheckSchema + " (ibkit check " +
               "--format json) nor " + kSweepSchema + " (a sweep's report.json)"};
}

}  // namespace ibkit
