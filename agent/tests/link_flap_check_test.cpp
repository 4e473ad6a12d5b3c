// port.flaps: the link_downed rises between two checks that keep a state file, on fixture trees
// whose counters a test moves between the two; and the state file as hostile input.
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/node_check.hpp"
#include "counter_state_fixture.hpp"
#include "fixture_tree.hpp"
#include "run_ibkit.hpp"
#include "schema/counter_baseline.hpp"
#include "schema/counter_state_json.hpp"
#include "scratch_path.hpp"
#include "util/exit_codes.hpp"
#include "util/files/run_lock.hpp"
#include "util/files/state_turn.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

// The baseline a check ten minutes after `tree`'s counters were kept would load.
CounterBaseline baseline_of(const FixtureTree& tree) { return baseline_after(tree, 600); }

std::string contents_of(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

const CheckResult* flaps_result(const NodeCheck& check) {
  for (const auto& result : check.report.results)
    if (result.id == "port.flaps") return &result;
  return nullptr;
}

}  // namespace

TEST_CASE("port.flaps: no link_downed rise since the previous check passes", "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto baseline = baseline_of(tree);
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.flaps", "mthca0/1");
  CHECK(result.status == Status::kPass);
  CHECK(result.observed == "link_downed +0 in 10 min");
}

TEST_CASE("port.flaps: a link that went down between checks fails, naming the other rises",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto baseline = baseline_of(tree);
  tree.write(kOnePortCounters + "link_downed", "2");
  tree.write(kOnePortCounters + "symbol_error", "3");
  tree.write(kOnePortCounters + "port_xmit_data", "999999");  // traffic is not an error
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.flaps", "mthca0/1");
  CHECK(result.status == Status::kFail);
  CHECK(result.observed == "link_downed +2 in 10 min; also rose: symbol_error +3");
  CHECK_THAT(result.expected, Catch::Contains("[limits] link_flaps"));
  CHECK_THAT(result.hint, Catch::Contains("cable"));
  // Two flaps are well within the counter's lifetime limit: only the flap check sees them.
  CHECK(find_result(run, "port.counters", "mthca0/1").status == Status::kPass);
}

TEST_CASE("port.flaps: [limits] link_flaps allows that many rises, and no more",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto baseline = baseline_of(tree);
  const std::string toml = std::string(kOnePortConfig) + "[limits]\nlink_flaps = 2\n";
  tree.write(kOnePortCounters + "link_downed", "2");
  const auto two = check_against(tree, baseline, toml);
  CHECK(find_result(two, "port.flaps", "mthca0/1").status == Status::kPass);
  tree.write(kOnePortCounters + "link_downed", "3");
  const auto three = check_against(tree, baseline, toml);
  CHECK(find_result(three, "port.flaps", "mthca0/1").status == Status::kFail);
}

TEST_CASE("port.flaps: link_downed stuck at its 8-bit maximum warns that flaps go unseen",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kOnePortCounters + "link_downed", "250");
  const auto baseline = baseline_of(tree);
  tree.write(kOnePortCounters + "link_downed", "255");
  const auto reached = check_against(tree, baseline);
  CHECK(find_result(reached, "port.flaps", "mthca0/1").status == Status::kFail);
  CHECK_THAT(find_result(reached, "port.flaps", "mthca0/1").observed,
             Catch::StartsWith("link_downed +5 or more"));
  const auto stuck = check_against(tree, baseline_of(tree));
  CHECK(find_result(stuck, "port.flaps", "mthca0/1").status == Status::kWarn);
  CHECK_THAT(find_result(stuck, "port.flaps", "mthca0/1").hint, Catch::Contains("perfquery -R"));
}

