#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace ibkit::test {

// A report.json's pair rows read and changed by their columns' names (pair_columns), a value a
// row leaves out read from pair_defaults: a test names the field it means, not its place.

// The value of `column` in pairs[row]: its own, or its column's default.
nlohmann::json row_value(const nlohmann::json& document, std::size_t row,
                         const std::string& column);

// Sets `column` of pairs[row] to `value`, first writing out the values the row left out before
// it.
void set_row_value(nlohmann::json& document, std::size_t row, const std::string& column,
                   nlohmann::json value);

// The ibkit.sweep/3 `document` as ibkit.sweep/2 wrote a report: every value of every row, in
// its order; with `each_way` false, as before the bandwidth each way (11 columns).
nlohmann::json as_sweep_v2(const nlohmann::json& document, bool each_way = true);

}  // namespace ibkit::test
