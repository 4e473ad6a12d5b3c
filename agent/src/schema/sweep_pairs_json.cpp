#include "schema/sweep_pairs_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "model/kept_figure.hpp"
#include "model/pair_report_ends.hpp"
#include "model/pair_warnings.hpp"
#include "model/sweep_report.hpp"
#include "schema/check_report_json.hpp"
#include "schema/pair_report_json.hpp"
#include "schema/sweep_pair_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The order of a row's values (ibkit.sweep/3); a reader finds a column by its name here. The
// columns that hold the same value in most rows come last, so that a row can leave them out
// (pair_defaults); rail stays near the front, as a sweep of 8 rails spreads its pairs evenly.
// clang-format off
constexpr std::array<const char*, 13> kPairColumns = {
    "a", "b", "rail", "round", "seconds", "latency_us", "bandwidth_gbps", "bandwidth_a_to_b_gbps",
    "bandwidth_b_to_a_gbps", "status", "reason", "rule", "attempts"};
// ibkit.sweep/2's order, every value in every row; a report written before the bandwidth each
// way has the first 11 columns only.
constexpr std::array<const char*, 13> kPairColumnsV2 = {
    "a", "b", "rail", "round", "status", "reason", "rule", "attempts", "seconds", "latency_us",
    "bandwidth_gbps", "bandwidth_a_to_b_gbps", "bandwidth_b_to_a_gbps"};
// clang-format on
constexpr std::size_t kColumnsBeforeEachWay = 11;

// To a thousandth: a row's seconds (a millisecond), and ibkit.sweep/2's figures. As kept_figure,
// the same after a second rounding, and a value that is not finite or above 1e12 as it is.
double thousandths(double value) {
  if (!std::isfinite(value) || std::fabs(value) > 1e12) return value;
  return std::round(value * 1000) / 1000;
}

// How a schema's rows are read.
struct RowLayout {
  std::span<const char* const> columns;
  std::size_t least_columns;  // a row holds at least these; pair_defaults the rest
  const RowDefaults* defaults;
  double (*round)(double);  // how the rows round a figure
};

ordered_json rounded(std::optional<double> value, double (*round)(double)) {
  if (!value) return nullptr;
  return round(*value);
}

// Hands out each distinct text's index into a table, the first seen first.
class Interned {
 public:
  int index_of(const std::string& text) {
    const auto [found, added] = indices_.try_emplace(text, static_cast<int>(texts_.size()));
    if (added) texts_.push_back(text);
    return found->second;
  }
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  std::unordered_map<std::string, int> indices_;
  std::vector<std::string> texts_;
};

// A value of a row as the JSON writer writes it rounded: the shortest digits that read back the
// same, ".0" on a whole number, null when there is none. Written by hand: half a million rows
// built as JSON values, then dumped, were a tenth of `ibkit report --format json`'s time.
void append_figure(std::string& out, std::optional<double> value, double (*round)(double)) {
  const ordered_json shown = rounded(value, round);
  if (!shown.is_number_float() || !std::isfinite(shown.get<double>()) ||
      std::fabs(shown.get<double>()) > 1e12) {
    out += compact_json(shown);
    return;
  }
  char text[64];
  const auto written =
      std::to_chars(text, text + sizeof text, shown.get<double>(), std::chars_format::fixed);
  const std::string_view digits(text, static_cast<std::size_t>(written.ptr - text));
  out += digits;
  if (digits.find('.') == std::string_view::npos) out += ".0";
}

// The node's index in the report's nodes, or null.
std::string node_text(const std::unordered_map<std::string, int>& nodes, const std::string& node) {
  const auto found = nodes.find(node);
  return found == nodes.end() ? std::string("null") : std::to_string(found->second);
}

std::string rule_text(const PairRules& rules) {
  return rules.recorded ? '"' + pair_rules_name(rules) + '"' : std::string("null");
}

// A row's values as JSON text, in kPairColumns' order (or its columns' defaults, "" where none).
using RowText = std::array<std::string, kPairColumns.size()>;

// The index of a column in kPairColumns; its size when there is none of that name.
std::size_t column(std::string_view name) {
  return static_cast<std::size_t>(std::find(kPairColumns.begin(), kPairColumns.end(), name) -
                                  kPairColumns.begin());
}

