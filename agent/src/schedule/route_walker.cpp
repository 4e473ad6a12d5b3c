#include "schedule/route_walker.hpp"

#include "fabric/routes.hpp"

namespace ibkit {

RouteWalker::RouteWalker(const Subnet& fabric)
    : fabric_(fabric), learnt_(fabric.nodes.size()), walked_by_(fabric.nodes.size(), 0) {}

RouteWalker::Learnt RouteWalker::learnt(std::size_t node, std::uint16_t lid) const {
  const auto& known = learnt_[node];
  return lid < known.size() ? static_cast<Learnt>(known[lid]) : kUnknown;
}

void RouteWalker::learn(std::size_t node, std::uint16_t lid, Learnt outcome) {
  const std::size_t entries = fabric_.nodes[node].forwarding.size();
  if (lid >= entries) return;  // a step without a table entry ends at once: nothing to keep
  auto& known = learnt_[node];
  if (known.empty()) known.assign(entries, kUnknown);
  known[lid] = outcome;
}

Expected<RouteWalk> RouteWalker::walk(const SubnetPortRef& from, std::uint16_t lid) {
  RouteWalk walk;
  const SubnetPort* start = fabric_.port_of(from);
  if (start == nullptr || !start->remote) return walk;
  if (++walks_ == 0) {  // after 2^32 walks the marks start again
    walked_by_.assign(walked_by_.size(), 0);
    walks_ = 1;
  }
  std::vector<std::size_t> path;
  std::size_t at = start->remote->node;
  for (;;) {
    if (const Learnt known = learnt(at, lid); known != kUnknown) {
      walk.arrived = known == kArrives;
      break;
    }
    if (walked_by_[at] == walks_) {
      return Error{"comes back to switch " + node_name(fabric_, at)};
    }
    walked_by_[at] = walks_;
    ++steps_;
    path.push_back(at);
    const RouteStep step = route_step(fabric_, at, lid);
    if (step.kind != RouteStep::Kind::kOnward) {
      walk.arrived = step.kind == RouteStep::Kind::kArrived;
      if (!walk.arrived) walk.stopped_at = at;
      break;
    }
    walk.new_hops.push_back(step.hop);
    at = step.next;
  }
  for (std::size_t node : path) learn(node, lid, walk.arrived ? kArrives : kEndsShort);
  return walk;
}

}  // namespace ibkit