TEST_CASE("port.flaps: counters reset since the previous check are a new baseline, not a pass",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kOnePortCounters + "link_downed", "7");
  tree.write(kOnePortCounters + "symbol_error", "5");
  const auto baseline = baseline_of(tree);
  tree.write(kOnePortCounters + "link_downed", "7");
  tree.write(kOnePortCounters + "symbol_error", "0");  // perfquery -R, or a driver reload
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.flaps", "mthca0/1");
  CHECK(result.status == Status::kSkip);
  CHECK_THAT(result.hint, Catch::Contains("reset since the previous check (symbol_error 5 -> 0)"));
}

TEST_CASE("port.flaps: a port without a link_downed counter, or new since, is skipped",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  auto baseline = baseline_of(tree);
  baseline.previous->ports.erase("mthca0/1");
  const auto new_port = check_against(tree, baseline);
  CHECK_THAT(find_result(new_port, "port.flaps", "mthca0/1").hint,
             Catch::Contains("not in the previous check"));
  tree.remove(kOnePortCounters + "link_downed");
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.flaps", "mthca0/1");
  CHECK(result.status == Status::kSkip);
  CHECK_THAT(result.hint, Catch::Contains("no readable counters/link_downed"));
}

TEST_CASE(
    "port.flaps and port.error_rate: with no usable previous counters each has one result that "
    "says why",
    "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto state = scratch_path("state.json").string();
  SECTION("the first check") {
    const auto baseline = load_counter_baseline(state, "node1", "boot-a", kEarlier);
    const auto run = check_against(tree, baseline);
    for (const auto* id : {"port.flaps", "port.error_rate"}) {
      CHECK(count_results(run, id, Status::kSkip) == 1);
      CHECK_THAT(find_result(run, id, "").hint, Catch::Contains("no earlier run in " + state));
    }
  }
  SECTION("the state file is not one: a warning, never a pass") {
    write_scratch_file("state.json", "{\"schema\": \"ibkit.counters/1\", \"host\": 1}");
    const auto baseline = load_counter_baseline(state, "node1", "boot-a", kEarlier);
    CHECK(baseline.unreadable);
    const auto run = check_against(tree, baseline);
    CHECK(count_results(run, "port.flaps", Status::kWarn) == 1);
    CHECK(count_results(run, "port.error_rate", Status::kWarn) == 1);
    CHECK_THAT(baseline.why, Catch::Contains("--state " + state + ": field host"));
  }
  std::filesystem::remove(state);
}

TEST_CASE("counter baseline: another host's, another boot's or a future snapshot is not used",
          "[checks][schema]") {
  const auto state = scratch_path("state.json").string();
  CounterSnapshot snapshot{"node1", "boot-a", kEarlier, {{"mlx5_0/1", {{"link_downed", 1}}}}};
  write_scratch_file("state.json", render_counter_snapshot(snapshot));
  CHECK(load_counter_baseline(state, "node1", "boot-a", kEarlier + 60).previous);
  CHECK_THAT(load_counter_baseline(state, "node2", "boot-a", kEarlier).why,
             Catch::Contains("is node1's, not node2's"));
  CHECK_THAT(load_counter_baseline(state, "node1", "boot-b", kEarlier).why,
             Catch::Contains("booted since"));
  CHECK_THAT(load_counter_baseline(state, "node1", "boot-a", kEarlier - 1).why,
             Catch::Contains("clock went back"));
  std::filesystem::remove(state);
}

