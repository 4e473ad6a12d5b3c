// The hostile-input audit's reproducers, run through the built binary as a user would: each
// must end at once with exit 2 and one line naming the file, never a crash, a hang or a
// machine's worth of memory.
#include <chrono>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "guarded_fifo.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"

namespace ibkit {
namespace {

using test::one_line;
using test::run_ibkit;
using test::RunLimits;

// A regressed reader would grow by about 1 GB/s on /dev/zero: cap it well below the machine.
constexpr RunLimits kHostile{10, 1024};

const std::string kFixtures = std::string(ibkit::test::source_dir()) + "/tests/fixtures/reports/";

std::string scratch(const std::string& name) {
  return test::scratch_path("hostile-" + name).string();
}

// The example ibkit.sweep/1 report (every pair an object) with `change` applied, written to a
// scratch file.
template <class Change>
std::string changed_sweep(const std::string& name, Change change) {
  std::ifstream in(kFixtures + "sweep-v1.json");
  auto document = nlohmann::json::parse(in);
  change(document);
  const auto path = scratch(name);
  std::ofstream(path) << document.dump();
  return path;
}

}  // namespace

TEST_CASE("audit 1: a dotted key 200,000 levels deep is exit 2 with file:line, not SIGSEGV",
          "[cli]") {
  const auto path = scratch("deep.toml");
  {
    std::ofstream file(path);
    file << "expect";
    for (int i = 0; i < 200000; ++i) file << ".a";
    file << " = 1\n";
  }
  auto outcome = run_ibkit("check --config " + path + " --config-only", kHostile);
  CHECK(outcome.exit_code == 2);
  CHECK(one_line(outcome.err));
  CHECK_THAT(outcome.err, Catch::StartsWith("ibkit check: " + path + ":1: a key nested more than"));
  std::filesystem::remove(path);
}

TEST_CASE("audit 2: /dev/zero as a config or a report is refused before any read", "[cli]") {
  auto config = run_ibkit("check --config /dev/zero --config-only", kHostile);
  CHECK(config.exit_code == 2);
  CHECK(config.err ==
        "ibkit check: --config /dev/zero is a character device, not a regular file; give a "
        "file\n");
  auto report = run_ibkit("report /dev/zero", kHostile);
  CHECK(report.exit_code == 2);
  CHECK(report.err ==
        "ibkit report: /dev/zero is a character device, not a regular file; give a file\n");
}

TEST_CASE("audit 3: a FIFO as a config or a report input is refused, not waited on", "[cli]") {
  test::GuardedFifo fifo("cli-fifo");
  auto config = run_ibkit("check --config " + fifo.path() + " --config-only", kHostile);
  CHECK(config.exit_code == 2);
  CHECK(config.err ==
        "ibkit check: --config " + fifo.path() + " is a FIFO, not a regular file; give a file\n");
  auto report = run_ibkit("report " + fifo.path(), kHostile);
  CHECK(report.exit_code == 2);
  CHECK(report.err ==
        "ibkit report: " + fifo.path() + " is a FIFO, not a regular file; give a file\n");
}

TEST_CASE("audit 4: a config that cannot be read is an error, not a valid empty one", "[cli]") {
  auto outcome = run_ibkit("check --config /proc/self/mem --config-only", kHostile);
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.out.empty());
  CHECK(outcome.err == "ibkit check: --config /proc/self/mem: cannot read: Input/output error\n");
}

TEST_CASE("audit 5: node names that a spreadsheet would run are written inert into the CSVs",
          "[cli]") {
  const auto input = changed_sweep("formula.json", [](nlohmann::json& document) {
    auto text = document.dump();
    for (auto [from, to] : {std::pair{"\"lab1\"", "\"=HYPERLINK(1)\""},
                            {"\"lab2\"", "\"+1+2\""},
                            {"\"lab3\"", "\"-3\""},
                            {"\"lab4\"", "\"@SUM(A1)\""}}) {
      for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at))
        text.replace(at, std::string(from).size(), to);
    }
    document = nlohmann::json::parse(text);
  });
  const auto dir = scratch("formula-out");
  auto outcome = run_ibkit("report " + input + " --format csv --output " + dir, kHostile);
  CHECK(outcome.exit_code == 1);  // the example sweep fails
  std::ifstream csv(dir + "/latency.csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header == "latency_us,'=HYPERLINK(1),'+1+2,'-3,'@SUM(A1)");
  std::string row;
  std::getline(csv, row);
  CHECK(row == "'=HYPERLINK(1),,1.02,1.07,failed");
  std::filesystem::remove(input);
  std::filesystem::remove_all(dir);
}

TEST_CASE("audit 6: a report naming 30,000 nodes is refused at once, naming the cap", "[cli]") {
  const auto input = changed_sweep("many.json", [](nlohmann::json& document) {
    auto nodes = nlohmann::json::array();
    for (int i = 0; i < 30000; ++i) nodes.push_back("n" + std::to_string(i));
    document["nodes"] = nodes;
    document["pairs"] = nlohmann::json::array();
    document["blamed"] = nlohmann::json::array();
  });
  const auto dir = scratch("many-out");
  const auto start = std::chrono::steady_clock::now();
  auto outcome = run_ibkit("report " + input + " --output " + dir, kHostile);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.err == "ibkit report: " + input +
                           ": field nodes: 30000 nodes; a report holds at most 4096: sweep "
                           "fewer nodes at a time\n");
  CHECK_FALSE(std::filesystem::exists(dir + "/latency.csv"));
  std::filesystem::remove(input);
  std::filesystem::remove_all(dir);
}

TEST_CASE("audit 6: an inconsistent sweep report is exit 2 naming the file and the field",
          "[cli]") {
  struct Case {
    const char* name;
    void (*change)(nlohmann::json&);
    const char* message;
  };
  const Case cases[] = {
      {"ghost", [](nlohmann::json& d) { d["pairs"][0]["a"] = "ghost"; },
       "field pairs[0].a \"ghost\" is not one of nodes"},
      {"repeat", [](nlohmann::json& d) { d["nodes"].push_back("lab1"); },
       "field nodes[4] \"lab1\" repeats nodes[0]"},
      {"round", [](nlohmann::json& d) { d["pairs"][0]["round"] = std::int64_t{1} << 40; },
       "field pairs[0].round 1099511627776 is not 0..3"},
      {"attempts", [](nlohmann::json& d) { d["pairs"][0]["attempts"] = -(std::int64_t{1} << 40); },
       "field pairs[0].attempts -1099511627776 is not 0..2"},
      {"seconds", [](nlohmann::json& d) { d["pairs"][0]["seconds"] = 1e300; },
       "field pairs[0].seconds 1e+300 is not 0..1e+07"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto input = changed_sweep(std::string(c.name) + ".json", c.change);
    auto outcome = run_ibkit("report " + input, kHostile);
    CHECK(outcome.exit_code == 2);
    CHECK(outcome.out.empty());
    CHECK(outcome.err == "ibkit report: " + input + ": " + c.message + "\n");
    std::filesystem::remove(input);
  }
}

}  // namespace ibkit
