#include "config/config_loader.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "config/config.hpp"
#include "guarded_fifo.hpp"
#include "scratch_path.hpp"

using ibkit::parse_config;

TEST_CASE("an empty file gives the defaults", "[config]") {
  auto config = parse_config("", "empty.toml");
  REQUIRE(config.ok());
  CHECK_FALSE(config->expect.link_layer);
  CHECK_FALSE(config->expect.min_rate_gbps);
  CHECK(config->expect.modules == std::vector<std::string>{"ib_ipoib", "ib_umad", "ib_uverbs"});
  CHECK_FALSE(config->expect.memlock_kib);
  CHECK(config->expect.cpu_governor == "performance");
  CHECK(config->counter_limits.at("symbol_error") == 10);
}

TEST_CASE("the reference configuration in docs/ parses", "[config]") {
  auto config = ibkit::load_config(std::filesystem::path(ibkit::test::source_dir()) /
                                   "docs/ibkit.toml.example");
  INFO((config.ok() ? "" : config.error().message));
  REQUIRE(config.ok());
  CHECK(config->expect.link_layer == "InfiniBand");
  CHECK(*config->expect.min_rate_gbps == 32.0);
  // A copy of it leaves the fleet rule drawing its line from the fleet's spread.
  CHECK_FALSE(config->thresholds.fleet.bandwidth_pinned);
  CHECK_FALSE(config->thresholds.fleet.latency_pinned);
}

TEST_CASE("the reference configuration in docs/ states every default counter limit", "[config]") {
  std::ifstream file(std::filesystem::path(ibkit::test::source_dir()) / "docs/ibkit.toml.example");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  REQUIRE_FALSE(text.empty());
  for (const auto& [counter, limit] : ibkit::default_counter_limits()) {
    INFO(counter);
    CHECK(text.find("\n" + counter + " = " + std::to_string(limit) + "\n") != std::string::npos);
  }
}

TEST_CASE("every [expect] key is read", "[config]") {
  auto config = parse_config(R"(
[expect]
link_layer = "Ethernet"
min_rate_gbps = 54.5
port_count = 8
ports = ["mlx5_0/1", "mlx5_1/1"]
modules = ["rdma_rxe", "ib_uverbs"]
gpu_direct = "required"
memlock = 65536
cpu_governor = "schedutil"
ipoib_mode = "connected"
ipoib_mtu = 65520
ipoib = false
pcie = false
platform = "azure"
[limits]
symbol_error = 0
link_flaps = 3
)",
                             "full.toml");
  INFO((config.ok() ? "" : config.error().message));
  REQUIRE(config.ok());
  const auto& e = config->expect;
  CHECK(*e.link_layer == "Ethernet");
  CHECK(*e.min_rate_gbps == 54.5);
  CHECK(*e.port_count == 8);
  CHECK(e.ports.kind == ibkit::PortSelection::Kind::kListed);
  CHECK(e.ports.listed.size() == 2);
  CHECK(e.modules.front() == "rdma_rxe");
  CHECK(e.gpu_direct == ibkit::GpuDirect::kRequired);
  CHECK(*e.memlock_kib == 65536);
  CHECK(e.cpu_governor == "schedutil");
  CHECK(e.ipoib_mode == "connected");
  CHECK(e.ipoib_mtu == 65520);
  CHECK_FALSE(e.ipoib);
  CHECK_FALSE(e.pcie);
  CHECK(e.platform == ibkit::Platform::kAzure);
  CHECK(config->counter_limits.at("symbol_error") == 0);
  CHECK(config->counter_limits.at("link_downed") == 10);
  CHECK(config->max_link_flaps == 3);
  CHECK(config->counter_limits.count("link_flaps") == 0);
}

