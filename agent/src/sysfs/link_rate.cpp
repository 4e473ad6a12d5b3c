#include "sysfs/link_rate.hpp"

#include <array>
#include <cmath>

#include "util/text.hpp"

namespace ibkit {
namespace {

struct LaneSpeed {
  std::string_view name;
  double data_gbps;
};

// Per-lane data rates: SDR/DDR/QDR use 8b/10b, FDR10 onwards 64b/66b (FDR: 14.0625 x 64/66).
constexpr std::array<LaneSpeed, 9> kLaneSpeeds{{
    {"SDR", 2.0},
    {"DDR", 4.0},
    {"QDR", 8.0},
    {"FDR10", 10.0},
    {"FDR", 14.0625 * 64.0 / 66.0},
    {"EDR", 25.0},
    {"HDR", 50.0},
    {"NDR", 100.0},
    {"XDR", 200.0},
}};

}  // namespace

std::optional<double> lane_data_gbps(std::string_view speed) {
  for (const auto& lane : kLaneSpeeds) {
    if (equals_ignoring_case(lane.name, speed)) return lane.data_gbps;
  }
  return std::nullopt;
}

std::optional<LinkRate> parse_link_rate(std::string_view text, bool ethernet_link_layer) {
  LinkRate rate;
  rate.text = std::string(trim(text));
  auto fields = split_whitespace(rate.text);
  if (fields.empty()) return std::nullopt;
  auto nominal = parse_double(fields[0]);
  if (!nominal) return std::nullopt;
  rate.nominal_gbps = *nominal;

  // The parenthesised part: "(4X FDR)", or "(4X)" from kernels that printed no speed for SDR.
  auto open = rate.text.find('(');
  auto close = rate.text.find(')', open == std::string::npos ? 0 : open);
  if (open != std::string::npos && close != std::string::npos) {
    auto inner = split_whitespace(std::string_view(rate.text).substr(open + 1, close - open - 1));
    if (!inner.empty() && inner[0].size() > 1 &&
        (inner[0].back() == 'X' || inner[0].back() == 'x')) {
      auto width = parse_unsigned(std::string_view(inner[0]).substr(0, inner[0].size() - 1));
      if (width && *width > 0 && *width <= 32) rate.width = static_cast<int>(*width);
    }
    rate.speed = inner.size() > 1 ? inner[1] : (rate.width > 0 ? "SDR" : "");
  }

  auto lane = lane_data_gbps(rate.speed);
  if (ethernet_link_layer || rate.width == 0 || !lane) {
    rate.data_gbps = rate.nominal_gbps;
  } else {
    rate.data_gbps = *lane * rate.width;
  }
  return rate;
}

std::optional<double> pcie_data_gbps(std::string_view link_speed, int width) {
  auto fields = split_whitespace(link_speed);
  if (fields.empty() || width <= 0) return std::nullopt;
  auto gts = parse_double(fields[0]);
  if (!gts || *gts <= 0) return std::nullopt;
  // Gen1/2 (2.5, 5 GT/s) use 8b/10b; gen3 onwards 128b/130b.
  double efficiency = *gts <= 5.0 ? 0.8 : 128.0 / 130.0;
  return *gts * efficiency * width;
}

}  // namespace ibkit
