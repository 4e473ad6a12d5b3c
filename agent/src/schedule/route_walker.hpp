#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "util/expected.hpp"

namespace ibkit {

// What one walk of a route found.
struct RouteWalk {
  bool arrived = false;  // the route reaches the LID
  // The switch ports it leaves by, in order, up to the first switch a walk before it took
  // towards the same LID (whose way on was walked then).
  std::vector<SubnetPortRef> new_hops;
  // When it did not arrive and stopped on this walk: the switch it stopped at (no entry for the
  // LID, or one that leads nowhere); unset when an earlier walk found the way on ends short.
  std::optional<std::size_t> stopped_at;
};

// Follows routes through a subnet's forwarding tables as the topology schedule asks for them,
// learning what each switch's way on to each LID does the first time a walk goes through it.
// All walks together take time in proportion to the walks plus the tables' entries, however
// long the routes, and at most a byte per table entry of memory: a long route is walked once.
class RouteWalker {
 public:
  explicit RouteWalker(const Subnet& fabric);

  // Walks the route from the host port `from` to `lid` as far as no walk before it went.
  // Fails when the route comes back to a switch it went through (the tables loop): "comes back
  // to switch NAME (GUID)".
  Expected<RouteWalk> walk(const SubnetPortRef& from, std::uint16_t lid);

  // The steps all walks took, one a switch: at most the walks plus the tables' entries.
  std::size_t steps() const { return steps_; }

 private:
  enum Learnt : std::uint8_t { kUnknown = 0, kArrives = 1, kEndsShort = 2 };
  Learnt learnt(std::size_t node, std::uint16_t lid) const;
  void learn(std::size_t node, std::uint16_t lid, Learnt outcome);

  const Subnet& fabric_;
  std::vector<std::vector<std::uint8_t>> learnt_;  // by node, by LID, sized as its table
  std::vector<std::uint32_t> walked_by_;           // by node: the last walk through it
  std::uint32_t walks_ = 0;
  std::size_t steps_ = 0;
};

}  // namespace ibkit