// Status and rule names are ibkit's own words: nothing to escape.
void fill_row(RowText& row, const SweepPair& pair,
              const std::unordered_map<std::string, int>& nodes, Interned& reasons) {
  const auto figures = pair_figures(pair);
  std::size_t i = 0;
  row[i++] = node_text(nodes, pair.a);
  row[i++] = node_text(nodes, pair.b);
  row[i++] = std::to_string(pair.rail);
  row[i++] = std::to_string(pair.round);
  row[i].clear();
  append_figure(row[i++], pair.seconds, thousandths);
  for (const auto value :
       {figures.latency_us, figures.bandwidth_gbps, figures.a_to_b_gbps, figures.b_to_a_gbps}) {
    row[i].clear();
    append_figure(row[i++], value, kept_figure);
  }
  row[i++] = '"' + std::string(pair_status_name(pair.status)) + '"';
  row[i++] = std::to_string(reasons.index_of(pair.reason));
  row[i++] = rule_text(pair.rules);
  row[i++] = std::to_string(pair.attempts);
}

// What a row leaves out when it holds it (pair_defaults): no bandwidth from b to a (a one-way
// test), a pass, no reason, the rule most pairs were judged by, one attempt. A passing row of a
// one-way sweep ends at its bandwidth from a to b, 24 bytes shorter.
RowText pair_defaults(const std::vector<SweepPair>& pairs) {
  std::map<std::string, std::size_t> rules;
  for (const auto& pair : pairs) ++rules[rule_text(pair.rules)];
  const auto most = std::max_element(
      rules.begin(), rules.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
  RowText defaults;
  defaults[column("bandwidth_b_to_a_gbps")] = "null";
  defaults[column("status")] = "\"pass\"";
  defaults[column("reason")] = "0";
  defaults[column("rule")] = most == rules.end() ? "null" : most->first;
  defaults[column("attempts")] = "1";
  return defaults;
}

std::string defaults_json(const RowText& defaults) {
  std::string out = "{";
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    if (defaults[i].empty()) continue;
    if (out.size() > 1) out += ',';
    out += '"' + std::string(kPairColumns[i]) + "\":" + defaults[i];
  }
  return out + "}";
}

// Appends `row`, its last values left out while they are their column's default.
void append_row(std::string& out, const RowText& row, const RowText& defaults) {
  std::size_t size = row.size();
  while (size > 0 && row[size - 1] == defaults[size - 1]) --size;
  out += '[';
  for (std::size_t i = 0; i < size; ++i) {
    if (i > 0) out += ',';
    out += row[i];
  }
  out += ']';
}

CheckResults warn_results(const PairWarning& warned) {
  CheckResults results;
  for (const auto* result : warned.results) results.push_back(*result);
  return results;
}

std::optional<double> optional_number(JsonFields& fields, const char* key) {
  const auto* value = fields.optional(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number()) {
    fields.fail("field " + fields.path_of(key) + " is not a number or null");
    return std::nullopt;
  }
  return value->get<double>();
}

// ibkit.sweep/2's rows: all of kPairColumnsV2 in every row, or the first 11 of an older report.
RowLayout layout_v2(JsonFields& fields) {
  const RowLayout layout{kPairColumnsV2, kPairColumnsV2.size(), nullptr, thousandths};
  const auto* columns = fields.array("pair_columns");
  if (columns == nullptr) return layout;
  const std::size_t count = columns->size();
  bool same = count == kPairColumnsV2.size() || count == kColumnsBeforeEachWay;
  for (std::size_t i = 0; same && i < count; ++i)
    same = (*columns)[i].is_string() && (*columns)[i].get<std::string>() == kPairColumnsV2[i];
  if (!same)
    fields.fail("field pair_columns is not " + json(kPairColumnsV2).dump() + " (ibkit.sweep/2)");
  return same ? RowLayout{std::span(kPairColumnsV2.data(), count), count, nullptr, thousandths}
              : layout;
}

// ibkit.sweep/3's pair_columns must be kPairColumns; `values` gets each column's value in
// pair_defaults (nullptr where it has none). A row holds every column up to the last without
// one.
std::size_t read_layout(JsonFields& fields, std::array<const json*, kPairColumns.size()>* values) {
  const auto* columns = fields.array("pair_columns");
  if (columns != nullptr && *columns != json(kPairColumns))
    fields.fail("field pair_columns is not " + json(kPairColumns).dump());
  values->fill(nullptr);
  const auto* defaults = fields.object("pair_defaults");
  if (defaults != nullptr) {
    for (auto it = defaults->begin(); it != defaults->end(); ++it) {
      const std::size_t i = column(it.key());
      if (i == kPairColumns.size()) {
        fields.fail("field pair_defaults." + it.key().substr(0, 60) +
                    " is not one of pair_columns");
      } else {
        (*values)[i] = &*it;
      }
    }
  }
  std::size_t least = values->size();
  while (least > 0 && (*values)[least - 1] != nullptr) --least;
  return least;
}