TEST_CASE("[thresholds] sets the fleet rule's factors, or switches it off", "[config]") {
  auto defaults = parse_config("", "empty.toml");
  REQUIRE(defaults.ok());
  CHECK(defaults->thresholds.fleet.on);
  CHECK(defaults->thresholds.fleet.max_latency_ratio == 3.0);
  CHECK(defaults->thresholds.fleet.min_bandwidth_ratio == 0.33);
  auto set = parse_config(
      "[thresholds]\nfleet_max_latency_ratio = 5\nfleet_min_bandwidth_ratio = 0.2\n", "t.toml");
  REQUIRE(set.ok());
  CHECK(set->thresholds.fleet.on);
  CHECK(set->thresholds.fleet.max_latency_ratio == 5.0);
  CHECK(set->thresholds.fleet.min_bandwidth_ratio == 0.2);
  auto off = parse_config("[thresholds]\nfleet = false\n", "t.toml");
  REQUIRE(off.ok());
  CHECK_FALSE(off->thresholds.fleet.on);
}

TEST_CASE("bad configuration names file:line:col and the fix", "[config]") {
  struct Case {
    const char* toml;
    const char* message;
  };
  const Case cases[] = {
      {"[expect]\nlink_layer = \"infiniband\"\n",
       "bad.toml:2:14: expect.link_layer is \"infiniband\"; did you mean \"InfiniBand\"? write one "
       "of \"InfiniBand\""},
      {"[expect]\ncpu_governor = \"perfomance\"\n",
       "bad.toml:2:16: expect.cpu_governor is \"perfomance\"; did you mean \"performance\"? write "
       "one of \"performance\", \"powersave\", \"ondemand\", \"conservative\", \"schedutil\", "
       "\"userspace\", \"any\""},
      {"[expect]\nplatform = \"homelba\"\n", "is \"homelba\"; did you mean \"homelab\"? write"},
      {"[expect]\nlink_layer = InfiniBand\n",
       "bad.toml:2:14: link_layer = InfiniBand: text needs quotes; write link_layer = "
       "\"InfiniBand\""},
      {"[expect]\n  cpu_governor=performance   # fast\n",
       "bad.toml:2:16: cpu_governor = performance: text needs quotes; write cpu_governor = "
       "\"performance\""},
      {"[expect]\nmin_rate_gbps = \"fast\"\n",
       "bad.toml:2:17: expect.min_rate_gbps must be a positive number"},
      {"[expect]\nmin_rate_gbps = -3\n",
       "bad.toml:2:17: expect.min_rate_gbps must be a positive number"},
      {"[expect]\nport_count = 1.5\n",
       "bad.toml:2:14: expect.port_count is a number; write a whole number"},
      {"[expect]\n\nlinklayer = \"Ethernet\"\n",
       "bad.toml:3:1: unknown key expect.linklayer; known keys are:"},
      {"[expect]\nports = \"some\"\n",
       "bad.toml:2:9: expect.ports is \"some\"; write \"all\", \"any\""},
      {"[expect]\nports = [\"mlx5_0\"]\n", "expect.ports has an entry that is not \"device/port\""},
      {"[expect]\nmodules = \"ib_uverbs\"\n",
       "bad.toml:2:11: expect.modules is a string; write a list"},
      {"[expect]\nmemlock = \"lots\"\n",
       "bad.toml:2:11: expect.memlock must be \"unlimited\" or a positive size in KiB"},
      {"[expect]\nipoib = \"yes\"\n",
       "bad.toml:2:9: expect.ipoib is a string; write true or false"},
      {"[expect]\nipoib_mtu = 70000\n",
       "expect.ipoib_mtu is 70000; write a whole number from 0 to 65520"},
      {"[expect]\nplatform = \"aws\"\n",
       "bad.toml:2:12: expect.platform is \"aws\"; write one of \"any\", \"homelab\", \"azure\", "
       "\"lab\""},
      {"[limits]\nsymbol_errors = 5\n", "bad.toml:2:1: unknown key limits.symbol_errors"},
      {"[limits]\nsymbol_error = -1\n", "limits.symbol_error is -1"},
      {"[limits]\nlink_flaps = \"none\"\n", "bad.toml:2:14: limits.link_flaps is a string"},
      {"[thresholds]\nfleet = \"off\"\n",
       "bad.toml:2:9: thresholds.fleet is a string; write true or false"},
      {"[thresholds]\nfleet_max_latency_ratio = 0.5\n",
       "bad.toml:2:27: thresholds.fleet_max_latency_ratio must be a number from 1 to 1000"},
      {"[thresholds]\nfleet_max_latency_ratio = nan\n",
       "thresholds.fleet_max_latency_ratio must be a number from 1 to 1000"},
      {"[thresholds]\nfleet_min_bandwidth_ratio = 0\n",
       "bad.toml:2:29: thresholds.fleet_min_bandwidth_ratio must be a fraction above 0 and at "
       "most 1"},
      {"[thresholds]\nfleet_min_bandwidth_ratio = 3\n",
       "thresholds.fleet_min_bandwidth_ratio must be a fraction above 0"},
      {"[expected]\n", "bad.toml:1:2: unknown table or key \"expected\""},
      {"expect = 3\n", "expect must be a table"},
      {"[expect]\nlink_layer = \n", "bad.toml:2:"},
      {"[expect\n", "bad.toml:1:"},
      {"[expect]\nmodules = [\"a\",]]\n", "bad.toml:2:"},
  };
  for (const auto& c : cases) {
    INFO(c.toml);
    auto config = parse_config(c.toml, "bad.toml");
    REQUIRE_FALSE(config.ok());
    CHECK_THAT(config.error().message, Catch::Contains(c.message));
    CHECK(config.error().message.find('\n') == std::string::npos);
  }
}

