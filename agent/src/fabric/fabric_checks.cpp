#include "fabric/fabric_checks.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fabric/link_training.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr const char* kSubnet = "subnet";

std::string manager_text(const Fabric& fabric, const SubnetManager& manager) {
  return port_name(fabric, manager.port) + " (SM GUID " + guid_text(manager.guid) + ", priority " +
         std::to_string(manager.priority) + ")";
}

std::string state_word(SubnetManagerState state) {
  switch (state) {
    case SubnetManagerState::kMaster:
      return "MASTER";
    case SubnetManagerState::kStandby:
      return "STANDBY";
    case SubnetManagerState::kDiscovering:
      return "DISCOVERING";
    case SubnetManagerState::kNotActive:
      break;
  }
  return "NOTACTIVE";
}

std::string port_state_word(int state) {
  switch (state) {
    case kPortStateDown:
      return "DOWN";
    case kPortStateInit:
      return "INIT";
    case kPortStateArmed:
      return "ARMED";
    case kPortStateActive:
      return "ACTIVE";
    default:
      return "state " + std::to_string(state);
  }
}

bool precedes(const FabricPortRef& a, const FabricPortRef& b) {
  return a.node != b.node ? a.node < b.node : a.port < b.port;
}

// Every value used by more than one of `places`, as "WHAT VALUE at A and B".
template <typename Key, typename Text>
void add_repeats(const std::map<Key, std::vector<std::string>>& places, const std::string& what,
                 Text text, std::vector<std::string>& found) {
  for (const auto& [value, where] : places) {
    if (where.size() > 1) found.push_back(what + " " + text(value) + " at " + join(where, " and "));
  }
}

}  // namespace

CheckResult check_subnet_managers(const Fabric& fabric) {
  std::vector<std::string> masters;
  std::vector<std::string> others;
  for (const auto& manager : fabric.managers) {
    if (manager.state == SubnetManagerState::kMaster) {
      masters.push_back(manager_text(fabric, manager));
    } else {
      others.push_back(state_word(manager.state) + " " + manager_text(fabric, manager));
    }
  }
  CheckResult result{"fabric.sm", kSubnet, Status::kPass, "", "exactly one MASTER subnet manager",
                     ""};
  const std::string rest = others.empty() ? "" : "; " + join(others, "; ");
  if (masters.size() == 1) {
    result.observed = "MASTER " + masters.front() + (others.empty() ? "; no other SM" : rest);
    return result;
  }
  result.status = Status::kFail;
  if (masters.empty()) {
    result.observed = fabric.managers.empty() ? "no subnet manager answered" : "no MASTER" + rest;
    result.hint =
        "start one subnet manager: opensm on one node (the opensm role, opensm_enabled on "
        "exactly one host of this fabric) or a managed switch's own; until then no port goes "
        "past INIT";
  } else {
    result.observed = std::to_string(masters.size()) + " MASTERs: " + join(masters, "; ") + rest;
    result.hint =
        "each MASTER runs the subnet as its own (two fabrics joined, or SMs that cannot see each "
        "other's priority): stop all but one, or give them one sm_key and distinct priorities "
        "so the others go STANDBY";
  }
  return result;
}

CheckResult check_duplicates(const Fabric& fabric) {
  std::map<std::uint64_t, std::vector<std::string>> node_guids;
  std::map<std::uint64_t, std::vector<std::string>> port_guids;
  std::map<std::uint16_t, std::vector<std::string>> lids;
  std::vector<std::string> found;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    const FabricNode& node = fabric.nodes[i];
    node_guids[node.guid].push_back(node.description.empty() ? "node " + std::to_string(i)
                                                             : node.description);
    const bool switch_node = node.type == FabricNodeType::kSwitch;
    for (const auto& port : node.ports) {
      const FabricPortRef ref{i, port.number};
      // A switch's ports share port 0's GUID and LID: the switch counts once.
      if (!switch_node || &port == &node.ports.front()) {
        const std::string name = switch_node ? port_name(fabric, {i, 0}) : port_name(fabric, ref);
        if (port.guid != 0) port_guids[port.guid].push_back(name);
        if (port.lid != 0) lids[port.lid].push_back(name);
      }
      if (!port.remote) continue;
      const FabricPort* far = fabric.port_of(*port.remote);
      if (far == nullptr || !far->remote || !(*far->remote == ref)) {
        found.push_back("a link that does not lead back: " + port_name(fabric, ref) + " reaches " +
                        port_name(fabric, *port.remote) + ", which leads elsewhere");
      }
    }
  }
  std::vector<std::string> repeats;
  add_repeats(node_guids, "node GUID", guid_text, repeats);
  add_repeats(port_guids, "port GUID", guid_text, repeats);
  add_repeats(
      lids, "LID", [](std::uint16_t lid) { return std::to_string(lid); }, repeats);
  repeats.insert(repeats.end(), found.begin(), found.end());
  CheckResult result{"fabric.duplicates",
                     kSubnet,
                     Status::kPass,
                     "",
                     "every node GUID, port GUID and LID once",
                     ""};
  if (repeats.empty()) {
    result.observed = std::to_string(node_guids.size()) + " node GUIDs, " +
                      std::to_string(port_guids.size()) + " port GUIDs and " +
                      std::to_string(lids.size()) + " LIDs, each once";
    return result;
  }
  result.status = Status::kFail;
  result.observed = join(repeats, "; ");
  result.hint =
      "two devices answer as one: a GUID copied between devices (a cloned VM's or a "
      "re-flashed card's: give each its own), or LIDs the SM handed out twice (restart it "
      "without its guid2lid cache); discovery cannot tell such devices apart";
  return result;
}

