// The JSON field reader every schema reader is built on: the first error of a reading is kept,
// and a nested reader shares it with the reader it reads inside of.
#include "util/json_fields.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using ibkit::JsonFields;

TEST_CASE("json fields: the first missing or mistyped field is the error, later reads default",
          "[util]") {
  const auto document = nlohmann::json::parse(R"({"name": 5, "count": 3})");
  JsonFields fields(document, "");
  CHECK(fields.text("name").empty());
  CHECK(fields.failed());
  CHECK(fields.error() == "field name is not a string");
  // After the first error every read returns its default and the error stays the first.
  CHECK(fields.count("count") == 0);
  CHECK(fields.text("missing").empty());
  fields.fail("a later problem");
  CHECK(fields.error() == "field name is not a string");
}

TEST_CASE("json fields: a nested reader's error is its parent's, named by its path", "[util]") {
  const auto document = nlohmann::json::parse(R"({"tests": [{"bytes": -1}], "after": "x"})");
  JsonFields fields(document, "");
  const auto* tests = fields.array("tests");
  REQUIRE(tests != nullptr);
  {
    JsonFields test(fields, (*tests)[0], ibkit::indexed_path("tests", 0));
    CHECK(test.count("bytes") == 0);
    CHECK(test.error() == "field tests[0].bytes is not a count (>= 0)");
  }
  CHECK(fields.failed());
  CHECK(fields.error() == "field tests[0].bytes is not a count (>= 0)");
  CHECK(fields.text("after").empty());  // the outer reading stops too

  // A value that is not an object fails where it is met, once.
  const auto list = nlohmann::json::parse("[1, 2]");
  JsonFields not_object(list, "");
  CHECK(not_object.error() == "the document is not an object");
  JsonFields nested(not_object, list, "inner");
  CHECK(not_object.error() == "the document is not an object");
}

TEST_CASE("json fields: integers in a range name the field, its value and the range", "[util]") {
  const auto document = nlohmann::json::parse(R"({"rail": 70, "seconds": 1e300})");
  JsonFields rail(document, "sweep");
  CHECK(rail.integer_in("rail", 0, 63) == 0);
  CHECK(rail.error() == "field sweep.rail 70 is not 0..63");
  JsonFields seconds(document, "");
  CHECK(seconds.number_in("seconds", 0, 86400) == 0);
  CHECK(seconds.error() == "field seconds 1e+300 is not 0..86400");
}

TEST_CASE("json fields: a row is read by its columns' names, errors named by the row's path",
          "[util]") {
  static constexpr const char* kColumns[] = {"a", "status", "seconds", "latency_us"};
  const auto document = nlohmann::json::parse(R"({"pairs": [[3, "pass", 2.5, null], [4, 7]]})");
  JsonFields top(document, "");
  const auto& rows = *top.array("pairs");

  JsonFields first(top, rows[0], kColumns, "pairs[0]");
  CHECK(first.integer_in("a", 0, 10) == 3);
  CHECK(first.text("status") == "pass");
  CHECK(first.number("seconds") == 2.5);
  CHECK(first.optional("latency_us") == nullptr);
  CHECK(first.optional("not_a_column") == nullptr);
  CHECK_FALSE(top.failed());

  // A shorter row lacks its last columns: optional there, missing where required.
  JsonFields second(top, rows[1], std::span(kColumns, 3), "pairs[1]");
  CHECK(second.optional("seconds") == nullptr);
  CHECK(second.text("status").empty());
  CHECK(top.error() == "field pairs[1].status is not a string");

  const auto object = nlohmann::json::parse(R"({"a": 1})");
  JsonFields outer(object, "");
  JsonFields not_a_row(outer, object, kColumns, "pairs[2]");
  CHECK(outer.error() == "pairs[2] is not an array");
}

TEST_CASE("json fields: a row's left-out last columns read from its defaults, named there",
          "[util]") {
  static constexpr const char* kColumns[] = {"a", "status", "reason", "attempts"};
  const auto document = nlohmann::json::parse(
      R"({"defaults": {"reason": 0, "attempts": "once"}, "pairs": [[3, "pass"], [4, "slow", 2, 2]]})");
  JsonFields top(document, "");
  const auto& defaults = *top.object("defaults");
  const nlohmann::json* values[] = {nullptr, nullptr, &defaults["reason"], &defaults["attempts"]};
  const ibkit::RowDefaults row_defaults{values, "defaults"};
  const auto& rows = *top.array("pairs");

  // The row that has them reads its own.
  JsonFields full(top, rows[1], kColumns, "pairs[1]", &row_defaults);
  CHECK(full.integer_in("reason", 0, 9) == 2);
  CHECK(full.integer_in("attempts", 0, 2) == 2);
  CHECK_FALSE(top.failed());

  JsonFields short_row(top, rows[0], kColumns, "pairs[0]", &row_defaults);
  CHECK(short_row.text("status") == "pass");
  CHECK(short_row.integer_in("reason", 0, 9) == 0);
  CHECK_FALSE(top.failed());
  // A wrong default is an error of the defaults, not of the row that took it.
  CHECK(short_row.integer_in("attempts", 0, 2) == 0);
  CHECK(top.error() == "field defaults.attempts is not an integer");
}

TEST_CASE("json fields: a row may not leave out a column that has no default", "[util]") {
  static constexpr const char* kColumns[] = {"a", "status", "reason"};
  const auto document = nlohmann::json::parse(R"({"pairs": [[3]]})");
  JsonFields top(document, "");
  const auto reason = nlohmann::json(0);
  const nlohmann::json* values[] = {nullptr, nullptr, &reason};
  const ibkit::RowDefaults row_defaults{values, "defaults"};
  JsonFields row(top, (*top.array("pairs"))[0], kColumns, "pairs[0]", &row_defaults);
  CHECK(row.integer_in("reason", 0, 9) == 0);
  CHECK(row.text("status").empty());
  CHECK(top.error() == "missing field pairs[0].status");
}
