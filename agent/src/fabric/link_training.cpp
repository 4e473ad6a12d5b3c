#include "fabric/link_training.hpp"

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

std::optional<LinkGrade> best_common_width(const SubnetPort& a, const SubnetPort& b) {
  return highest(kWidths, allowed(a.width_enabled, a.width_supported) &
                              allowed(b.width_enabled, b.width_supported));
}

std::optional<LinkGrade> best_common_speed(const SubnetPort& a, const SubnetPort& b) {
  if (auto extended =
          highest(kExtendedSpeeds, allowed(a.speed_ext_enabled, a.speed_ext_supported) &
                                       allowed(b.speed_ext_enabled, b.speed_ext_supported)))
    return extended;
  return highest(kSpeeds, allowed(a.speed_enabled, a.speed_supported) &
                              allowed(b.speed_enabled, b.speed_supported));
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
