#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "guarded_fifo.hpp"
#include "schedule/hosts.hpp"
#include "scratch_path.hpp"
#include "sweep/host_lookup.hpp"

namespace {

std::string hosts_file(const std::string& content) {
  return ibkit::test::write_scratch_file("hosts", content);
}

}  // namespace

TEST_CASE("a hosts file: addresses, names, ports and comments", "[schedule]") {
  auto hosts = ibkit::read_hosts_file(hosts_file("# the lab\n10.0.0.1\n"
                                                 "node2 10.0.0.2:19000  # own port\n"
                                                 "\n   [fe80::1%ib0]:18600\nfe80::2\n"),
                                      18515);
  REQUIRE(hosts.ok());
  REQUIRE(hosts->size() == 4);
  CHECK((*hosts)[0].name == "10.0.0.1");
  CHECK((*hosts)[0].port == 18515);
  CHECK((*hosts)[1].name == "node2");
  CHECK((*hosts)[1].address == "10.0.0.2");
  CHECK((*hosts)[1].port == 19000);
  CHECK((*hosts)[2].address == "fe80::1%ib0");
  CHECK((*hosts)[2].port == 18600);
  CHECK((*hosts)[3].address == "fe80::2");
  CHECK((*hosts)[3].port == 18515);
}

TEST_CASE("hosts file errors name the file and line", "[schedule]") {
  auto error_of = [](const std::string& content) {
    const auto path = hosts_file(content);
    auto hosts = ibkit::read_hosts_file(path, 18515);
    REQUIRE_FALSE(hosts.ok());
    return hosts.error().message.substr(path.size());
  };
  CHECK(error_of("a 10.0.0.1\nb 10.0.0.2 extra\n") ==
        ":2: expected ADDRESS[:PORT] or NAME ADDRESS[:PORT], got 3 fields");
  CHECK(error_of("a 10.0.0.1\na 10.0.0.2\n") == ":2: node \"a\" is listed twice");
  CHECK_THAT(error_of("10.0.0.1\nb 10.0.0.1\n"),
             Catch::StartsWith(":2: 10.0.0.1:18515 reaches the same agent as ") &&
                 Catch::EndsWith(":1 (10.0.0.1:18515); list each node once"));
  CHECK(error_of("10.0.0.1:0\n") == ":1: port \"0\" is not 1..65535");
  CHECK(error_of("10.0.0.1:\n") == ":1: port \"\" is not 1..65535");
  CHECK(error_of("x 10.0.0.1;rm\n") == ":1: \"10.0.0.1;rm\" is not a host name or address");
  CHECK(error_of("10.0.0.1\n") == ": a sweep needs at least two nodes, got 1");
}

TEST_CASE("one agent under two spellings is refused, naming both lines", "[schedule]") {
  // a 127.0.0.1 and b 127.1 were two nodes, and the pair a-b drove one agent against itself,
  // failing "busy".
  auto refused = [](const std::string& content) {
    const auto path = hosts_file(content);
    auto hosts = ibkit::read_hosts_file(path, 18515);
    INFO(content);
    REQUIRE_FALSE(hosts.ok());
    return hosts.error().message;
  };
  const auto path = ibkit::test::scratch_path("hosts").string();
  CHECK(refused("a 127.0.0.1:22001\nb 127.1:22001\n") ==
        path + ":2: 127.1:22001 reaches the same agent as " + path +
            ":1 (127.0.0.1:22001); list each node once");
  CHECK_THAT(refused("a 10.0.0.1\nb ::ffff:10.0.0.1\n"), Catch::Contains("same agent"));
  CHECK_THAT(refused("a fe80::1%ib0\nb FE80:0:0::1%ib0\n"), Catch::Contains("same agent"));
  CHECK_THAT(refused("a Node1.Example\nb node1.example.\n"), Catch::Contains("same agent"));
  CHECK_THAT(refused("a 10.0.0.1\nb 0x0a.0.0.1\n"), Catch::Contains("same agent"));
  // Other ports, or other scopes of a link-local address, are other agents.
  CHECK(ibkit::read_hosts_file(hosts_file("a 127.0.0.1:22001\nb 127.1:22002\n"), 18515).ok());
  CHECK(ibkit::read_hosts_file(hosts_file("a fe80::1%ib0\nb fe80::1%ib1\n"), 18515).ok());
  auto listed = ibkit::parse_hosts_list("127.0.0.1:22001,127.1:22001", 18515);
  REQUIRE_FALSE(listed.ok());
  CHECK_THAT(listed.error().message, Catch::Contains("reaches the same agent as --hosts entry 1"));
}

TEST_CASE("the unspecified address is no node's, in every spelling", "[schedule]") {
  // 0.0.0.0:P beside 127.0.0.1:P were two nodes, and their pair drove one agent against
  // itself, failing "busy": a connect to 0.0.0.0 reaches the machine ibkit runs on.
  for (const char* content : {"a 0.0.0.0:22001\nb 127.0.0.1:22001\n", "a 0\nb 10.0.0.2\n",
                              "a [::]:22001\nb [::1]:22001\n", "a ::ffff:0.0.0.0\nb 10.0.0.2\n"}) {
    INFO(content);
    auto hosts = ibkit::read_hosts_file(hosts_file(content), 18515);
    REQUIRE_FALSE(hosts.ok());
    CHECK_THAT(hosts.error().message,
               Catch::Contains(":1: \"") && Catch::Contains("is the unspecified address"));
  }
  auto listed = ibkit::parse_hosts_list("0.0.0.0:22001,127.0.0.1:22001", 18515);
  REQUIRE_FALSE(listed.ok());
  CHECK_THAT(listed.error().message, Catch::StartsWith("--hosts entry 1: \"0.0.0.0\" is the "
                                                       "unspecified address"));
  CHECK(ibkit::parse_hosts_list("10.0.0.0,10.0.0.1", 18515).ok());
}