std::vector<std::string> read_reasons(JsonFields& fields) {
  std::vector<std::string> reasons;
  const auto* array = fields.array("reasons");
  for (std::size_t i = 0; array != nullptr && i < array->size() && !fields.failed(); ++i) {
    if (!(*array)[i].is_string()) {
      fields.fail("field " + indexed_path("reasons", i) + " is not a string");
      break;
    }
    reasons.push_back((*array)[i].get<std::string>());
  }
  return reasons;
}

SweepPair read_row(JsonFields& parent, const json& row, const std::string& path,
                   const SweepReport& report, const std::vector<std::string>& reasons,
                   const RowLayout& layout) {
  SweepPair pair;
  const std::size_t most = layout.columns.size();
  if (!row.is_array() || row.size() < layout.least_columns || row.size() > most) {
    parent.fail("field " + path + " is not an array of " +
                (layout.least_columns == most
                     ? std::to_string(most) + " values (pair_columns)"
                     : std::to_string(layout.least_columns) + " to " + std::to_string(most) +
                           " values (pair_columns, pair_defaults)"));
    return pair;
  }
  // By name, so the error says "pairs[3].status" and the field readers are the v1 ones.
  JsonFields fields(parent, row, layout.columns, path, layout.defaults);
  const int last_node = static_cast<int>(report.nodes.size()) - 1;
  const int a = fields.integer_in("a", 0, last_node);
  const int b = fields.integer_in("b", 0, last_node);
  const int reason = fields.integer_in("reason", 0, static_cast<int>(reasons.size()) - 1);
  read_pair_outcome(fields, report.rails, report.rounds, &pair);
  pair.figures.latency_us = optional_number(fields, "latency_us");
  pair.figures.bandwidth_gbps = optional_number(fields, "bandwidth_gbps");
  pair.figures.a_to_b_gbps = optional_number(fields, "bandwidth_a_to_b_gbps");
  pair.figures.b_to_a_gbps = optional_number(fields, "bandwidth_b_to_a_gbps");
  if (fields.failed()) return pair;
  pair.a = report.nodes[static_cast<std::size_t>(a)];
  pair.b = report.nodes[static_cast<std::size_t>(b)];
  pair.reason = reasons[static_cast<std::size_t>(reason)];
  return pair;
}

// Where a pair report's figures differ from those its row states ("" when they agree): a row
// holds what pair_figures made of the pair's report, rounded, so a report moved to another
// pair's row (by hand, or by a tool that merges reports) shows in the figures. A column the row
// left null is not compared: an older report has no figures each way. `round` is the rows'
// rounding: ibkit.sweep/2's thousandths, rounded again as kept_figure, could be a digit off.
std::string figures_differ(const PairFigures& row, const PairFigures& report,
                           double (*round)(double)) {
  const std::array<std::tuple<const char*, std::optional<double>, std::optional<double>>, 4>
      columns = {{{"latency_us", row.latency_us, report.latency_us},
                  {"bandwidth_gbps", row.bandwidth_gbps, report.bandwidth_gbps},
                  {"bandwidth_a_to_b_gbps", row.a_to_b_gbps, report.a_to_b_gbps},
                  {"bandwidth_b_to_a_gbps", row.b_to_a_gbps, report.b_to_a_gbps}}};
  for (const auto& [column, stated, measured] : columns) {
    if (!stated || rounded(stated, round) == rounded(measured, round)) continue;
    return std::string(column) + " " + rounded(measured, round).dump() + " where its row has " +
           rounded(stated, round).dump();
  }
  return "";
}

// Runs `read(fields of the element, the pair it names)` on each element of the array `key`.
template <class Read>
void for_each_pair_entry(JsonFields& fields, const char* key, SweepReport* report, Read read) {
  const auto* array = fields.array(key);
  const int last_pair = static_cast<int>(report->pairs.size()) - 1;
  for (std::size_t i = 0; array != nullptr && i < array->size() && !fields.failed(); ++i) {
    JsonFields entry(fields, (*array)[i], indexed_path(key, i));
    const int pair = entry.integer_in("pair", 0, last_pair);
    if (!entry.failed()) read(entry, report->pairs[static_cast<std::size_t>(pair)]);
  }
}

