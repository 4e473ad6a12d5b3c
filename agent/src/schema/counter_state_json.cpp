#include "schema/counter_state_json.hpp"

#include <nlohmann/json.hpp>

#include "util/files/bounded_json.hpp"
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
void read_rate_history(JsonFields& fields, std::map<std::string, std::string>& out) {
  const auto* histories = fields.optional("rate_history");
  if (histories == nullptr || fields.failed()) return;
  if (!histories->is_object()) {
    fields.fail("field rate_history is not an object");
    return;
  }
  JsonFields history_fields(fields, *histories, "rate_history");
  for (const auto& item : histories->items()) {
    auto history = history_fields.text(item.key().c_str());
    if (history_fields.failed()) return;
    if (auto problem = history_problem(history_fields.path_of(item.key().c_str()), history);
        !problem.empty()) {
      history_fields.fail(std::move(problem));
      return;
    }
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

  JsonFields fields(document, "");
  const auto schema = fields.text("schema");
  if (!fields.failed() && schema != kCounterSnapshotSchema &&
      schema != kCounterSnapshotSchemaWithHistory)
    fields.fail("schema \"" + schema + "\" is not " + kCounterSnapshotSchema + " or " +
                kCounterSnapshotSchemaWithHistory);
  CounterSnapshot snapshot;
  snapshot.host = fields.text("host");
  snapshot.boot_id = fields.text("boot_id");
  snapshot.taken_at = fields.integer("taken_at");
  if (!fields.failed() && snapshot.taken_at < 0) fields.fail("field taken_at is negative");
  const auto* ports = fields.object("ports");
  if (schema == kCounterSnapshotSchemaWithHistory) read_rate_history(fields, snapshot.rate_history);
  if (fields.failed()) return Error{fields.error()};
  for (const auto& [port, counters] : ports->items()) {
    JsonFields port_fields(fields, *ports, "ports");
    const auto* object = port_fields.object(port.c_str());
    if (fields.failed()) return Error{fields.error()};
    auto& kept = snapshot.ports[port];
    JsonFields counter_fields(fields, *object, port_fields.path_of(port.c_str()));
    for (const auto& item : object->items())
      kept[item.key()] = counter_fields.count(item.key().c_str());
    if (fields.failed()) return Error{fields.error()};
  }
  return snapshot;
}

}  // namespace ibkit