TEST_CASE("a node whose name looks up to the unspecified address is refused before a round",
          "[sweep]") {
  const std::vector<ibkit::SweepHost> hosts = {{"a", "0.0.0.0", 22001}, {"b", "127.0.0.1", 22001}};
  auto looked_up = ibkit::look_up_hosts(hosts, ibkit::Deadline::after_seconds(5));
  REQUIRE_FALSE(looked_up.ok());
  CHECK_THAT(looked_up.error().message,
             Catch::StartsWith("node a (0.0.0.0:22001): its address 0.0.0.0 is the unspecified"));
  CHECK(ibkit::look_up_hosts({{"a", "127.0.0.1", 22001}, {"b", "127.0.0.1", 22002}},
                             ibkit::Deadline::after_seconds(5))
            .ok());
}

TEST_CASE("a hosts file that is not a regular file or is too large is refused at once",
          "[schedule]") {
  ibkit::test::GuardedFifo fifo("hosts-fifo");
  auto from_fifo = ibkit::read_hosts_file(fifo.path(), 18515);
  REQUIRE_FALSE(from_fifo.ok());
  CHECK(from_fifo.error().message ==
        "hosts file " + fifo.path() + " is a FIFO, not a regular file; give a file");

  const auto big = hosts_file(std::string((4 << 20) + 1, '#'));
  auto too_big = ibkit::read_hosts_file(big, 18515);
  REQUIRE_FALSE(too_big.ok());
  CHECK(too_big.error().message == "hosts file " + big +
                                       " is larger than 4 MiB, the most ibkit reads from it; "
                                       "give one node per line, at most 4096 nodes");
}

// A file with three mistakes was refused for the first; fixed, for the second; and so on.
TEST_CASE("every mistake of a hosts file or list is named in one run, on one line", "[schedule]") {
  const auto path =
      hosts_file("a 10.0.0.1\nb 10.0.0.2 extra\na 10.0.0.3\nc 10.0.0.4:0\nd 10.0.0.5\n");
  auto hosts = ibkit::read_hosts_file(path, 18515);
  REQUIRE_FALSE(hosts.ok());
  CHECK(hosts.error().message ==
        path + ":2: expected ADDRESS[:PORT] or NAME ADDRESS[:PORT], got 3 fields; " + path +
            ":3: node \"a\" is listed twice; " + path + ":4: port \"0\" is not 1..65535");

  std::string many;
  for (int i = 0; i < 8; ++i)
    many += "n" + std::to_string(i) + " 10.0.0." + std::to_string(i) + ":x\n";
  const auto seven = hosts_file(many);
  auto more = ibkit::read_hosts_file(seven, 18515);
  REQUIRE_FALSE(more.ok());
  CHECK_THAT(more.error().message,
             Catch::StartsWith(seven + ":1: port \"x\" is not 1..65535; ") &&
                 Catch::EndsWith(seven + ":5: port \"x\" is not 1..65535; and 3 more"));
  CHECK(more.error().message.find('\n') == std::string::npos);

  auto list = ibkit::parse_hosts_list("127.0.0.1,,127.0.0.2:0,b=x;y", 18515);
  REQUIRE_FALSE(list.ok());
  CHECK(list.error().message ==
        "--hosts entry 2: empty; --hosts entry 3: port \"0\" is not 1..65535; --hosts entry 4: "
        "\"x;y\" is not a host name or address");
}

TEST_CASE("a hosts file of more than 4096 nodes is refused at the line that exceeds it",
          "[schedule]") {
  std::string text;
  for (int i = 0; i <= 4096; ++i)
    text += "n" + std::to_string(i) + " 127.0.0.1:" + std::to_string(10000 + i) + "\n";
  const auto path = hosts_file(text);
  auto hosts = ibkit::read_hosts_file(path, 18515);
  REQUIRE_FALSE(hosts.ok());
  CHECK(hosts.error().message == path + ":4097: more than 4096 nodes");
}

TEST_CASE("a --hosts list: NAME=ADDRESS[:PORT] entries", "[schedule]") {
  auto hosts = ibkit::parse_hosts_list("a=127.0.0.1:20001, 127.0.0.1:20002,b=::1", 18515);
  REQUIRE(hosts.ok());
  REQUIRE(hosts->size() == 3);
  CHECK((*hosts)[0].name == "a");
  CHECK((*hosts)[0].port == 20001);
  CHECK((*hosts)[1].name == "127.0.0.1:20002");  // told apart from others on 127.0.0.1
  CHECK((*hosts)[2].address == "::1");
  CHECK((*hosts)[2].port == 18515);

  auto bad = ibkit::parse_hosts_list("127.0.0.1,,127.0.0.2", 18515);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "--hosts entry 2: empty");
  auto lone = ibkit::parse_hosts_list("127.0.0.1", 18515);
  REQUIRE_FALSE(lone.ok());
  CHECK(lone.error().message == "--hosts: a sweep needs at least two nodes, got 1");
}