// Reads the rows of `layout`, then the warnings and details beside them.
void read_pairs(JsonFields& fields, const RowLayout& layout, SweepReport* report) {
  const auto reasons = read_reasons(fields);
  const auto* rows = fields.array("pairs");
  // Grown by doubling, a million pairs would hold the old and the new copy at once.
  if (rows != nullptr && !fields.failed()) report->pairs.reserve(rows->size());
  for (std::size_t i = 0; rows != nullptr && i < rows->size() && !fields.failed(); ++i) {
    report->pairs.push_back(
        read_row(fields, (*rows)[i], indexed_path("pairs", i), *report, reasons, layout));
  }
  for_each_pair_entry(fields, "warnings", report, [&](JsonFields& entry, SweepPair& pair) {
    const auto* results = entry.array("results");
    if (results == nullptr) return;
    auto read = results_from_json(*results);
    if (!read) {
      entry.fail(entry.path_of("results") + ": " + read.error().message);
    } else {
      pair.warnings = std::move(*read);
    }
  });
  const SweepNodeNames names(report->nodes);
  for_each_pair_entry(fields, "details", report, [&](JsonFields& entry, SweepPair& pair) {
    const auto* object = entry.object("report");
    if (object == nullptr) return;
    if (pair.report) {
      entry.fail("field " + entry.path_of("pair") + " repeats the report of " + pair.a + " -> " +
                 pair.b + " rail " + std::to_string(pair.rail));
      return;
    }
    auto read = pair_report_from_json(*object);
    if (!read) {
      entry.fail(entry.path_of("report") + ": " + read.error().message);
      return;
    }
    pair.report = std::move(*read);
    if (const auto differ = figures_differ(pair.figures, pair_figures(pair), layout.round);
        !differ.empty()) {
      entry.fail("field " + entry.path_of("report") + " is not the report of " + pair.a + " -> " +
                 pair.b + " rail " + std::to_string(pair.rail) + ": it has " + differ);
    } else if (const auto misfiled = names.misfiled(pair, *pair.report); !misfiled.empty()) {
      // A row with no figures (a pair that never measured) gives nothing away: its ends do.
      entry.fail("field " + entry.path_of("report") + ": " + misfiled);
    }
  });
  const auto omitted = fields.count("details_omitted");
  if (!fields.failed() && omitted > report->pairs.size()) {
    fields.fail("field details_omitted " + std::to_string(omitted) + " is more than the " +
                std::to_string(report->pairs.size()) + " pairs");
  }
  report->details_omitted = omitted;
}

}  // namespace

void write_sweep_pairs(const SweepReport& report, JsonObjectWriter& writer,
                       std::size_t max_details) {
  writer.member("pair_columns", kPairColumns);
  const RowText defaults = pair_defaults(report.pairs);
  writer.begin_member("pair_defaults") += defaults_json(defaults);
  std::unordered_map<std::string, int> nodes;
  for (std::size_t i = 0; i < report.nodes.size(); ++i)
    nodes.emplace(report.nodes[i], static_cast<int>(i));
  Interned reasons;
  reasons.index_of("");
  std::string rows = "[";
  RowText row;
  for (const auto& pair : report.pairs) {
    if (rows.size() > 1) rows += ",\n";
    fill_row(row, pair, nodes, reasons);
    append_row(rows, row, defaults);
  }
  rows += "]";
  writer.member("reasons", reasons.texts());
  writer.begin_member("pairs") += rows;

  auto warnings = ordered_json::array();
  const auto warned = warned_pairs(report);
  for (const auto& pair : warned) {
    warnings.push_back(
        {{"pair", pair.pair - report.pairs.data()}, {"results", results_json(warn_results(pair))}});
  }
  writer.member("warnings", warnings);

  auto details = ordered_json::array();
  std::size_t omitted = report.details_omitted;
  std::size_t next_warned = 0;
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    const auto& pair = report.pairs[i];
    const bool has_warning = next_warned < warned.size() && warned[next_warned].pair == &pair;
    if (has_warning) ++next_warned;
    if (!pair.report || (pair.status == PairStatus::kPass && !has_warning)) continue;
    if (details.size() < max_details) {
      details.push_back({{"pair", i}, {"report", pair_report_json(*pair.report)}});
    } else {
      ++omitted;
    }
  }
  writer.member("details", details);
  // A hand-made file can claim more left out than there are pairs; no pair is left out twice.
  writer.member("details_omitted", std::min(omitted, report.pairs.size()));
}

void read_sweep_pairs(JsonFields& fields, SweepReport* report) {
  std::array<const json*, kPairColumns.size()> values{};
  const std::size_t least = read_layout(fields, &values);
  const RowDefaults defaults{values, "pair_defaults"};
  read_pairs(fields, RowLayout{kPairColumns, least, &defaults, kept_figure}, report);
}

void read_sweep_pairs_v2(JsonFields& fields, SweepReport* report) {
  read_pairs(fields, layout_v2(fields), report);
}

}  // namespace ibkit
