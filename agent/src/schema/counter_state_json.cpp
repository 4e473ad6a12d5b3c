#include "schema/counter_state_json.hpp"

#include <nlohmann/json.hpp>

#include "util/bounded_json.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

std::string render_counter_snapshot(const CounterSnapshot& snapshot) {
  nlohmann::ordered_json document;
  document["schema"] = kCounterSnapshotSchema;
  document["host"] = snapshot.host;
  document["boot_id"] = snapshot.boot_id;
  document["taken_at"] = snapshot.taken_at;
  document["ports"] = nlohmann::ordered_json::object();
  for (const auto& [port, counters] : snapshot.ports) document["ports"][port] = counters;
  return document.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Expected<CounterSnapshot> parse_counter_snapshot(std::string_view text) {
  // A state file nests objects three deep; deeper input is not one and is not read further.
  auto parsed = parse_json_within_depth(text, 3);
  if (!parsed) return parsed.error();
  const auto& document = *parsed;

  std::string error;
  JsonFields fields(document, "", &error);
  const auto schema = fields.text("schema");
  if (error.empty() && schema != kCounterSnapshotSchema)
    error = "schema \"" + schema + "\" is not " + kCounterSnapshotSchema;
  CounterSnapshot snapshot;
  snapshot.host = fields.text("host");
  snapshot.boot_id = fields.text("boot_id");
  snapshot.taken_at = fields.integer("taken_at");
  if (error.empty() && snapshot.taken_at < 0) error = "field taken_at is negative";
  const auto* ports = fields.object("ports");
  if (!error.empty()) return Error{error};
  for (const auto& [port, counters] : ports->items()) {
    JsonFields port_fields(*ports, "ports", &error);
    const auto* object = port_fields.object(port.c_str());
    if (!error.empty()) return Error{error};
    auto& kept = snapshot.ports[port];
    JsonFields counter_fields(*object, port_fields.path_of(port.c_str()), &error);
    for (const auto& item : object->items())
      kept[item.key()] = counter_fields.count(item.key().c_str());
    if (!error.empty()) return Error{error};
  }
  return snapshot;
}

}  // namespace ibkit
