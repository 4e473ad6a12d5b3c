// The readers of saved reports on any bytes: read_report_input (what `ibkit report FILE...`
// opens: a check report or a sweep's report.json), pair_report_from_json (what a driving node
// answers a sweep coordinator with), and every renderer on whatever they accept. What a reader
// accepts must render, and must read back the same way after it is written again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_text.hpp"
#include "report/pair_json.hpp"
#include "report/pair_junit.hpp"
#include "report/pair_text.hpp"
#include "report/report_formats.hpp"
#include "report/report_merge.hpp"
#include "report/sweep_text.hpp"
#include "schema/check_report_json.hpp"
#include "schema/pair_report_json.hpp"
#include "schema/report_input.hpp"
#include "schema/sweep_report_json.hpp"

namespace {

using ibkit::fuzz::broken_promise;

// Keeps the optimizer from dropping a rendering whose text nobody reads.
std::size_t rendered = 0;

void render_sweep(const ibkit::SweepReport& report) {
  for (const auto& file : ibkit::report_files()) rendered += file.render(report).size();
  rendered += ibkit::render_sweep_text(report, true).size();
  const std::string json = ibkit::render_sweep_json(report);
  auto again = ibkit::sweep_report_from_json(nlohmann::json::parse(json, nullptr, false));
  if (!again)
    broken_promise("a sweep report that was read cannot be read back", again.error().message);
  if (ibkit::render_sweep_json(*again) != json) {
    broken_promise("a sweep report reads back differently", json);
  }
}

void render_check(const ibkit::CheckReport& report) {
  rendered += ibkit::render_check_text(report, true).size();
  rendered += ibkit::render_check_junit(report).size();
  const std::string json = ibkit::render_check_json(report);
  auto again = ibkit::check_report_from_json(nlohmann::json::parse(json, nullptr, false));
  if (!again)
    broken_promise("a check report that was read cannot be read back", again.error().message);
  if (ibkit::render_check_json(*again) != json) {
    broken_promise("a check report reads back differently", json);
  }
}

void render_pair(const ibkit::PairReport& report) {
  rendered += ibkit::render_pair_text(report, true).size();
  rendered += ibkit::render_pair_junit(report).size();
  const std::string json = ibkit::render_pair_json(report);
  auto again = ibkit::pair_report_from_json(nlohmann::json::parse(json, nullptr, false));
  if (!again)
    broken_promise("a pair report that was read cannot be read back", again.error().message);
  if (ibkit::render_pair_json(*again) != json) {
    broken_promise("a pair report reads back differently", json);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ibkit::fuzz::MemoryFile file("report.json");
  const auto text = ibkit::fuzz::as_text(data, size);
  file.write(text);
  auto input = ibkit::read_report_input(file.path());
  if (input) {
    std::visit(
        [](const auto& report) {
          if constexpr (std::is_same_v<std::decay_t<decltype(report)>, ibkit::SweepReport>) {
            render_sweep(report);
          } else {
            render_check(report);
          }
        },
        input->report);
    // `ibkit report FILE`: one input merged on its own, then rendered as the command does.
    std::vector<ibkit::ReportInput> inputs{*input};
    if (auto merged = ibkit::merge_reports(inputs)) {
      for (const auto& format : ibkit::report_stdout_formats()) {
        rendered += ibkit::render_report(*merged, format, false).size();
      }
    }
  } else if (input.error().message.rfind(file.path() + ": ", 0) != 0) {
    broken_promise("a report error that does not start with the path", input.error().message);
  }

  const auto document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_discarded()) {
    if (auto pair = ibkit::pair_report_from_json(document)) render_pair(*pair);
  }
  return 0;
}
