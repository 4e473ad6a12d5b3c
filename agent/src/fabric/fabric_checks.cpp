#include "fabric/fabric_checks.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fabric/link_training.hpp"
#include "fabric/narrowed_link.hpp"
#include "fabric/port_error_check.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr const char* kSubnet = "subnet";

std::string manager_text(const Subnet& fabric, const SubnetManager& manager) {
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

bool precedes(const SubnetPortRef& a, const SubnetPortRef& b) {
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

std::string grade_text(const std::optional<LinkGrade>& width,
                       const std::optional<LinkGrade>& speed) {
  return (width ? width->name : "?") + " " + (speed ? speed->name : "?");
}

// The higher of what the ends have enabled and what is expected of every link.
std::optional<LinkGrade> wanted(const std::optional<LinkGrade>& best,
                                const std::optional<LinkGrade>& expected) {
  if (!expected) return best;
  if (!best) return expected;
  return std::max(*best, *expected);
}

// "4X HDR", "4X", "HDR": what --link-width and --link-speed ask of every link.
std::string expectation_text(const LinkExpectation& expected) {
  if (expected.width.empty() || expected.speed.empty()) return expected.width + expected.speed;
  return expected.width + " " + expected.speed;
}

// One ACTIVE link's ends, and what it should reach.
struct ActiveLink {
  const Subnet& fabric;
  SubnetPortRef here;
  const SubnetPort& port;
  const SubnetPort& far;
};

// What a link trained to (the lower end's figure) and the best both its ends have enabled.
struct LinkGrades {
  std::optional<LinkGrade> width, speed, best_width, best_speed;
};

LinkGrades grades_of(const ActiveLink& link) {
  return {std::min(active_width(link.port), active_width(link.far)),
          std::min(active_speed(link.port), active_speed(link.far)),
          best_common_width(link.port, link.far), best_common_speed(link.port, link.far)};
}

// What to do about a link below what it should reach: a fault on the way when it trained below
// what both ends have enabled; the end that holds it back when only the expectation is unmet.
std::string link_hint(const ActiveLink& link, const LinkGrades& g, bool narrow, bool slow) {
  const bool lane_down = narrow && g.best_width && *g.width < *g.best_width;
  const bool trained_slow = slow && g.best_speed && *g.speed < *g.best_speed;
  std::vector<std::string> hints;
  if (lane_down) {
    hints.push_back(
        "a lane is down: reseat or replace the cable or transceiver between these ports, then "
        "retrain the link (ibportstate LID PORT reset)");
  }
  if (trained_slow) {
    hints.push_back(
        "the link trained below the speed both ends have enabled: a cable not rated for it, or "
        "errors while training; replace the cable, then retrain");
  }
  const bool below_expected =
      (narrow && g.best_width && !lane_down) || (slow && g.best_speed && !trained_slow);
  if (below_expected) {
    std::vector<std::string> ends;
    for (const SubnetPort* end : {&link.port, &link.far}) {
      if ((narrow && width_held_back(*end)) || (slow && speed_held_back(*end)))
        ends.push_back(port_name(link.fabric, end == &link.port ? link.here : *link.port.remote));
    }
    hints.push_back(ends.empty()
                        ? "the ports cannot reach what is expected of every link: a "
                          "slower card, switch or cable in the path"
                        : join(ends, " and ") + (ends.size() == 1 ? " has its" : " have their") +
                              " enabled widths or speeds set below what they support: "
                              "set them back (ibportstate) and retrain");
  }
  return join(hints, "; ");
}

// The failure of an ACTIVE link below the best its ends have enabled or below `expected`;
// nullopt when it reaches both.
std::optional<CheckResult> judge_active_link(const ActiveLink& link, const std::string& subject,
                                             const LinkExpectation& expected) {
  const LinkGrades g = grades_of(link);
  const auto want_width = wanted(g.best_width, width_named(expected.width));
  const auto want_speed = wanted(g.best_speed, speed_named(expected.speed));
  const bool narrow = g.width && want_width && *g.width < *want_width;
  const bool slow = g.speed && want_speed && *g.speed < *want_speed;
  if (!narrow && !slow) return std::nullopt;
  const bool expectation = !expectation_text(expected).empty();
  return CheckResult{"fabric.link",
                     subject,
                     Status::kFail,
                     grade_text(g.width, g.speed) + " (" +
                         (expectation ? "expected " : "both ends enabled for ") +
                         grade_text(want_width, want_speed) + ")",
                     "ACTIVE at " + grade_text(want_width, want_speed),
                     link_hint(link, g, narrow, slow)};
}

}  // namespace

CheckResult check_subnet_managers(const Subnet& fabric) {
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

CheckResult check_duplicates(const Subnet& fabric) {
  std::map<std::uint64_t, std::vector<std::string>> node_guids;
  std::map<std::uint64_t, std::vector<std::string>> port_guids;
  std::map<std::uint16_t, std::vector<std::string>> lids;
  std::vector<std::string> found;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    const SubnetNode& node = fabric.nodes[i];
    node_guids[node.guid].push_back(node.description.empty() ? "node " + std::to_string(i)
                                                             : node.description);
    const bool switch_node = node.type == SubnetNodeType::kSwitch;
    for (const auto& port : node.ports) {
      const SubnetPortRef ref{i, port.number};
      // A switch's ports share port 0's GUID and LID: the switch counts once.
      if (!switch_node || &port == &node.ports.front()) {
        const std::string name = switch_node ? port_name(fabric, {i, 0}) : port_name(fabric, ref);
        if (port.guid != 0) port_guids[port.guid].push_back(name);
        if (port.lid != 0) lids[port.lid].push_back(name);
      }
      if (!port.remote) {
        // libibnetdisc places a node whose GUID it has seen on the node it saw first, and the
        // cable to it then leads nowhere.
        if (port.number != 0 && port.state == kPortStateActive)
          found.push_back(port_name(fabric, ref) +
                          " is ACTIVE but discovery found nothing at its far end");
        continue;
      }
      const SubnetPort* far = fabric.port_of(*port.remote);
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
      "without its guid2lid cache); discovery cannot tell such devices apart. An ACTIVE port "
      "with nothing at its far end can also be a node that did not answer (raise "
      "--mad-timeout)";
  return result;
}

CheckResults check_links(const Subnet& fabric, const LinkExpectation& expected) {
  CheckResults results;
  std::size_t good = 0;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    for (const auto& port : fabric.nodes[i].ports) {
      const SubnetPortRef here{i, port.number};
      if (!port.remote || precedes(*port.remote, here)) continue;  // each link once
      const SubnetPort* far = fabric.port_of(*port.remote);
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
      } else if (auto failed = judge_active_link({fabric, here, port, *far}, subject, expected)) {
        results.push_back(std::move(*failed));
      } else if (auto narrowed =
                     narrowed_link_warning(fabric, here, *port.remote, subject,
                                           {expected.width.empty(), expected.speed.empty()})) {
        results.push_back(std::move(*narrowed));
      } else {
        ++good;
      }
    }
  }
  if (good > 0 || results.empty()) {
    const std::string at_least = expectation_text(expected);
    results.push_back({"fabric.link", kSubnet, good > 0 ? Status::kPass : Status::kSkip,
                       std::to_string(good) + " link" + (good == 1 ? "" : "s") +
                           " ACTIVE at the best both ends have enabled" +
                           (at_least.empty() ? "" : " and at least " + at_least),
                       "every link ACTIVE at the best both ends have enabled", ""});
  }
  return results;
}

CheckResults check_subnet(const Subnet& fabric, const LinkExpectation& expected,
                          const CounterLimits& limits) {
  CheckResults results{check_subnet_managers(fabric), check_duplicates(fabric)};
  for (auto& result : check_links(fabric, expected)) results.push_back(std::move(result));
  for (auto& result : check_port_errors(fabric, limits)) results.push_back(std::move(result));
  return results;
}

}  // namespace ibkit
