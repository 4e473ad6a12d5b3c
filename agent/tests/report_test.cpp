#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/check_report.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_text.hpp"
#include "report/xml_escape.hpp"

using ibkit::CheckReport;
using ibkit::Status;

namespace {

CheckReport sample_report() {
  return CheckReport{
      "node<1>",
      "2026-11-22T05:00:00Z",
      "test.toml",
      {{"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""},
       {"port.state", "mlx5_0/2", Status::kFail, "DOWN/Polling", "ACTIVE/LinkUp",
        "no physical link & \"no cable\""},
       {"cpu.governor", "cpus", Status::kSkip, "no cpufreq", "performance", "a VM"},
       {"ipoib.mtu", "mlx5_0/1 (ib0)", Status::kWarn, "2044", "4092", "raise the IB MTU"}}};
}

}  // namespace

TEST_CASE("JSON carries the schema, the verdict and every field", "[report]") {
  auto json = nlohmann::json::parse(ibkit::render_check_json(sample_report()));
  CHECK(json["schema"] == "ibkit.check/1");
  CHECK(json["verdict"] == "fail");
  CHECK(json["host"] == "node<1>");
  CHECK(json["counts"]["fail"] == 1);
  CHECK(json["counts"]["warn"] == 1);
  REQUIRE(json["results"].size() == 4);
  const auto& failed = json["results"][1];
  CHECK(failed["id"] == "port.state");
  CHECK(failed["subject"] == "mlx5_0/2");
  CHECK(failed["status"] == "fail");
  CHECK(failed["observed"] == "DOWN/Polling");
  CHECK(failed["expected"] == "ACTIVE/LinkUp");
  CHECK(failed["hint"] == "no physical link & \"no cable\"");
}

TEST_CASE("warnings and skips alone pass", "[report]") {
  auto report = sample_report();
  report.results.erase(report.results.begin() + 1);
  auto json = nlohmann::json::parse(ibkit::render_check_json(report));
  CHECK(json["verdict"] == "pass");
}

TEST_CASE("invalid UTF-8 from a garbage file does not break JSON", "[report]") {
  auto report = sample_report();
  report.results[0].observed = "\xff\xfe bad";
  auto json = nlohmann::json::parse(ibkit::render_check_json(report));
  CHECK(json["results"][0]["observed"].get<std::string>().find("bad") != std::string::npos);
}

TEST_CASE("JUnit has one testcase per result, failures carry the hint", "[report]") {
  std::string xml = ibkit::render_check_junit(sample_report());
  CHECK_THAT(xml, Catch::Contains("tests=\"4\" failures=\"1\""));
  CHECK_THAT(xml, Catch::Contains("<testcase classname=\"port.state\" name=\"mlx5_0/2\""));
  CHECK_THAT(xml,
             Catch::Contains("<failure message=\"no physical link &amp; &quot;no cable&quot;\""));
  CHECK_THAT(xml, Catch::Contains("<skipped message=\"a VM\"/>"));
  CHECK_THAT(xml, Catch::Contains("hostname=\"node&lt;1&gt;\""));
  std::size_t testcases = 0;
  for (auto at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++testcases;
  CHECK(testcases == 4);
  CHECK(xml.find("</testsuites>") != std::string::npos);
}

TEST_CASE("XML escaping shows control characters as terminal_safe does, line feeds kept",
          "[report]") {
  CHECK(ibkit::xml_escape("a\x01<b>") == "a\\x01&lt;b&gt;");
  // A CR, an ESC, a C1 CSI and a byte that is not UTF-8: none reaches junit.xml raw.
  CHECK(ibkit::xml_escape("fail\r\x1b[2Kpass \xc2\x9b \xff\nhint") ==
        "fail\\r\\x1b[2Kpass \\u009b \\xff\nhint");
}

TEST_CASE("text is aligned, shows hints for non-passes, and is colourless unless asked",
          "[report]") {
  std::string plain = ibkit::render_check_text(sample_report(), false);
  CHECK(plain.find("\033[") == std::string::npos);
  CHECK_THAT(plain, Catch::Contains("-> no physical link"));
  CHECK_THAT(plain, Catch::Contains("FAIL: 1 passed, 1 failed, 1 warnings, 1 skipped"));
  CHECK_THAT(plain, Catch::Contains("pass    port.state    mlx5_0/1"));
  std::string colour = ibkit::render_check_text(sample_report(), true);
  CHECK(colour.find("\033[31m") != std::string::npos);
}