CheckResults check_links(const Fabric& fabric) {
  CheckResults results;
  std::size_t good = 0;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    for (const auto& port : fabric.nodes[i].ports) {
      const FabricPortRef here{i, port.number};
      if (!port.remote || precedes(*port.remote, here)) continue;  // each link once
      const FabricPort* far = fabric.port_of(*port.remote);
      if (far == nullptr) continue;  // fabric.duplicates names it
      const std::string subject =
          port_name(fabric, here) + " <-> " + port_name(fabric, *port.remote);
      if (port.state != kPortStateActive || far->state != kPortStateActive) {
        if (port.state == kPortStateDown && far->state == kPortStateDown) continue;
        results.push_back(
            {"fabric.link", subject, Status::kFail,
             "LinkUp but " + port_state_word(port.state) + " / " + port_state_word(far->state),
             "ACTIVE at both ends",
             "no subnet manager has brought this link up, or the SM stopped before it did: see "
             "fabric.sm, and the SM's log for this port"});
        continue;
      }
      const auto width = std::min(active_width(port), active_width(*far));
      const auto speed = std::min(active_speed(port), active_speed(*far));
      const auto best_width = best_common_width(port, *far);
      const auto best_speed = best_common_speed(port, *far);
      const bool narrow = width && best_width && *width < *best_width;
      const bool slow = speed && best_speed && *speed < *best_speed;
      if (!narrow && !slow) {
        ++good;
        continue;
      }
      std::string hint = narrow ? "a lane is down: reseat or replace the cable or transceiver "
                                  "between these ports, then retrain the link (ibportstate "
                                  "LID PORT reset)"
                                : "";
      if (slow) {
        hint += std::string(narrow ? "; " : "") +
                "the link trained below the speed both ends support: a cable not rated for it, "
                "or errors while training; replace the cable, then retrain";
      }
      for (const FabricPort* end : {&port, far}) {
        if ((narrow && width_held_back(*end)) || (slow && speed_held_back(*end))) {
          hint += "; " + port_name(fabric, end == &port ? here : *port.remote) +
                  " has it held back: its enabled widths or speeds exclude the best (ibportstate)";
        }
      }
      const auto grade = [](const std::optional<LinkGrade>& w, const std::optional<LinkGrade>& s) {
        return (w ? w->name : "?") + " " + (s ? s->name : "?");
      };
      results.push_back(
          {"fabric.link", subject, Status::kFail,
           grade(width, speed) + " (both ends support " + grade(best_width, best_speed) + ")",
           "the widest width and fastest speed both ends support", hint});
    }
  }
  if (good > 0 || results.empty()) {
    results.push_back({"fabric.link", kSubnet, good > 0 ? Status::kPass : Status::kSkip,
                       std::to_string(good) + " link" + (good == 1 ? "" : "s") +
                           " ACTIVE at the best both ends support",
                       "the widest width and fastest speed both ends support", ""});
  }
  return results;
}

CheckResults check_fabric(const Fabric& fabric) {
  CheckResults results{check_subnet_managers(fabric), check_duplicates(fabric)};
  for (auto& result : check_links(fabric)) results.push_back(std::move(result));
  return results;
}

}  // namespace ibkit
