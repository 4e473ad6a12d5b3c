// How reports become JSON text: the indented file, the compact writer member by member, and the
// control characters no terminal should receive raw.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "schema/json_object_writer.hpp"
#include "schema/json_text.hpp"

using namespace ibkit;

TEST_CASE("report json text: indented, one newline at the end, bad bytes replaced", "[schema]") {
  nlohmann::ordered_json document;
  document["host"] = std::string("lab\xff", 4);
  document["n"] = 1;
  const std::string text = report_json_text(document);
  CHECK(text.back() == '\n');
  CHECK(text.find("\n  \"host\"") != std::string::npos);
  CHECK(nlohmann::json::parse(text)["n"] == 1);
  CHECK(text.find('\xff') == std::string::npos);
}

TEST_CASE("json controls: DEL and C1 written as escapes that read back as the same string",
          "[schema]") {
  const std::string raw = std::string("a\x7f") + "\xc2\x9b" + "[2Jb";
  const std::string written = json_controls_escaped(nlohmann::json(raw).dump());
  CHECK(written.find('\x7f') == std::string::npos);
  CHECK(written.find("\xc2\x9b") == std::string::npos);
  CHECK(written.find("\\u007f") != std::string::npos);
  CHECK(written.find("\\u009b") != std::string::npos);
  CHECK(nlohmann::json::parse(written).get<std::string>() == raw);
}

TEST_CASE("json object writer: members in order, compact, closed with a newline", "[schema]") {
  std::string out;
  JsonObjectWriter writer(&out);
  writer.member("a", 1);
  writer.begin_member("b") += compact_json(nlohmann::ordered_json::array({1, 2}));
  writer.member("c", std::string("x\x01y"));
  writer.close();
  CHECK(out == "{\"a\":1,\"b\":[1,2],\"c\":\"x\\u0001y\"}\n");
  CHECK(compact_json(nlohmann::ordered_json{{"k", std::string("\xff")}}).find('\xff') ==
        std::string::npos);
}
