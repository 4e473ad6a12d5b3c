#include "schema/json_object_writer.hpp"

#include <nlohmann/json.hpp>

#include "schema/json_text.hpp"

namespace ibkit {

std::string compact_json(const nlohmann::ordered_json& value) {
  return json_controls_escaped(
      value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

JsonObjectWriter::JsonObjectWriter(std::string* out) : out_(out) { *out_ += '{'; }

std::string& JsonObjectWriter::begin_member(std::string_view key) {
  if (!first_) *out_ += ',';
  first_ = false;
  *out_ += compact_json(std::string(key));
  *out_ += ':';
  return *out_;
}

void JsonObjectWriter::member(std::string_view key, const nlohmann::ordered_json& value) {
  begin_member(key) += compact_json(value);
}

void JsonObjectWriter::close() { *out_ += "}\n"; }

}  // namespace ibkit
