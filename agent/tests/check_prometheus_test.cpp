#include "report/check_prometheus.hpp"

#include <filesystem>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "util/text.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {
namespace {

Hca one_port_hca() {
  Hca hca;
  hca.name = "mlx5_0";
  Port port;
  port.number = 1;
  port.state = "ACTIVE";
  port.phys_state = "LinkUp";
  port.rate = parse_link_rate("200 Gb/sec (4X HDR)", false);
  port.counters = {{"link_downed", 2}, {"port_xmit_data", 4096}, {"symbol_error", 0}};
  hca.ports.push_back(port);
  return hca;
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

}  // namespace

TEST_CASE("the check's metrics: verdict, time, one series per result, the ports' figures",
          "[report]") {
  CheckReport report{"node1",
                     "2026-11-23T10:00:00Z",
                     "built-in defaults",
                     {{"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "", ""},
                      {"memlock", "process", Status::kFail, "64 KiB", "unlimited", "fix"}}};
  report.agent_version = "0.1.0+abc";
  const auto text = render_check_prometheus(report, {one_port_hca()});
  CHECK(has_line(text, "ibkit_check_passed 0"));
  CHECK(has_line(text, "ibkit_check_timestamp_seconds 1795428000"));
  CHECK(has_line(text,
                 R"(ibkit_check_result{check="port.state",subject="mlx5_0/1",status="pass"} 1)"));
  CHECK(has_line(text, R"(ibkit_check_result{check="memlock",subject="process",status="fail"} 1)"));
  CHECK(has_line(
      text, R"(ibkit_port_active{device="mlx5_0",port="1",state="ACTIVE",phys_state="LinkUp"} 1)"));
  CHECK(has_line(text, R"(ibkit_port_data_rate_gbps{device="mlx5_0",port="1"} )" +
                           format_number(one_port_hca().ports[0].rate->data_gbps)));
  CHECK(has_line(text,
                 R"(ibkit_port_counter_total{device="mlx5_0",port="1",counter="link_downed"} 2)"));
  // sysfs counters/ holds traffic as well as errors: nothing calls port_xmit_data an error.
  CHECK(has_line(
      text, R"(ibkit_port_counter_total{device="mlx5_0",port="1",counter="port_xmit_data"} 4096)"));
  CHECK(text.find("errors_total") == std::string::npos);
  CHECK(has_line(text, R"(ibkit_agent_info{version="0.1.0+abc",host="node1"} 1)"));
  CHECK(has_line(text, "# TYPE ibkit_check_result gauge"));
  CHECK(has_line(text, "# TYPE ibkit_port_counter_total counter"));
}

TEST_CASE("the error rate limits port.error_rate judges by are exported beside the counters",
          "[report][rates]") {
  CheckReport report{"node1", "2026-11-23T10:00:00Z", "built-in defaults", {}};
  auto hca = one_port_hca();
  hca.ports[0].counters["link_error_recovery"] = 0;
  const auto text = render_check_prometheus(report, {hca});
  // 4X HDR, BER 1e-12: 720 an hour; NVSentinel's 10 a second.
  CHECK(has_line(
      text,
      R"(ibkit_port_error_limit_per_hour{device="mlx5_0",port="1",counter="symbol_error"} 720)"));
  CHECK(has_line(
      text,
      R"(ibkit_port_error_limit_per_second{device="mlx5_0",port="1",counter="symbol_error"} 10)"));
  CHECK(has_line(
      text,
      R"(ibkit_port_error_limit_per_hour{device="mlx5_0",port="1",counter="link_error_recovery"} 1)"));
  // A counter the port does not have has no limit series.
  CHECK(text.find(R"(counter="port_rcv_errors")") == std::string::npos);
  ErrorRateLimits configured;
  configured.per_hour["symbol_error"] = 120;
  CHECK(has_line(
      render_check_prometheus(report, {hca}, configured),
      R"(ibkit_port_error_limit_per_hour{device="mlx5_0",port="1",counter="symbol_error"} 120)"));
  // RoCE: no bit error rate budget, so no symbol_error limit unless one is configured.
  hca.ports[0].link_layer = "Ethernet";
  CHECK(
      render_check_prometheus(report, {hca})
          .find(
              R"(ibkit_port_error_limit_per_hour{device="mlx5_0",port="1",counter="symbol_error"})") ==
      std::string::npos);
}

TEST_CASE("metrics never repeat a series and escape what sysfs or a host name may hold",
          "[report]") {
  CheckReport report{"node\"1", "not a time", "", {}};
  report.results = {{"module.loaded", "a\\b\n\"c\"", Status::kFail, "", "", ""},
                    {"module.loaded", "a\\b\n\"c\"", Status::kFail, "", "", ""}};
  const auto text = render_check_prometheus(report, {});
  CHECK(has_line(
      text, R"(ibkit_check_result{check="module.loaded",subject="a\\b\n\"c\"",status="fail"} 2)"));
  // A time that is not utc_timestamp()'s form gives no timestamp rather than a wrong one.
  CHECK(text.find("ibkit_check_timestamp_seconds ") == std::string::npos);
  CHECK(text.find(R"(host="node\"1")") != std::string::npos);
}

TEST_CASE("label values are UTF-8 whatever bytes a name holds", "[report]") {
  // Linux allows any bytes but / and NUL in a netdev's name; the exposition format requires
  // UTF-8, and node_exporter drops the whole file over one bad label.
  CheckReport report{"node1", "2026-11-23T10:00:00Z", "", {}};
  report.results = {{"netdev.mtu",
                     "ib\xff"
                     "0 caf\xc3\xa9 \xc3",
                     Status::kPass, "", "", ""}};
  const auto text = render_check_prometheus(report, {});
  CHECK(has_line(text,
                 "ibkit_check_result{check=\"netdev.mtu\",subject=\"ib\xEF\xBF\xBD"
                 "0 caf\xc3\xa9 "
                 "\xEF\xBF\xBD\",status=\"pass\"} 1"));
}

TEST_CASE("label values hold no control character a terminal would act on", "[report]") {
  // A .prom file is read with cat and curl too: an ESC or a CR in it rewrites the terminal.
  CheckReport report{"node1\x1b]0;owned\x07", "2026-11-23T10:00:00Z", "", {}};
  report.results = {{"netdev.mtu", "ib0\x1b[2K\rpass \xc2\x9b", Status::kFail, "", "", ""}};
  const auto text = render_check_prometheus(report, {});
  CHECK(has_line(
      text,
      R"(ibkit_check_result{check="netdev.mtu",subject="ib0\\x1b[2K\\rpass \\u009b",status="fail"} 1)"));
  CHECK(text.find(R"(host="node1\\x1b]0;owned\\x07")") != std::string::npos);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    CHECK((c == '\n' || (byte >= 0x20 && byte != 0x7f)));
  }
}

TEST_CASE("a --metrics file that cannot be written fails the check, naming the flag", "[report]") {
  const auto run = test::run_ibkit("check --root " + std::string(ibkit::test::fixtures_dir()) +
                                   "/mthca-ddr-2port --metrics /nonexistent-dir/ibkit.prom");
  CHECK(run.exit_code == 2);
  CHECK(test::one_line(run.err));
  CHECK(run.err.rfind("ibkit check: --metrics /nonexistent-dir/ibkit.prom", 0) == 0);
  // The results were still printed.
  CHECK(run.out.find("port.state") != std::string::npos);
}

TEST_CASE("ibkit check exports the [limits] rates it was configured with, not the defaults",
          "[report]") {
  const auto config = test::write_scratch_file(
      "rates.toml", "[limits]\nsymbol_error_per_hour = 120\nlink_error_recovery_per_hour = 3\n");
  const auto run = test::run_ibkit("check --root " + std::string(ibkit::test::fixtures_dir()) +
                                   "/mthca-ddr-2port --config " + config + " --format prometheus");
  std::filesystem::remove(config);
  CHECK(run.out.find(R"(counter="symbol_error"} 120)") != std::string::npos);
  CHECK(run.out.find(R"(counter="link_error_recovery"} 3)") != std::string::npos);
}

TEST_CASE("unix_seconds reads utc_timestamp's form and nothing else", "[report]") {
  CHECK(unix_seconds("1970-01-01T00:00:00Z") == 0);
  CHECK(unix_seconds("2026-11-23T10:00:00Z") == 1795428000);
  CHECK_FALSE(unix_seconds("2026-11-23T10:00:00").has_value());
  CHECK_FALSE(unix_seconds("2026-11-23T10:00:00Zjunk").has_value());
  CHECK_FALSE(unix_seconds("2026-13-23T10:00:00Z").has_value());
  CHECK_FALSE(unix_seconds("").has_value());
  const auto now = unix_seconds(utc_timestamp());
  REQUIRE(now.has_value());
  CHECK(*now > 1700000000);
}

}  // namespace ibkit
