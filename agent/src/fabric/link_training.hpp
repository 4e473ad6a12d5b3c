#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "fabric/fabric_model.hpp"

namespace ibkit {

// A link width or speed, ordered: more lanes, or a faster lane, ranks higher.
struct LinkGrade {
  int rank = 0;      // lanes for a width; 1 (SDR) to 8 (XDR) for a speed
  std::string name;  // "4X", "HDR"
  bool operator<(const LinkGrade& other) const { return rank < other.rank; }
};

// What a port trained to: its active width and speed; nullopt when PortInfo shows none.
std::optional<LinkGrade> active_width(const SubnetPort& port);
std::optional<LinkGrade> active_speed(const SubnetPort& port);

// The widest width and fastest speed both ends have enabled (their supported sets where a port
// reports no enabled one): what a healthy link trains to, and a link with a bad lane or a
// marginal cable trains below. nullopt when the ends have none in common.
std::optional<LinkGrade> best_common_width(const SubnetPort& a, const SubnetPort& b);
std::optional<LinkGrade> best_common_speed(const SubnetPort& a, const SubnetPort& b);

// The widest width and fastest speed a port has enabled (its supported set's where it reports
// none enabled), and those it supports; nullopt when PortInfo shows none.
std::optional<LinkGrade> enabled_width(const SubnetPort& port);
std::optional<LinkGrade> supported_width(const SubnetPort& port);
std::optional<LinkGrade> enabled_speed(const SubnetPort& port);
std::optional<LinkGrade> supported_speed(const SubnetPort& port);

// The ends of a link whose enabled sets hold it back: an end does when the link would train
// higher were that end to enable all it supports, the other end's enabled set as it is (one end
// narrowed to 1X while the other has 4X enabled). Ends narrowed alike hold nothing back by this
// rule, as neither alone does: a fabric whose every port is set alike on purpose, and ibsim's,
// whose ports all claim 12X and QDR whatever they enable.
struct HeldBack {
  LinkGrade reachable;  // what the link trains to once those ends enable all they support
  bool first = false;   // the first end given holds it back
  bool second = false;  // the second one does
};

// The width, or speed, that ends `a` and `b` of a link hold back; nullopt when neither does.
std::optional<HeldBack> width_held_back_by(const SubnetPort& a, const SubnetPort& b);
std::optional<HeldBack> speed_held_back_by(const SubnetPort& a, const SubnetPort& b);

// A width ("4X") or speed ("HDR") by its name, as ibdiagnet's --lw and --ls take them; nullopt
// for a name that is none.
std::optional<LinkGrade> width_named(std::string_view name);
std::optional<LinkGrade> speed_named(std::string_view name);

// The names width_named and speed_named know, for messages: "1X, 2X, 4X, 8X or 12X".
std::string width_names();
std::string speed_names();

// Whether a port's enabled set (what its administrator or firmware allows) is narrower than its
// supported one for the width, or for the speed: the reason a link may train below its best.
bool width_held_back(const SubnetPort& port);
bool speed_held_back(const SubnetPort& port);

}  // namespace ibkit
