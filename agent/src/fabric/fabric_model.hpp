#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ibkit {

// The subnet as one node's discovery saw it (libibnetdisc through the SM class, PortInfo and
// SMInfo decoded): plain values, so the checks run the same on a live subnet, a saved one and
// a test's own.

enum class SubnetNodeType { kChannelAdapter, kSwitch, kRouter };

// A port of a node in Subnet::nodes: the node's index and the port's number.
struct SubnetPortRef {
  std::size_t node = 0;
  int port = 0;
  bool operator==(const SubnetPortRef&) const = default;
};

// PortInfo's PortState and PortPhysicalState values the checks name.
inline constexpr int kPortStateDown = 1;
inline constexpr int kPortStateInit = 2;
inline constexpr int kPortStateArmed = 3;
inline constexpr int kPortStateActive = 4;
inline constexpr int kPhysStateLinkUp = 5;

struct SubnetPort {
  int number = 0;
  std::uint64_t guid = 0;
  std::uint16_t lid = 0;  // a switch's ports answer with port 0's LID
  int state = 0;          // PortState: 1 Down, 2 Init, 3 Armed, 4 Active
  int phys_state = 0;     // PortPhysicalState: 2 Polling, 3 Disabled, 5 LinkUp, ...
  // LinkWidth bit masks: 1 = 1X, 2 = 4X, 4 = 8X, 8 = 12X, 16 = 2X.
  unsigned width_supported = 0;
  unsigned width_enabled = 0;
  unsigned width_active = 0;
  // LinkSpeed bit masks (1 = SDR, 2 = DDR, 4 = QDR), and the extended ones a port from FDR on
  // has (1 = FDR, 2 = EDR, 4 = HDR, 8 = NDR); an active extended speed overrides the base one.
  unsigned speed_supported = 0;
  unsigned speed_enabled = 0;
  unsigned speed_active = 0;
  unsigned speed_ext_supported = 0;
  unsigned speed_ext_enabled = 0;
  unsigned speed_ext_active = 0;
  bool runs_subnet_manager = false;  // CapabilityMask IsSM
  std::optional<SubnetPortRef> remote;
  // PortCounters' error counters by the names `ibkit check` gives them (symbol_error,
  // link_downed, ...): empty when not read, and then `counters_unread` says why ("" when
  // discovery did not ask: a port without a link, a switch's port 0).
  std::map<std::string, std::uint64_t> counters;
  std::string counters_unread;
  // Set when `counters` came from PortCountersExtended, where every error counter is 64 bits
  // (an agent whose ClassPortInfo says IsAdditionalPortCountersExtendedSupported): none of them
  // stops at the small maximum PortCounters' would.
  bool counters_extended = false;
  // Set when `counters` hold what each counter rose by since an earlier run (--state), taken at
  // this time (seconds since the Unix epoch); unset, they are as read.
  std::optional<std::int64_t> counters_since;
};

struct SubnetNode {
  std::uint64_t guid = 0;
  SubnetNodeType type = SubnetNodeType::kChannelAdapter;
  std::string description;  // NodeDescription: "lab1 HCA-1", "MF0;switch-a:SX6036/U1"
  std::vector<SubnetPort> ports;
  // A switch's linear forwarding table: the port it sends each LID (the index) out of, 255 for
  // none. Empty when not read: discovery reads it only to save the topology.
  std::vector<std::uint8_t> forwarding;
};

inline constexpr std::uint8_t kNoForwardingPort = 255;
inline constexpr std::size_t kMaxForwardingLids = 0xc000;  // the unicast LIDs, 0 to 0xbfff

// SMInfo's SMState.
enum class SubnetManagerState { kNotActive = 0, kDiscovering = 1, kStandby = 2, kMaster = 3 };

// A subnet manager that answered SMInfo: the port it runs behind.
struct SubnetManager {
  SubnetPortRef port;
  std::uint64_t guid = 0;
  int priority = 0;
  SubnetManagerState state = SubnetManagerState::kNotActive;
};

struct Subnet {
  std::vector<SubnetNode> nodes;
  std::vector<SubnetManager> managers;
  std::optional<SubnetPortRef> discovered_from;  // the port discovery started at

  const SubnetNode& node_of(const SubnetPortRef& ref) const { return nodes.at(ref.node); }
  // The port `ref` names, or nullptr when the node has no such port.
  const SubnetPort* port_of(const SubnetPortRef& ref) const;
};

// "0x0002c90300a1b2c3": a GUID as the diags print it.
std::string guid_text(std::uint64_t guid);

// "switch-a (0x...)": a node named by its description and GUID (the GUID alone when it has no
// description); "node N" when `node` is not an index of fabric.nodes.
std::string node_name(const Subnet& fabric, std::size_t node);

// The LID a port's performance agent answers at, as perfquery addresses it: a switch's, port 0's
// LID, for all its ports; a channel adapter's port, its own.
std::uint16_t performance_agent_lid(const SubnetNode& node, const SubnetPort& port);

// "switch-a (0x...) port 3": a port named by its node's description, GUID and number.
std::string port_name(const Subnet& fabric, const SubnetPortRef& ref);

}  // namespace ibkit
