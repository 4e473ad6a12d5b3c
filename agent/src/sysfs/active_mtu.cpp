#include "sysfs/active_mtu.hpp"

#include "util/text.hpp"

namespace ibkit {

bool is_rdma_mtu(long long bytes) {
  for (long long mtu = 256; mtu <= 4096; mtu *= 2) {
    if (bytes == mtu) return true;
  }
  return false;
}

ActiveMtus parse_ibv_devinfo_mtus(std::string_view text) {
  ActiveMtus mtus;
  std::string device;
  std::string port;
  for (const auto& line : split(text, '\n')) {
    const auto fields = split_whitespace(line);
    if (fields.size() < 2) continue;
    if (fields[0] == "hca_id:") {
      device = fields[1];
      port.clear();
    } else if (fields[0] == "port:") {
      port = fields[1];
    } else if (fields[0] == "active_mtu:" && !device.empty() && !port.empty()) {
      auto bytes = parse_unsigned(fields[1]);
      if (bytes && is_rdma_mtu(static_cast<long long>(*bytes)))
        mtus[device + "/" + port] = static_cast<int>(*bytes);
    }
  }
  return mtus;
}

std::optional<ActiveMtus> read_captured_active_mtus(const SysfsRoot& root) {
  if (root.is_live_system()) return std::nullopt;
  auto captured = root.read("ibv_devinfo.txt");
  if (!captured) return std::nullopt;
  return parse_ibv_devinfo_mtus(*captured);
}

void apply_active_mtus(std::vector<Hca>& hcas, const ActiveMtus& mtus) {
  for (auto& hca : hcas) {
    for (auto& port : hca.ports) {
      auto found = mtus.find(hca.subject(port.number));
      if (found != mtus.end()) port.active_mtu = found->second;
    }
  }
}

}  // namespace ibkit