TEST_CASE("every mistake of a config is named in one run, in the file's order", "[config]") {
  // Read [expect], [limits] then [thresholds]; named as the file has them.
  auto config = parse_config(R"([thresholds]
fleet = "off"
[limits]
symbol_errors = 5
[expect]
link_layer = "infiniband"
)",
                             "three.toml");
  REQUIRE_FALSE(config.ok());
  const std::string& message = config.error().message;
  INFO(message);
  CHECK(message.find('\n') == std::string::npos);
  CHECK_THAT(message, Catch::StartsWith("three.toml:2:9: thresholds.fleet is a string; write true "
                                        "or false; three.toml:4:1: unknown key "
                                        "limits.symbol_errors; known keys are: VL15_dropped, "));
  CHECK_THAT(message,
             Catch::EndsWith("; three.toml:6:14: expect.link_layer is \"infiniband\"; did you "
                             "mean \"InfiniBand\"? write one of \"InfiniBand\", \"Ethernet\", "
                             "\"any\""));
  CHECK(message.find(" more") == std::string::npos);
}

TEST_CASE("seven mistakes of a config: the first five in full, then and 2 more", "[config]") {
  auto config = parse_config(R"([expect]
port_count = 100
ipoib = "yes"
bogus = 1
[limits]
symbol_error = -1
link_flap = 3
[thresholds]
fleet = "off"
fleet_min_bandwidth_ratio = 3
)",
                             "seven.toml");
  REQUIRE_FALSE(config.ok());
  const std::string& message = config.error().message;
  INFO(message);
  CHECK_THAT(message,
             Catch::StartsWith("seven.toml:2:14: expect.port_count is 100; write a whole number "
                               "from 0 to 64; seven.toml:3:9: expect.ipoib is a string; write "
                               "true or false; seven.toml:4:1: unknown key expect.bogus; known "
                               "keys are: "));
  CHECK_THAT(message, Catch::Contains("; seven.toml:6:16: limits.symbol_error is -1; write a "
                                      "whole number from 0 to 4294967295; seven.toml:7:1: unknown "
                                      "key limits.link_flap; known keys are: "));
  CHECK_THAT(message, Catch::EndsWith(", symbol_error_per_second; and 2 more"));
  CHECK(message.find("seven.toml:9:") == std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("several unknown keys of a table list the known keys once", "[config]") {
  auto config = parse_config("[limits]\nsymbol_errors = 5\nlink_downs = 1\n", "typos.toml");
  REQUIRE_FALSE(config.ok());
  const std::string& message = config.error().message;
  CHECK_THAT(message, Catch::StartsWith("typos.toml:2:1: unknown key limits.symbol_errors; known "
                                        "keys are: VL15_dropped, "));
  CHECK_THAT(message, Catch::EndsWith("; typos.toml:3:1: unknown key limits.link_downs; known keys "
                                      "as listed for limits.symbol_errors"));
  CHECK(message.find("known keys are") == message.rfind("known keys are"));
}

TEST_CASE("a missing or unreadable config file is a clear error", "[config]") {
  auto missing = ibkit::load_config("/nonexistent/ibkit.toml");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message,
             Catch::StartsWith("--config /nonexistent/ibkit.toml: cannot read"));
  auto directory = ibkit::load_config("/tmp");
  REQUIRE_FALSE(directory.ok());
}

