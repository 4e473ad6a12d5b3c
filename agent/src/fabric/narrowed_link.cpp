#include "fabric/narrowed_link.hpp"

#include <algorithm>
#include <vector>

#include "fabric/link_training.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string grade_name(const std::optional<LinkGrade>& grade) { return grade ? grade->name : "?"; }

// What one end holds back: its width, its speed or both.
struct EndHeld {
  bool width = false;
  bool speed = false;
};

// "enables widths up to 1X of the 4X it supports", "enables widths up to 1X and speeds up to SDR
// of the 4X QDR it supports".
std::string what_it_enables(const SubnetPort& port, EndHeld held) {
  std::vector<std::string> enables;
  std::vector<std::string> supports;
  if (held.width) {
    enables.push_back("widths up to " + grade_name(enabled_width(port)));
    supports.push_back(grade_name(supported_width(port)));
  }
  if (held.speed) {
    enables.push_back("speeds up to " + grade_name(enabled_speed(port)));
    supports.push_back(grade_name(supported_speed(port)));
  }
  return "enables " + join(enables, " and ") + " of the " + join(supports, " ") + " it supports";
}

// "ibportstate 2 7 width 3": what enables all a port supports of what it holds back. A switch's
// ports answer at port 0's LID, as its performance agent does.
std::vector<std::string> enable_commands(const SubnetNode& node, const SubnetPort& port,
                                         EndHeld held) {
  const std::string at = "ibportstate " + std::to_string(performance_agent_lid(node, port)) + " " +
                         std::to_string(port.number);
  std::vector<std::string> commands;
  if (held.width) commands.push_back(at + " width " + std::to_string(port.width_supported));
  if (held.speed && port.speed_ext_enabled != 0 &&
      port.speed_ext_enabled != port.speed_ext_supported)
    commands.push_back(at + " espeed " + std::to_string(port.speed_ext_supported));
  if (held.speed && port.speed_enabled != 0 && port.speed_enabled != port.speed_supported)
    commands.push_back(at + " speed " + std::to_string(port.speed_supported));
  return commands;
}

// How to retrain the link once its ends enable more: from its switch end; a host's port reset by
// LID from elsewhere would cut the way the second half of the reset travels.
std::string retrain_text(const Subnet& fabric, const SubnetPortRef& near,
                         const SubnetPortRef& far) {
  for (const SubnetPortRef& end : {near, far}) {
    const SubnetNode& node = fabric.node_of(end);
    if (node.type == SubnetNodeType::kSwitch)
      return "ibportstate " + std::to_string(performance_agent_lid(node, *fabric.port_of(end))) +
             " " + std::to_string(end.port) + " reset";
  }
  return "on " + node_name(fabric, near.node) + ": ibportstate -D 0 " + std::to_string(near.port) +
         " reset";
}

}  // namespace

std::optional<CheckResult> narrowed_link_warning(const Subnet& fabric, const SubnetPortRef& near,
                                                 const SubnetPortRef& far,
                                                 const std::string& subject,
                                                 NarrowedFigures judged) {
  const SubnetPort& a = *fabric.port_of(near);
  const SubnetPort& b = *fabric.port_of(far);
  const auto width = std::min(active_width(a), active_width(b));
  const auto speed = std::min(active_speed(a), active_speed(b));
  auto width_held = judged.width ? width_held_back_by(a, b) : std::nullopt;
  auto speed_held = judged.speed ? speed_held_back_by(a, b) : std::nullopt;
  // A link that trained to what lifting the ends would give is held back by nothing.
  if (width_held && !(width && *width < width_held->reachable)) width_held.reset();
  if (speed_held && !(speed && *speed < speed_held->reachable)) speed_held.reset();
  if (!width_held && !speed_held) return std::nullopt;

  std::vector<std::string> ends;
  std::vector<std::string> commands;
  bool switch_named = false;
  for (const bool first : {true, false}) {
    const SubnetPortRef& end = first ? near : far;
    const EndHeld held{width_held && (first ? width_held->first : width_held->second),
                       speed_held && (first ? speed_held->first : speed_held->second)};
    if (!held.width && !held.speed) continue;
    const SubnetNode& node = fabric.node_of(end);
    const SubnetPort& port = *fabric.port_of(end);
    ends.push_back(port_name(fabric, end) + " " + what_it_enables(port, held));
    for (auto& command : enable_commands(node, port, held)) commands.push_back(std::move(command));
    switch_named = switch_named || node.type == SubnetNodeType::kSwitch;
  }
  const std::string trained = grade_name(width) + " " + grade_name(speed);
  const std::string reachable = (width_held ? width_held->reachable.name : grade_name(width)) +
                                " " + (speed_held ? speed_held->reachable.name : grade_name(speed));
  return CheckResult{
      "fabric.link",
      subject,
      Status::kWarn,
      trained + " (both ends support " + reachable + ")",
      "ACTIVE at " + reachable + ", as both ends support",
      join(ends, "; ") + ": unless narrowed on purpose, enable the rest (" + join(commands, "; ") +
          (switch_named ? "; a managed switch's own port configuration may have set it: "
                          "change it there too"
                        : "") +
          "), then retrain the link (" + retrain_text(fabric, near, far) + ")"};
}

}  // namespace ibkit
