#pragma once

#include <optional>
#include <string>

#include "fabric/fabric_model.hpp"

namespace ibkit {

// A link width or speed, ordered: more lanes, or a faster lane, ranks higher.
struct LinkGrade {
  int rank = 0;      // lanes for a width; 1 (SDR) to 8 (XDR) for a speed
  std::string name;  // "4X", "HDR"
  bool operator<(const LinkGrade& other) const { return rank < other.rank; }
};

// What a port trained to: its active width and speed; nullopt when PortInfo shows none.
std::optional<LinkGrade> active_width(const FabricPort& port);
std::optional<LinkGrade> active_speed(const FabricPort& port);

// The widest width and fastest speed both ends support, what a healthy link trains to; nullopt
// when they have none in common (or a port reports no supported set).
std::optional<LinkGrade> best_common_width(const FabricPort& a, const FabricPort& b);
std::optional<LinkGrade> best_common_speed(const FabricPort& a, const FabricPort& b);

// Whether a port's enabled set (what its administrator or firmware allows) is narrower than its
// supported one for the width, or for the speed: the reason a link may train below its best.
bool width_held_back(const FabricPort& port);
bool speed_held_back(const FabricPort& port);

}  // namespace ibkit
