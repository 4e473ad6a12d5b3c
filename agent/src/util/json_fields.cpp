#include "util/json_fields.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

namespace ibkit {
namespace {

// 1e+300, 0.5, 10000000: a number as printf's %g writes it.
std::string shortest(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Whether `value` (an integer) is above what an int64_t holds: nlohmann keeps such a number as
// unsigned, and reading it as signed would make it negative.
bool above_int64(const nlohmann::json& value) {
  return value.is_number_unsigned() &&
         value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
}

}  // namespace

JsonFields::JsonFields(const nlohmann::json& object, std::string path)
    : object_(object), path_(std::move(path)), shared_error_(&own_error_) {
  if (!object_.is_object()) fail((path_.empty() ? "the document" : path_) + " is not an object");
}

JsonFields::JsonFields(JsonFields& parent, const nlohmann::json& object, std::string path)
    : object_(object), path_(std::move(path)), shared_error_(parent.shared_error_) {
  if (!object_.is_object()) fail((path_.empty() ? "the document" : path_) + " is not an object");
}

JsonFields::JsonFields(JsonFields& parent, const nlohmann::json& row,
                       std::span<const char* const> columns, std::string path,
                       const RowDefaults* defaults)
    : object_(row),
      columns_(columns),
      defaults_(defaults),
      path_(std::move(path)),
      shared_error_(parent.shared_error_) {
  if (!object_.is_array() || columns_.empty()) fail(path_ + " is not an array");
}

const nlohmann::json* JsonFields::find(const char* key) const {
  if (columns_.empty()) {
    if (!object_.is_object()) return nullptr;
    const auto found = object_.find(key);
    return found == object_.end() ? nullptr : &*found;
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (std::strcmp(columns_[i], key) != 0) continue;
    if (i < object_.size()) return &object_[i];
    return defaults_ != nullptr && i < defaults_->values.size() ? defaults_->values[i] : nullptr;
  }
  return nullptr;
}

bool JsonFields::defaulted(const char* key) const {
  for (std::size_t i = object_.size(); defaults_ != nullptr && i < columns_.size(); ++i) {
    if (std::strcmp(columns_[i], key) == 0)
      return i < defaults_->values.size() && defaults_->values[i] != nullptr;
  }
  return false;
}

void JsonFields::fail(std::string message) {
  if (shared_error_->empty()) *shared_error_ = std::move(message);
}

std::string indexed_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string JsonFields::path_of(const char* key) const {
  if (defaulted(key)) return defaults_->path + "." + key;
  return path_.empty() ? key : path_ + "." + key;
}

const nlohmann::json* JsonFields::member(const char* key,
                                         bool (nlohmann::json::*is_type)() const noexcept,
                                         const char* wanted) {
  if (failed()) return nullptr;
  const auto* found = find(key);
  if (found == nullptr) {
    fail("missing field " + path_of(key));
    return nullptr;
  }
  if (!(found->*is_type)()) {
    fail("field " + path_of(key) + " is not " + wanted);
    return nullptr;
  }
  return found;
}

std::string JsonFields::text(const char* key) {
  const auto* value = member(key, &nlohmann::json::is_string, "a string");
  return value ? value->get<std::string>() : std::string();
}

std::string JsonFields::optional_text(const char* key) {
  const auto* found = find(key);
  if (found == nullptr || found->is_null()) return {};
  return text(key);
}

double JsonFields::number(const char* key) {
  const auto* value = member(key, &nlohmann::json::is_number, "a number");
  return value ? value->get<double>() : 0.0;
}

std::int64_t JsonFields::integer(const char* key) {
  const auto* value = member(key, &nlohmann::json::is_number_integer, "an integer");
  if (value == nullptr) return 0;
  if (above_int64(*value)) {
    fail("field " + path_of(key) + " " + value->dump() + " is above " + std::to_string(INT64_MAX));
    return 0;
  }
  return value->get<std::int64_t>();
}

int JsonFields::integer_in(const char* key, int low, int high) {
  const auto* value = member(key, &nlohmann::json::is_number_integer, "an integer");
  if (value == nullptr) return low;
  if (above_int64(*value) || value->get<std::int64_t>() < low ||
      value->get<std::int64_t>() > high) {
    fail("field " + path_of(key) + " " + value->dump() + " is not " + std::to_string(low) + ".." +
         std::to_string(high));
    return low;
  }
  return static_cast<int>(value->get<std::int64_t>());
}

double JsonFields::number_in(const char* key, double low, double high) {
  const double value = number(key);
  if (failed()) return low;
  if (!(value >= low && value <= high)) {
    fail("field " + path_of(key) + " " + shortest(value) + " is not " + shortest(low) + ".." +
         shortest(high));
    return low;
  }
  return value;
}

std::uint64_t JsonFields::count(const char* key) {
  const auto* value = member(key, &nlohmann::json::is_number_unsigned, "a count (>= 0)");
  return value ? value->get<std::uint64_t>() : 0;
}

bool JsonFields::flag(const char* key) {
  const auto* value = member(key, &nlohmann::json::is_boolean, "true or false");
  return value ? value->get<bool>() : false;
}

const nlohmann::json* JsonFields::optional(const char* key) {
  if (failed()) return nullptr;
  const auto* found = find(key);
  return found == nullptr || found->is_null() ? nullptr : found;
}

const nlohmann::json* JsonFields::array(const char* key) {
  return member(key, &nlohmann::json::is_array, "an array");
}

std::vector<std::string> JsonFields::strings(const char* key) {
  std::vector<std::string> strings;
  const auto* array = this->array(key);
  if (array == nullptr) return strings;
  for (std::size_t i = 0; i < array->size(); ++i) {
    if (!(*array)[i].is_string()) {
      fail("field " + indexed_path(path_of(key), i) + " is not a string");
      return {};
    }
    strings.push_back((*array)[i].get<std::string>());
  }
  return strings;
}

const nlohmann::json* JsonFields::object(const char* key) {
  return member(key, &nlohmann::json::is_object, "an object");
}

}  // namespace ibkit
