#include "sweep_rows.hpp"

#include <stdexcept>

namespace ibkit::test {
namespace {

std::size_t column_index(const nlohmann::json& document, const std::string& column) {
  const auto& columns = document.at("pair_columns");
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return i;
  throw std::invalid_argument("no column " + column + " in pair_columns");
}

}  // namespace

nlohmann::json row_value(const nlohmann::json& document, std::size_t row,
                         const std::string& column) {
  const auto& values = document.at("pairs").at(row);
  const std::size_t i = column_index(document, column);
  return i < values.size() ? values[i] : document.at("pair_defaults").at(column);
}

void set_row_value(nlohmann::json& document, std::size_t row, const std::string& column,
                   nlohmann::json value) {
  const std::size_t i = column_index(document, column);
  auto& values = document.at("pairs").at(row);
  while (values.size() <= i) {
    const auto& name = document["pair_columns"][values.size()].get_ref<const std::string&>();
    values.push_back(document.at("pair_defaults").at(name));
  }
  values[i] = std::move(value);
}

nlohmann::json as_sweep_v2(const nlohmann::json& document, bool each_way) {
  // clang-format off
  const nlohmann::json columns = {
      "a", "b", "rail", "round", "status", "reason", "rule", "attempts", "seconds", "latency_us",
      "bandwidth_gbps", "bandwidth_a_to_b_gbps", "bandwidth_b_to_a_gbps"};
  // clang-format on
  const std::size_t count = each_way ? columns.size() : 11;
  nlohmann::json v2 = document;
  v2["schema"] = "ibkit.sweep/2";
  v2.erase("pair_defaults");
  v2["pair_columns"] = nlohmann::json::array();
  for (std::size_t i = 0; i < count; ++i) v2["pair_columns"].push_back(columns[i]);
  for (std::size_t row = 0; row < document.at("pairs").size(); ++row) {
    auto& values = v2["pairs"][row];
    values = nlohmann::json::array();
    for (std::size_t i = 0; i < count; ++i)
      values.push_back(row_value(document, row, columns[i].get<std::string>()));
  }
  return v2;
}

}  // namespace ibkit::test
