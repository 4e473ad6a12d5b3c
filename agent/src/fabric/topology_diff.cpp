#include "fabric/topology_diff.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr const char* kId = "fabric.topology";
constexpr const char* kSubnet = "subnet";
constexpr std::size_t kLinksNamed = 4;  // of a missing or new node's links

// A port as both subnets know it: node indexes differ between discoveries, GUIDs do not.
struct End {
  std::uint64_t guid = 0;
  int port = 0;
  bool operator==(const End&) const = default;
  bool operator<(const End& other) const {
    return guid != other.guid ? guid < other.guid : port < other.port;
  }
};

// A link as an unordered pair of ends: `low` precedes `high`.
struct Link {
  End low;
  End high;
  bool operator==(const Link&) const = default;
};

Link link_between(End a, End b) { return b < a ? Link{b, a} : Link{a, b}; }

struct EndHash {
  std::size_t operator()(const End& end) const {
    // libstdc++ hashes an integer to itself: mix the port in so ports of one node spread out.
    return std::hash<std::uint64_t>{}(end.guid ^
                                      (static_cast<std::uint64_t>(end.port) * 0x9e3779b97f4a7c15));
  }
};

struct LinkHash {
  std::size_t operator()(const Link& link) const {
    const EndHash hash;
    return (hash(link.low) * 31) ^ hash(link.high);
  }
};

using LinkSet = std::unordered_set<Link, LinkHash>;

// One subnet as the comparison sees it: its nodes by GUID, each cabled port's far end, and its
// links once each, in the order discovery listed the nodes (the order results come out in).
class Wiring {
 public:
  explicit Wiring(const Subnet& subnet) : subnet_(subnet) {
    for (std::size_t i = 0; i < subnet.nodes.size(); ++i) {
      node_by_guid_.emplace(subnet.nodes[i].guid, i);  // of a GUID two nodes share, the first
    }
    for (std::size_t i = 0; i < subnet.nodes.size(); ++i) {
      if (first_with_guid(i)) add_links_of(i);
    }
  }

  const Subnet& subnet() const { return subnet_; }
  const std::vector<Link>& links() const { return links_; }
  std::size_t node_count() const { return node_by_guid_.size(); }
  bool has_node(std::uint64_t guid) const { return node_by_guid_.count(guid) > 0; }
  bool has_nodes_of(const Link& link) const {
    return has_node(link.low.guid) && has_node(link.high.guid);
  }
  bool has_link(const Link& link) const { return link_set_.count(link) > 0; }
  bool first_with_guid(std::size_t node) const {
    return node_by_guid_.at(subnet_.nodes[node].guid) == node;
  }

  // The port `end` is cabled to, or nullopt when it has no link.
  std::optional<End> far_end(const End& end) const {
    const auto found = far_ends_.find(end);
    if (found == far_ends_.end()) return std::nullopt;
    return found->second;
  }

  // "leaf-a (0x...) port 3", as port_name names a port of this subnet.
  std::string name(const End& end) const {
    const auto node = node_by_guid_.find(end.guid);
    if (node == node_by_guid_.end())
      return guid_text(end.guid) + " port " + std::to_string(end.port);
    return port_name(subnet_, {node->second, end.port});
  }

 private:
  void add_links_of(std::size_t node) {
    const std::uint64_t guid = subnet_.nodes[node].guid;
    for (const auto& port : subnet_.nodes[node].ports) {
      if (!port.remote || port.remote->node >= subnet_.nodes.size()) continue;
      const End here{guid, port.number};
      const End far{subnet_.nodes[port.remote->node].guid, port.remote->port};
      far_ends_.emplace(here, far);
      const Link link = link_between(here, far);
      if (link_set_.insert(link).second) links_.push_back(link);
    }
  }

  const Subnet& subnet_;
  std::unordered_map<std::uint64_t, std::size_t> node_by_guid_;
  std::unordered_map<End, End, EndHash> far_ends_;
  std::vector<Link> links_;
  LinkSet link_set_;
};

// "if WHEN, save the topology again (...)": the end of every hint, since a change made on
// purpose is only a new topology to save.
std::string save_again_if(const std::string& when) {
  return "if " + when + ", save the topology again (ibkit fabric --save-topology FILE)";
}

