#include "fabric/link_training.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace ibkit {
namespace {

struct Grade {
  unsigned bit;
  int rank;
  const char* name;
};

// PortInfo LinkWidth bits, and the lanes each stands for.
constexpr std::array<Grade, 5> kWidths{
    {{1, 1, "1X"}, {16, 2, "2X"}, {2, 4, "4X"}, {4, 8, "8X"}, {8, 12, "12X"}}};
// LinkSpeed (base) and LinkSpeedExt bits, slowest first.
constexpr std::array<Grade, 3> kSpeeds{{{1, 1, "SDR"}, {2, 2, "DDR"}, {4, 3, "QDR"}}};
constexpr std::array<Grade, 5> kExtendedSpeeds{
    {{1, 4, "FDR"}, {2, 5, "EDR"}, {4, 6, "HDR"}, {8, 7, "NDR"}, {16, 8, "XDR"}}};

template <std::size_t N>
std::optional<LinkGrade> highest(const std::array<Grade, N>& grades, unsigned mask) {
  std::optional<LinkGrade> best;
  for (const auto& grade : grades) {
    if ((mask & grade.bit) != 0 && (!best || best->rank < grade.rank))
      best = LinkGrade{grade.rank, grade.name};
  }
  return best;
}

// What a port will train to: its enabled set, or its supported one when it reports none enabled.
unsigned allowed(unsigned enabled, unsigned supported) {
  return enabled != 0 ? enabled : supported;
}

// The widths a port may train to: all it supports when `lifted`, else what it allows now.
unsigned width_mask(const SubnetPort& port, bool lifted) {
  return lifted ? port.width_supported : allowed(port.width_enabled, port.width_supported);
}

// The widest width two ends have in common, either end `lifted` to all it supports.
std::optional<LinkGrade> common_width(const SubnetPort& a, bool lift_a, const SubnetPort& b,
                                      bool lift_b) {
  return highest(kWidths, width_mask(a, lift_a) & width_mask(b, lift_b));
}

// The fastest speed two ends have in common, as common_width: an extended one when they share
// any, else a base one.
std::optional<LinkGrade> common_speed(const SubnetPort& a, bool lift_a, const SubnetPort& b,
                                      bool lift_b) {
  auto ext = [](const SubnetPort& port, bool lifted) {
    return lifted ? port.speed_ext_supported
                  : allowed(port.speed_ext_enabled, port.speed_ext_supported);
  };
  auto base = [](const SubnetPort& port, bool lifted) {
    return lifted ? port.speed_supported : allowed(port.speed_enabled, port.speed_supported);
  };
  if (auto extended = highest(kExtendedSpeeds, ext(a, lift_a) & ext(b, lift_b))) return extended;
  return highest(kSpeeds, base(a, lift_a) & base(b, lift_b));
}

// Which of a link's ends hold back what `common` finds they share (common_width or
// common_speed, given which ends to lift).
template <typename Common>
std::optional<HeldBack> held_back_by(Common common) {
  const auto now = common(false, false);
  const auto lift_first = common(true, false);
  const auto lift_second = common(false, true);
  HeldBack held;
  held.first = now < lift_first;
  held.second = now < lift_second;
  if (!held.first && !held.second) return std::nullopt;
  // An enabled set with bits its supported set lacks could lose them when lifted: the best of
  // the three, never below what lifting one end alone gives.
  held.reachable = *std::max({held.first ? lift_first : now, held.second ? lift_second : now,
                              common(held.first, held.second)});
  return held;
}

template <std::size_t N>
std::optional<LinkGrade> named(const std::array<Grade, N>& grades, std::string_view name) {
  for (const auto& grade : grades) {
    if (name == grade.name) return LinkGrade{grade.rank, grade.name};
  }
  return std::nullopt;
}

// "SDR, DDR or QDR".
template <std::size_t N>
std::string names(const std::array<Grade, N>& grades) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) {
    text += i == 0 ? "" : i + 1 == N ? " or " : ", ";
    text += grades[i].name;
  }
  return text;
}

}  // namespace

std::optional<LinkGrade> active_width(const SubnetPort& port) {
  return highest(kWidths, port.width_active);
}

std::optional<LinkGrade> active_speed(const SubnetPort& port) {
  if (auto extended = highest(kExtendedSpeeds, port.speed_ext_active)) return extended;
  return highest(kSpeeds, port.speed_active);
}

std::optional<LinkGrade> enabled_width(const SubnetPort& port) {
  return highest(kWidths, width_mask(port, false));
}

std::optional<LinkGrade> supported_width(const SubnetPort& port) {
  return highest(kWidths, width_mask(port, true));
}

std::optional<LinkGrade> enabled_speed(const SubnetPort& port) {
  return common_speed(port, false, port, false);
}

std::optional<LinkGrade> supported_speed(const SubnetPort& port) {
  return common_speed(port, true, port, true);
}

std::optional<LinkGrade> best_common_width(const SubnetPort& a, const SubnetPort& b) {
  return common_width(a, false, b, false);
}

std::optional<LinkGrade> best_common_speed(const SubnetPort& a, const SubnetPort& b) {
  return common_speed(a, false, b, false);
}

std::optional<HeldBack> width_held_back_by(const SubnetPort& a, const SubnetPort& b) {
  return held_back_by([&](bool lift_a, bool lift_b) { return common_width(a, lift_a, b, lift_b); });
}

std::optional<HeldBack> speed_held_back_by(const SubnetPort& a, const SubnetPort& b) {
  return held_back_by([&](bool lift_a, bool lift_b) { return common_speed(a, lift_a, b, lift_b); });
}

std::optional<LinkGrade> width_named(std::string_view name) { return named(kWidths, name); }

std::optional<LinkGrade> speed_named(std::string_view name) {
  if (auto base = named(kSpeeds, name)) return base;
  return named(kExtendedSpeeds, name);
}

std::string width_names() { return names(kWidths); }

std::string speed_names() {
  std::string base = names(kSpeeds);
  return base.substr(0, base.rfind(" or ")) + ", " + base.substr(base.rfind(" or ") + 4) + ", " +
         names(kExtendedSpeeds);
}

bool width_held_back(const SubnetPort& port) {
  return port.width_enabled != 0 &&
         highest(kWidths, port.width_enabled) < highest(kWidths, port.width_supported);
}

bool speed_held_back(const SubnetPort& port) {
  const bool base = port.speed_enabled != 0 &&
                    highest(kSpeeds, port.speed_enabled) < highest(kSpeeds, port.speed_supported);
  const bool extended =
      port.speed_ext_supported != 0 && highest(kExtendedSpeeds, port.speed_ext_enabled) <
                                           highest(kExtendedSpeeds, port.speed_ext_supported);
  return base || extended;
}

}  // namespace ibkit
