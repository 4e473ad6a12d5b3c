#pragma once

#include <string>

#include "config/config.hpp"
#include "fabric/fabric_model.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// fabric.sm: exactly one subnet manager in MASTER state. Names the master (its node, port,
// GUID and priority) and every STANDBY one; fails naming all of them when two or more claim
// MASTER, and when none does (with or without SMs that answered in other states).
CheckResult check_subnet_managers(const Subnet& fabric);

// fabric.duplicates: node GUIDs, port GUIDs and LIDs each used once. A node GUID two nodes
// share is seen by discovery as one node: reached over links that disagree (a port whose far
// end does not lead back to it), or with the second node's cable leading nowhere (an ACTIVE
// port with no far end): those ports are named. One result, failing with every
// duplicate found.
CheckResult check_duplicates(const Subnet& fabric);

// What every link should reach besides the best its ends have enabled, as ibdiagnet's --lw and
// --ls: "" for no such expectation.
struct LinkExpectation {
  std::string width;  // "4X"
  std::string speed;  // "HDR"
};

// fabric.link: every link (each once, switch to switch included) Active at the widest width and
// fastest speed both ends have enabled, and at least at `expected`. One failing result per link
// below either (named by both ends, with what it trained to and what it should reach, and which
// end's enabled set holds it back) or LinkUp without being Active; one warning per link that
// reaches both but trained below what its ends support because an end's enabled set holds it
// back, in the width or speed `expected` leaves unset (narrowed_link_warning); one passing
// result counting the rest.
CheckResults check_links(const Subnet& fabric, const LinkExpectation& expected = {});

// All of the above, in that order, then fabric.counters against `limits`.
CheckResults check_subnet(const Subnet& fabric, const LinkExpectation& expected = {},
                          const CounterLimits& limits = default_counter_limits());

}  // namespace ibkit