// "1 link", "30 links".
std::string counted(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string node_kind(SubnetNodeType type) {
  switch (type) {
    case SubnetNodeType::kSwitch:
      return "switch";
    case SubnetNodeType::kRouter:
      return "router";
    case SubnetNodeType::kChannelAdapter:
      break;
  }
  return "channel adapter";
}

// "a switch with 34 links: port 1 to leaf-a (0x...) port 33, ... and 30 more": a node and a
// few of its links, enough to find it in the racks.
std::string node_with_links(const Subnet& subnet, std::size_t node) {
  std::vector<std::string> links;
  for (const auto& port : subnet.nodes[node].ports) {
    if (port.remote) {
      links.push_back("port " + std::to_string(port.number) + " to " +
                      port_name(subnet, *port.remote));
    }
  }
  return "a " + node_kind(subnet.nodes[node].type) + " with " + counted(links.size(), "link") +
         (links.empty() ? "" : ": " + join_capped(links, kLinksNamed, ", "));
}

// Failing results of one kind: the first kTopologyProblemsListed made, the rest only counted
// (so a re-cabled fabric builds 50 messages, not 10,000).
class ProblemList {
 public:
  explicit ProblemList(std::string plural) : plural_(std::move(plural)) {}

  template <typename MakeResult>
  void add(MakeResult make_result) {
    if (listed_.size() < kTopologyProblemsListed) {
      listed_.push_back(make_result());
    } else {
      ++unlisted_;
    }
  }

  // The results listed, then one counting the rest when there are more.
  void move_into(CheckResults& results) {
    for (auto& result : listed_) results.push_back(std::move(result));
    if (unlisted_ == 0) return;
    results.push_back(
        {kId, kSubnet, Status::kFail,
         std::to_string(unlisted_) + " more " + plural_ + " than the " +
             std::to_string(listed_.size()) + " listed",
         "every node and cable as saved",
         "this many changes at once is a fabric re-cabled, or a topology file of another fabric: "
         "compare the cabling with its plan, or " +
             save_again_if("this is the new plan")});
  }

 private:
  std::string plural_;
  CheckResults listed_;
  std::size_t unlisted_ = 0;
};

// The comparison: both wirings, the links of `now` already named (as where a moved cable
// leads), and the problems found, one list per kind.
class TopologyDiff {
 public:
  TopologyDiff(const Subnet& saved, const Subnet& now) : saved_(saved), now_(now) {}

  void compare_nodes() {
    for (std::size_t i = 0; i < saved_.subnet().nodes.size(); ++i) {
      if (!saved_.first_with_guid(i)) continue;
      if (now_.has_node(saved_.subnet().nodes[i].guid)) {
        ++nodes_as_saved_;
      } else {
        missing_nodes_.add([&] { return missing_node_result(i); });
      }
    }
    for (std::size_t i = 0; i < now_.subnet().nodes.size(); ++i) {
      if (now_.first_with_guid(i) && !saved_.has_node(now_.subnet().nodes[i].guid)) {
        new_nodes_.add([&] { return new_node_result(i); });
      }
    }
  }

  // Each saved link not found now is a moved cable when one end now leads elsewhere, else a
  // missing one. A link to a node not found is named with that node.
  void compare_saved_links() {
    for (const Link& link : saved_.links()) {
      if (now_.has_link(link)) {
        ++links_as_saved_;
        continue;
      }
      if (!now_.has_nodes_of(link)) continue;
      if (name_if_moved(link.low, link.high, now_.far_end(link.low))) continue;
      if (name_if_moved(link.high, link.low, now_.far_end(link.high))) continue;
      missing_cables_.add([&] { return missing_cable_result(link); });
    }
  }

  // Each link found now that was not saved, and not named yet as where a moved cable leads: a
  // moved cable when an end led elsewhere (to a node not found now), else a new one.
  void compare_links_now() {
    for (const Link& link : now_.links()) {
      if (saved_.has_link(link) || named_links_now_.count(link) > 0) continue;
      if (!saved_.has_nodes_of(link)) continue;
      if (name_if_moved(link.low, saved_.far_end(link.low), link.high)) continue;
      if (name_if_moved(link.high, saved_.far_end(link.high), link.low)) continue;
      new_cables_.add([&] { return new_cable_result(link); });
    }
  }

  CheckResults results() {
    CheckResults results;
    for (ProblemList* problems :
         {&missing_nodes_, &new_nodes_, &moved_cables_, &missing_cables_, &new_cables_}) {
      problems->move_into(results);
    }
    if (nodes_as_saved_ + links_as_saved_ > 0 || results.empty()) {
      results.push_back(
          {kId, kSubnet, Status::kPass,
           counted(nodes_as_saved_, "node") + ", " + counted(links_as_saved_, "link") + " as saved",
           "every node and link saved (" + counted(saved_.node_count(), "node") + ", " +
               counted(saved_.links().size(), "link") + ")",
           ""});
    }
    return results;
  }

 private:
  // Names the cable at `end` as moved when it led to `then` and now leads to another port,
  // `there`, unless that link is already named: true when named.
  bool name_if_moved(End end, std::optional<End> then, std::optional<End> there) {
    if (!then || !there || *then == *there) return false;
    if (!named_links_now_.insert(link_between(end, *there)).second) return false;
    moved_cables_.add([&] { return moved_cable_result(end, *then, *there); });
    return true;
  }

  CheckResult missing_node_result(std::size_t node) const {
    return {kId,
            node_name(saved_.subnet(), node),
            Status::kFail,
            "missing: no node answers with this GUID",
            node_with_links(saved_.subnet(), node),
            "the node is down, unpowered or cut off: look at it and at the far ends of its saved "
            "links; " +
                save_again_if("it was removed on purpose")};
  }

  CheckResult new_node_result(std::size_t node) const {
    return {kId,
            node_name(now_.subnet(), node),
            Status::kFail,
            "new: " + node_with_links(now_.subnet(), node),
            "not in the saved topology",
            "a node added since the topology was saved, or one whose GUID changed (a card or "
            "switch replaced): " +
                save_again_if("it was added on purpose")};
  }

  CheckResult moved_cable_result(End end, End then, End there) const {
    const std::string port = now_.name(end);
    const std::string saved_far = saved_.name(then);
    return {kId,
            port,
            Status::kFail,
            "moved: cabled to " + now_.name(there),
            "cabled to " + saved_far,
            "reconnect the cable from " + port + " to " + saved_far + ", or " +
                save_again_if("the move was intended")};
  }

  CheckResult missing_cable_result(const Link& link) const {
    const std::string ends = saved_.name(link.low) + " <-> " + saved_.name(link.high);
    return {kId,
            ends,
            Status::kFail,
            "missing: no link between these ports",
            "cabled to each other",
            "connect or reseat the cable between these ports (discovery sees a link only when it "
            "is up at both ends: look at both ports' physical state); " +
                save_again_if("it was removed on purpose")};
  }

  CheckResult new_cable_result(const Link& link) const {
    const std::string ends = now_.name(link.low) + " <-> " + now_.name(link.high);
    return {kId,
            ends,
            Status::kFail,
            "new: cabled to each other",
            "both ports free in the saved topology",
            "a cable added since the topology was saved: remove it if the cabling plan has no "
            "such cable; " +
                save_again_if("it was added on purpose")};
  }

  Wiring saved_;
  Wiring now_;
  LinkSet named_links_now_;
  std::size_t nodes_as_saved_ = 0;
  std::size_t links_as_saved_ = 0;
  ProblemList missing_nodes_{"missing nodes"};
  ProblemList new_nodes_{"new nodes"};
  ProblemList moved_cables_{"moved cables"};
  ProblemList missing_cables_{"missing cables"};
  ProblemList new_cables_{"new cables"};
};

}  // namespace

CheckResults check_topology(const Subnet& saved, const Subnet& now) {
  TopologyDiff diff(saved, now);
  diff.compare_nodes();
  diff.compare_saved_links();
  diff.compare_links_now();
  return diff.results();
}

}  // namespace ibkit
