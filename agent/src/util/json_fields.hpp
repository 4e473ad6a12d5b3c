#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ibkit {

// Reads the fields of one JSON object written by an ibkit report writer. The first field that
// is missing or of the wrong type is remembered as the error, named by its path
// ("tests[1].verbs.sizes[0].bytes"), and every later read returns a default: a reader reads
// everything it needs, then asks error() once.
// The path of an array element: "tests" + 1 gives "tests[1]".
std::string indexed_path(const std::string& path, std::size_t index);

// The values a row's last columns hold when the row leaves them out, read from `path`
// ("pair_defaults"): an error in one names it there, not in the row.
struct RowDefaults {
  std::span<const nlohmann::json* const> values;  // one a column; nullptr: no default
  std::string path;
};

class JsonFields {
 public:
  // Reads `object` at `path` ("" for a whole document).
  JsonFields(const nlohmann::json& object, std::string path);
  // Reads `object`, a value inside what `parent` reads, at `path`: the two share one error, so
  // a nested reader's error stops the outer reads too, and the outer reader asks for it once.
  JsonFields(JsonFields& parent, const nlohmann::json& object, std::string path);
  // Reads `row`, an array inside what `parent` reads whose values `columns` names in order, at
  // `path`: its fields read as an object's would, without building one (a report's rows are half
  // a million). A row shorter than `columns` lacks the last ones, or takes them from `defaults`.
  JsonFields(JsonFields& parent, const nlohmann::json& row, std::span<const char* const> columns,
             std::string path, const RowDefaults* defaults = nullptr);
  // A nested reader points at its parent's error: neither may be copied or moved.
  JsonFields(const JsonFields&) = delete;
  JsonFields& operator=(const JsonFields&) = delete;

  // Whether a read failed; error() says which and why ("missing field tests[1].verbs").
  bool failed() const { return !shared_error_->empty(); }
  const std::string& error() const { return *shared_error_; }
  // Records `message` as the error unless one is recorded already: a check of a reader's own
  // (a value out of its range, a name it does not know) fails the reading like a missing field.
  void fail(std::string message);

  std::string text(const char* key);
  // A string that older reports lack: "" when missing or null, the error when not a string.
  std::string optional_text(const char* key);
  double number(const char* key);
  // An integer of 64 bits; 2^63 and above is an error, never a negative number.
  std::int64_t integer(const char* key);
  // An integer in low..high; outside it, the error names the field, its value as written and
  // the range (a corrupt report must not wrap 2^40 to 0, nor make a renderer loop over
  // billions).
  int integer_in(const char* key, int low, int high);
  // A number in low..high, likewise (1e300 seconds is a corrupt report, not a slow pair).
  double number_in(const char* key, double low, double high);
  std::uint64_t count(const char* key);
  bool flag(const char* key);
  // The member when it is present and not null; nullptr otherwise (no error).
  const nlohmann::json* optional(const char* key);
  // An array member; nullptr (and the error) when missing or not an array.
  const nlohmann::json* array(const char* key);
  // An array of strings; the error names the first element that is not one.
  std::vector<std::string> strings(const char* key);
  // An object member; nullptr (and the error) when missing or not an object.
  const nlohmann::json* object(const char* key);
  // The path of a member, for nested readers: "tests[1]" + ".verbs".
  std::string path_of(const char* key) const;

 private:
  const nlohmann::json* member(const char* key, bool (nlohmann::json::*is_type)() const noexcept,
                               const char* wanted);

  // The member named `key`, or nullptr.
  const nlohmann::json* find(const char* key) const;
  // Whether `key` is a column this row leaves out and its defaults hold.
  bool defaulted(const char* key) const;
  const nlohmann::json& object_;
  std::span<const char* const> columns_;  // a row's names; empty when object_ is an object
  const RowDefaults* defaults_ = nullptr;
  std::string path_;
  std::string own_error_;
  std::string* shared_error_;  // own_error_, or the outermost reader's
};

}  // namespace ibkit