TEST_CASE(
    "counter snapshot: written and read back with its rate history and hostile files refused "
    "naming the field",
    "[checks][schema]") {
  CounterSnapshot snapshot{
      "node1",
      "boot-a",
      kEarlier,
      {{"mlx5_0/1", {{"link_downed", 3}, {"symbol_error", 18446744073709551615u}}}}};
  auto read = parse_counter_snapshot(render_counter_snapshot(snapshot));
  REQUIRE(read);
  CHECK(read->ports == snapshot.ports);
  CHECK(read->taken_at == kEarlier);
  // Without a rate history the file is ibkit.counters/1, which older releases read too.
  CHECK_THAT(render_counter_snapshot(snapshot), Catch::Contains("\"ibkit.counters/1\""));
  snapshot.rate_history["mlx5_0/1"] = "pdf";
  const auto with_history = render_counter_snapshot(snapshot);
  CHECK_THAT(with_history, Catch::Contains("\"ibkit.counters/2\""));
  read = parse_counter_snapshot(with_history);
  REQUIRE(read);
  CHECK(read->rate_history == snapshot.rate_history);

  const std::pair<const char*, const char*> cases[] = {
      {"", "not JSON"},
      {"[[[[[[[[[[]]]]]]]]]]", "nested deeper than 3 levels"},
      {R"({"schema":"ibkit.check/1"})", "is not ibkit.counters/1"},
      {R"({"schema":"ibkit.counters/1","host":"n","boot_id":"","taken_at":-5,"ports":{}})",
       "taken_at is negative"},
      {R"({"schema":"ibkit.counters/1","host":"n","boot_id":"","taken_at":9223372036854775808,"ports":{}})",
       "field taken_at 9223372036854775808 is above 9223372036854775807"},
      {R"({"schema":"ibkit.counters/1","host":"n","boot_id":"","taken_at":1,"ports":{"a/1":{"link_downed":-1}}})",
       "ports.a/1.link_downed"},
      {R"({"schema":"ibkit.counters/1","host":"n","boot_id":"","taken_at":1,"ports":{"a/1":{"link_downed":1e30}}})",
       "ports.a/1.link_downed"},
      {R"({"schema":"ibkit.counters/1","host":"n","boot_id":"","taken_at":1,"ports":{"a/1":7}})",
       "ports.a/1"},
      {R"({"schema":"ibkit.counters/2","host":"n","boot_id":"","taken_at":1,"ports":{},"rate_history":[]})",
       "rate_history is not an object"},
      {R"({"schema":"ibkit.counters/2","host":"n","boot_id":"","taken_at":1,"ports":{},"rate_history":{"a/1":"px"}})",
       "rate_history.a/1 \"px\" has a letter other than p, d and f"},
      {R"({"schema":"ibkit.counters/2","host":"n","boot_id":"","taken_at":1,"ports":{},"rate_history":{"a/1":3}})",
       "rate_history.a/1"},
      {R"({"schema":"ibkit.counters/3","host":"n","boot_id":"","taken_at":1,"ports":{}})",
       "is not ibkit.counters/1 or ibkit.counters/2"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    auto refused = parse_counter_snapshot(text);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains(message));
  }
}

TEST_CASE("check --state: a flap between two runs fails the second, an unwritable file exits 2",
          "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto config = write_scratch_file("flaps.toml", kOnePortConfig);
  const auto state = scratch_path("counters.json").string();
  const std::string check = "check --root " + tree.path().string() + " --config " + config +
                            " --format json --state " + state;

  auto first = run_ibkit(check);
  CHECK(first.exit_code == 0);
  CHECK(nlohmann::json::parse(first.out)["verdict"] == "pass");
  REQUIRE(std::filesystem::exists(state));

  tree.write(kOnePortCounters + "link_downed", "1");
  auto second = run_ibkit(check);
  CHECK(second.exit_code == 1);
  CHECK_THAT(second.out, Catch::Contains("link_downed +1"));

  auto third = run_ibkit(check);  // nothing rose since the second
  CHECK(third.exit_code == 0);

  auto unwritable = run_ibkit("check --root " + tree.path().string() + " --config " + config +
                              " --state /proc/ibkit-counters.json");
  CHECK(unwritable.exit_code == 2);
  CHECK(one_line(unwritable.err));
  CHECK_THAT(unwritable.err, Catch::StartsWith("ibkit check: --state /proc/ibkit-counters.json"));
  CHECK_THAT(unwritable.out, Catch::Contains("port.flaps"));  // the results are still printed
  std::filesystem::remove(state);
  std::filesystem::remove(config);
}

