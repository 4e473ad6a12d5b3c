#pragma once

#include <vector>

#include "schedule/hosts.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Looks every host's address up once, before the sweep's first round: a name the name service
// does not know fails the sweep there and then, naming the node, instead of as an unreachable
// node in every round; and two hosts that reach one agent (an address and port in common once
// names are looked up: `localhost` and 127.0.0.1 on one port) are refused, both named, as the
// hosts file refuses two spellings of one address. Waits for the name service until `deadline`;
// an Error has `environment` set when the name service gave no answer.
Expected<Done> look_up_hosts(const std::vector<SweepHost>& hosts, const Deadline& deadline);

}  // namespace ibkit