TEST_CASE("binary garbage is a parse error, not a crash", "[config]") {
  std::string garbage = "\x01\xff\xfe[expect]\n\x80\x81 = \x00\x02";
  garbage.push_back('\0');
  auto config = parse_config(garbage, "garbage.toml");
  REQUIRE_FALSE(config.ok());
  CHECK_THAT(config.error().message, Catch::StartsWith("garbage.toml:1:"));
}

TEST_CASE("a dotted key or table header 200,000 levels deep is refused with file:line",
          "[config]") {
  // toml++ recurses once per level here, past the end of the stack (SIGSEGV).
  std::string deep = "expect";
  for (int i = 0; i < 200000; ++i) deep += ".a";
  auto key = parse_config("# deep\n" + deep + " = 1\n", "deep.toml");
  REQUIRE_FALSE(key.ok());
  CHECK(key.error().message ==
        "deep.toml:2: a key nested more than 4 levels deep; ibkit's keys are a table and a name, "
        "e.g. [expect] then port_count = 2");
  auto header = parse_config("[" + deep + "]\n", "deep.toml");
  REQUIRE_FALSE(header.ok());
  CHECK_THAT(header.error().message, Catch::StartsWith("deep.toml:1: a key nested more than 4"));
}

TEST_CASE("a non-ASCII character outside strings is refused with file:line, before toml++",
          "[config]") {
  // U+0387 after a value sends toml++ 3.3 to a point it marks unreachable.
  auto config = parse_config("[expect]\nport_count = 2\xCE\x87\n", "greek.toml");
  REQUIRE_FALSE(config.ok());
  CHECK(config.error().message ==
        "greek.toml:2: a non-ASCII character outside a quoted string or comment; TOML allows "
        "them only there: remove it, or quote the value");
  CHECK(parse_config("# r\xC3\xA9seau \xCE\x87\n[expect]\ncpu_governor = \"performance\"\n",
                     "comment.toml")
            .ok());
}

TEST_CASE("a config file that is not a regular file, too large or unreadable is an error",
          "[config]") {
  ibkit::test::GuardedFifo fifo("config-fifo");
  auto from_fifo = ibkit::load_config(fifo.path());
  REQUIRE_FALSE(from_fifo.ok());
  CHECK(from_fifo.error().message ==
        "--config " + fifo.path() + " is a FIFO, not a regular file; give a file");

  auto from_device = ibkit::load_config("/dev/zero");
  REQUIRE_FALSE(from_device.ok());
  CHECK_THAT(from_device.error().message, Catch::Contains("is a character device"));

  // A read error is not an empty (valid) configuration.
  auto unreadable = ibkit::load_config("/proc/self/mem");
  REQUIRE_FALSE(unreadable.ok());
  CHECK(unreadable.error().message == "--config /proc/self/mem: cannot read: Input/output error");

  const auto big = ibkit::test::scratch_path("config-big.toml");
  std::ofstream(big) << std::string((1 << 20) + 1, '#');
  auto too_big = ibkit::load_config(big);
  REQUIRE_FALSE(too_big.ok());
  CHECK(too_big.error().message == "--config " + big.string() +
                                       " is larger than 1 MiB, the most ibkit reads from it; a "
                                       "configuration is a few KiB; give the path of a TOML file");
  std::filesystem::remove(big);
}

TEST_CASE("toml++ reads a string holding a character it cannot be asked about with U+FFFD instead",
          "[config]") {
  // U+0387 inside a string is no hazard to the scan, but the loader gives toml++ none anyway.
  auto config = parse_config("[expect]\nlink_layer = \"Ethern\xCE\x87t\"\n", "ibkit.toml");
  REQUIRE_FALSE(config.ok());
  CHECK_THAT(config.error().message, Catch::Contains("Ethern\xEF\xBF\xBDt"));
  CHECK_THAT(config.error().message, Catch::StartsWith("ibkit.toml:2:"));
}