TEST_CASE(
    "check --state: runs take turns through FILE.lock, and one that waits too long judges "
    "no flaps and leaves the file",
    "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  CheckOptions options;
  options.root = tree.path().string();
  options.config = write_scratch_file("turns.toml", kOnePortConfig);
  options.state = scratch_path("turns.json").string();
  options.state_wait_seconds = 0.2;
  auto first = run_node_check(options);
  REQUIRE(first);
  REQUIRE(first->state_problem.empty());
  const std::string kept = contents_of(options.state);
  tree.write(kOnePortCounters + "link_downed", "1");
  {
    // Another run's turn: the lock held as it holds it.
    LockHolder unused;
    const auto lock_path = ibkit::state_lock_path(options.state);
    REQUIRE(lock_path);
    auto other = wait_for_lock(*lock_path, Deadline::after_seconds(1), unused, "");
    REQUIRE(other);
    REQUIRE(*other);
    auto waited = run_node_check(options);
    REQUIRE(waited);
    CHECK(waited->state_problem == *lock_path + ": another run (pid " + std::to_string(getpid()) +
                                       ") held it for all of 0.2 s; " +
                                       "this run judged no flaps and left " + options.state +
                                       " as it was");
    CHECK(contents_of(options.state) == kept);
    const CheckResult* flaps = flaps_result(*waited);
    REQUIRE(flaps);
    CHECK(flaps->status == Status::kWarn);
    CHECK_THAT(flaps->hint, Catch::Contains("held it for all of 0.2 s"));
  }
  auto after = run_node_check(options);  // its turn now: the flap since the first run
  REQUIRE(after);
  CHECK(after->state_problem.empty());
  CHECK(after->status == kExitFail);
  CHECK(contents_of(options.state) != kept);
  // In a shared directory (the scratch files are in /tmp) a FILE.lock anyone can plant there
  // holds no run off its file: the lock is in this user's own directory.
  write_scratch_file("turns.json.lock", "not a pid\n");
  auto planted = run_node_check(options);
  REQUIRE(planted);
  CHECK(planted->state_problem.empty());
  // A file that is not a lock where that lock must be is named, and so is where it is.
  const std::string own_lock = *ibkit::state_lock_path(options.state);
  std::ofstream(own_lock) << "not a pid\n";
  auto misplaced = run_node_check(options);
  REQUIRE(misplaced);
  CHECK_THAT(misplaced->state_problem,
             Catch::StartsWith(own_lock) &&
                 Catch::EndsWith("move it away: ibkit keeps the lock for --state " + options.state +
                                 " there"));
  std::filesystem::remove(own_lock);
  for (const auto* name : {"turns.json", "turns.json.lock", "turns.toml"})
    std::filesystem::remove(scratch_path(name));
}

TEST_CASE(
    "check --state: in a directory of its owner's the lock is FILE.lock, and one that is "
    "not a lock is named",
    "[checks][schema]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto directory = scratch_path("own-state");
  std::filesystem::create_directories(directory);
  std::filesystem::permissions(directory, std::filesystem::perms::owner_all);
  CheckOptions options;
  options.root = tree.path().string();
  options.config = write_scratch_file("own-state.toml", kOnePortConfig);
  options.state = (directory / "counters.json").string();
  const auto lock_path = ibkit::state_lock_path(options.state);
  REQUIRE(lock_path);
  CHECK(*lock_path == options.state + ".lock");
  std::ofstream(options.state + ".lock") << "not a pid\n";
  auto planted = run_node_check(options);
  REQUIRE(planted);
  CHECK_THAT(planted->state_problem,
             Catch::Contains("not a lock file; move it away: ibkit keeps its lock for --state "
                             "FILE in FILE.lock"));
  std::filesystem::remove_all(directory);
  std::filesystem::remove(options.config);
}
