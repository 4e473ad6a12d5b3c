#include "fabric/fabric_discovery.hpp"

#include <array>
#include <cstdio>
#include <map>
#include <unistd.h>
#include <vector>

#include "fabric/counter_query.hpp"
#include "fabric/fabric_record.hpp"
#include "fabric/forwarding_query.hpp"
#include "fabric/ib_libraries.hpp"
#include "util/process/child_process.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// A fabric of 4,096 hosts and its switches is about a megabyte of record.
constexpr std::size_t kRecordCap = std::size_t{64} << 20;
constexpr unsigned kCapabilityIsSm = 1u << 1;  // PortInfo CapabilityMask.IsSM
constexpr int kExitNoLibrary = 3;

SubnetNodeType node_type(int type) {
  if (type == IB_NODE_SWITCH) return SubnetNodeType::kSwitch;
  if (type == IB_NODE_ROUTER) return SubnetNodeType::kRouter;
  return SubnetNodeType::kChannelAdapter;
}

// One port as PortInfo describes it. A switch's ports other than 0 carry no capability mask of
// their own: port 0's says whether the switch runs an SM.
SubnetPort port_of(const IbLibraries& ib, ibnd_port_t& port) {
  auto field = [&](MAD_FIELDS id) { return static_cast<unsigned>(ib.field(port.info, 0, id)); };
  SubnetPort out;
  out.number = port.portnum;
  out.guid = port.guid;
  out.lid = port.base_lid;
  out.state = static_cast<int>(field(IB_PORT_STATE_F));
  out.phys_state = static_cast<int>(field(IB_PORT_PHYS_STATE_F));
  out.width_supported = field(IB_PORT_LINK_WIDTH_SUPPORTED_F);
  out.width_enabled = field(IB_PORT_LINK_WIDTH_ENABLED_F);
  out.width_active = field(IB_PORT_LINK_WIDTH_ACTIVE_F);
  out.speed_supported = field(IB_PORT_LINK_SPEED_SUPPORTED_F);
  out.speed_enabled = field(IB_PORT_LINK_SPEED_ENABLED_F);
  out.speed_active = field(IB_PORT_LINK_SPEED_ACTIVE_F);
  out.speed_ext_supported = field(IB_PORT_LINK_SPEED_EXT_SUPPORTED_F);
  out.speed_ext_enabled = field(IB_PORT_LINK_SPEED_EXT_ENABLED_F);
  out.speed_ext_active = field(IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
  out.runs_subnet_manager = (field(IB_PORT_CAPMASK_F) & kCapabilityIsSm) != 0;
  return out;
}

// libibnetdisc's fabric as ibkit's, with the nodes in its order.
Subnet convert(const IbLibraries& ib, ibnd_fabric_t& discovered,
               std::map<const ibnd_node_t*, std::size_t>& index) {
  Subnet fabric;
  for (ibnd_node_t* node = discovered.nodes; node != nullptr; node = node->next) {
    index[node] = fabric.nodes.size();
    fabric.nodes.push_back({node->guid, node_type(node->type), node->nodedesc, {}, {}});
  }
  for (ibnd_node_t* node = discovered.nodes; node != nullptr; node = node->next) {
    SubnetNode& out = fabric.nodes[index[node]];
    for (int number = 0; number <= node->numports; ++number) {
      ibnd_port_t* port = node->ports[number];
      if (port == nullptr) continue;
      SubnetPort converted = port_of(ib, *port);
      if (port->remoteport != nullptr && port->remoteport->node != nullptr) {
        converted.remote = SubnetPortRef{index[port->remoteport->node], port->remoteport->portnum};
      }
      out.ports.push_back(converted);
    }
  }
  if (discovered.from_node != nullptr)
    fabric.discovered_from = SubnetPortRef{index[discovered.from_node], discovered.from_portnum};
  return fabric;
}

// SMInfo from every node with an SM-capable port, by the directed route discovery took to it.
void ask_subnet_managers(const IbLibraries& ib, ibnd_fabric_t& discovered,
                         const std::map<const ibnd_node_t*, std::size_t>& index,
                         const DiscoveryOptions& options, Subnet& fabric) {
  std::array<int, 2> classes{IB_SMI_CLASS, IB_SMI_DIRECT_CLASS};
  std::string device = options.device;
  ibmad_port* source = ib.open_port(device.empty() ? nullptr : device.data(), options.port,
                                    classes.data(), static_cast<int>(classes.size()));
  if (source != nullptr) ib.set_retries(source, options.mad_retries);
  if (source == nullptr) {
    std::fprintf(stderr, "cannot open the SMI of %s port %d to ask for SMInfo\n",
                 device.empty() ? "the first device" : device.c_str(), options.port);
    return;
  }
  for (ibnd_node_t* node = discovered.nodes; node != nullptr; node = node->next) {
    const SubnetNode& known = fabric.nodes[index.at(node)];
    for (const auto& port : known.ports) {
      if (!port.runs_subnet_manager) continue;
      std::array<std::uint8_t, IB_SMP_DATA_SIZE> info{};
      ib_portid_t route = node->path_portid;
      if (ib.smp_query(info.data(), &route, IB_ATTR_SMINFO, 0,
                       static_cast<unsigned>(options.mad_timeout_ms), source) == nullptr)
        continue;  // an SM-capable port that runs no SM does not answer
      fabric.managers.push_back(
          {{index.at(node), port.number},
           ib.field64(info.data(), 0, IB_SMINFO_GUID_F),
           static_cast<int>(ib.field(info.data(), 0, IB_SMINFO_PRIO_F)),
           static_cast<SubnetManagerState>(ib.field(info.data(), 0, IB_SMINFO_STATE_F) & 3)});
      break;  // one SM per node
    }
  }
  ib.close_port(source);
}

// The child's work: discover, ask the SMs, read the ports' error counters, write the record to
// `out`. Its exit status.
int discover_into(const DiscoveryOptions& options, const Deadline& deadline, int out) {
  const auto ib = load_ib_libraries();
  if (!ib) return kExitNoLibrary;
  ibnd_config_t config{};
  config.timeout_ms = static_cast<unsigned>(options.mad_timeout_ms);
  config.retries = static_cast<unsigned>(options.mad_retries);
  std::string device = options.device;
  ibnd_fabric_t* discovered =
      ib->discover(device.empty() ? nullptr : device.data(), options.port, nullptr, &config);
  if (discovered == nullptr) {
    std::fprintf(stderr, "libibnetdisc found no fabric\n");
    return 1;
  }
  std::map<const ibnd_node_t*, std::size_t> index;
  Subnet fabric = convert(*ib, *discovered, index);
  ask_subnet_managers(*ib, *discovered, index, options, fabric);
  if (options.read_forwarding)
    read_forwarding_tables(*ib, *discovered, index, options, deadline, fabric);
  ib->destroy(discovered);
  if (options.read_counters) read_error_counters(*ib, options, deadline, fabric);
  const std::string record = record_fabric(fabric);
  for (std::size_t written = 0; written < record.size();) {
    const ssize_t wrote = write(out, record.data() + written, record.size() - written);
    if (wrote <= 0) return 1;
    written += static_cast<std::size_t>(wrote);
  }
  return 0;
}

// The last things the child said (libibumad's and libibmad's warnings come before its own
// line), on one line, bounded and without control characters, for a message.
std::string last_words(const std::string& err) {
  std::vector<std::string> lines;
  for (auto& line : split(err, '\n'))
    if (!trim(line).empty()) lines.push_back(std::string(trim(line)));
  if (lines.empty()) return "it said nothing";
  const std::size_t first = lines.size() > 3 ? lines.size() - 3 : 0;
  std::string said;
  for (std::size_t i = first; i < lines.size(); ++i) said += (said.empty() ? "" : "; ") + lines[i];
  said = said.substr(0, 400);
  for (char& c : said)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f) c = '?';
  return said;
}

}  // namespace

Expected<Subnet> discover_fabric(const DiscoveryOptions& options, const Deadline& deadline) {
  const std::string from =
      (options.device.empty() ? std::string("the first device") : options.device) +
      (options.port == 0 ? "" : " port " + std::to_string(options.port));
  auto child = run_forked(
      "fabric discovery from " + from,
      [&](int out) { return discover_into(options, deadline, out); }, deadline, kRecordCap);
  if (!child) return Error{child.error().message, true};
  if (child->exit_status != 0) {
    return Error{"fabric discovery from " + from + " failed: " + last_words(child->err), true};
  }
  auto fabric = read_fabric_record(child->out);
  if (!fabric) return Error{"fabric discovery from " + from + ": " + fabric.error().message};
  return fabric;
}

}  // namespace ibkit
