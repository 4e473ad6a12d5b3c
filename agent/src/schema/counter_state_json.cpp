#include "schema/counter_state_json.hpp"

#include <nlohmann/json.hpp>

#include "util/bounded_json.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

// A history is a few letters (checks/rate_history.hpp keeps 5); more is not one ibkit wrote.
constexpr std::size_t kMaxHistoryLetters = 64;

std::string history_problem(const std::string& path, const std::string& history) {
  if (history.size() > kMaxHistoryLetters)
    return "field " + path + " is longer than " + std::to_string(kMaxHistoryLetters) + " letters";
  if (history.find_first_not_of("pdf") != std::string::npos)
    return "field " + path + " \"" + history + "\" has a letter other than p, d and f";
  return "";
}

// "rate_history": {port: "ppd"}, which ibkit.counters/1 files do not have.
void read_rate_history(JsonFields& fields, std::map<std::string, std::string>& out,
                       std::string& error) {
  const auto* histories = fields.optional("rate_history");
  if (histories == nullptr || !error.empty()) return;
  if (!histories->is_object()) {
    error = "field rate_history is not an object";
    return;
  }
  JsonFields history_fields(*histories, "rate_history", &error);
  for (const auto& item : histories->items()) {
    auto history = history_fields.text(item.key().c_str());
    if (!error.empty()) return;
    error = history_problem(history_fields.path_of(item.key().c_str()), history);
    if (!error.empty()) return;
    out[item.key()] = std::move(history);
  }
}

}  // namespace

std::string render_counter_snapshot(const CounterSnapshot& snapshot) {
  nlohmann::ordered_json document;
  document["schema"] =
      snapshot.rate_history.empty() ? kCounterSnapshotSchema : kCounterSnapshotSchemaWithHistory;
  document["host"] = snapshot.host;
  document["boot_id"] = snapshot.boot_id;
  document["taken_at"] = snapshot.taken_at;
  document["ports"] = nlohmann::ordered_json::object();
  for (const auto& [port, counters] : snapshot.ports) document["ports"][port] = counters;
  if (!snapshot.rate_history.empty()) document["rate_history"] = snapshot.rate_history;
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
  if (error.empty() && schema != kCounterSnapshotSchema &&
      schema != kCounterSnapshotSchemaWithHistory)
    error = "schema \"" + schema + "\" is not " + kCounterSnapshotSchema + " or " +
            kCounterSnapshotSchemaWithHistory;
  CounterSnapshot snapshot;
  snapshot.host = fields.text("host");
  snapshot.boot_id = fields.text("boot_id");
  snapshot.taken_at = fields.integer("taken_at");
  if (error.empty() && snapshot.taken_at < 0) error = "field taken_at is negative";
  const auto* ports = fields.object("ports");
  if (schema == kCounterSnapshotSchemaWithHistory)
    read_rate_history(fields, snapshot.rate_history, error);
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
