#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "model/check_report.hpp"
#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// One file `ibkit report` was given: a node's check report or a sweep's report.json.
struct ReportInput {
  std::string path;
  std::variant<SweepReport, CheckReport> report;
};

// Reads `path` by the schema it names ("ibkit.check/1", or "ibkit.sweep/3", /2 or /1). Fails
// with a message that starts with the path: unreadable, not a regular file, larger than 2 GiB,
// not JSON, another schema, a missing, out-of-range or inconsistent field.
Expected<ReportInput> read_report_input(const std::string& path);

// Same, from the file's text already in memory; `path` names it in messages.
Expected<ReportInput> parse_report_input(std::string_view text, const std::string& path);

}  // namespace ibkit
