// The sysfs readers and the node checks on a fixture tree whose attribute files hold the
// fuzzer's text. The tree (one HCA with one port, its PCI function and IPoIB netdev, limits,
// host name, a CPU governor, ip-addr.txt) is laid out once; each input fills its files.
//
// An input is lines: the first picks the expectations ("infiniband", "ethernet", anything
// else the defaults), then one line per file of kFiles in order. In a line "\n" stands for a
// newline and "\\" for a backslash; "~" or a missing line leaves the file out.
//
// IBKIT_FUZZ_SEED_FROM=DIR prints such an input made from the fixture tree DIR and exits:
// how fuzz/corpus/sysfs_tree/ was made from tests/fixtures/sysfs/.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

#include "checks/run_checks.hpp"
#include "config/config.hpp"
#include "fuzz_input.hpp"
#include "report/check_text.hpp"
#include "report/devices_report.hpp"
#include "sysfs/addresses.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/host.hpp"
#include "sysfs/netdev.hpp"
#include "sysfs/sysfs_root.hpp"
#include "util/text.hpp"

namespace {

namespace fs = std::filesystem;
using ibkit::fuzz::broken_promise;

// Where a file lives: under the device, its port 1, its PCI function, its netdev, or the root.
enum class Base { kDevice, kPort, kPci, kNetdev, kRoot };

struct TreeFile {
  Base base;
  const char* name;
};

constexpr TreeFile kFiles[] = {
    {Base::kDevice, "hca_type"},
    {Base::kDevice, "fw_ver"},
    {Base::kDevice, "node_guid"},
    {Base::kDevice, "board_id"},
    {Base::kDevice, "parent"},
    {Base::kPort, "state"},
    {Base::kPort, "phys_state"},
    {Base::kPort, "link_layer"},
    {Base::kPort, "rate"},
    {Base::kPort, "lid"},
    {Base::kPort, "sm_lid"},
    {Base::kPort, "counters/symbol_error"},
    {Base::kPort, "counters/port_rcv_errors"},
    {Base::kPort, "counters/link_downed"},
    {Base::kPort, "gid_attrs/ndevs/0"},
    {Base::kPci, "vendor"},
    {Base::kPci, "device"},
    {Base::kPci, "class"},
    {Base::kPci, "numa_node"},
    {Base::kPci, "current_link_speed"},
    {Base::kPci, "max_link_speed"},
    {Base::kPci, "current_link_width"},
    {Base::kPci, "max_link_width"},
    {Base::kNetdev, "type"},
    {Base::kNetdev, "operstate"},
    {Base::kNetdev, "mtu"},
    {Base::kNetdev, "mode"},
    {Base::kNetdev, "flags"},
    {Base::kNetdev, "dev_port"},
    {Base::kNetdev, "dev_id"},
    {Base::kRoot, "proc/self/limits"},
    {Base::kRoot, "proc/sys/kernel/hostname"},
    {Base::kRoot, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"},
    {Base::kRoot, "ip-addr.txt"},
};

// The bases of one tree, relative to its root.
struct Bases {
  std::string device;
  std::string port;
  std::string pci;
  std::string netdev;

  std::string path(const TreeFile& file) const {
    switch (file.base) {
      case Base::kDevice:
        return device + "/" + file.name;
      case Base::kPort:
        return port + "/" + file.name;
      case Base::kPci:
        return pci + "/" + file.name;
      case Base::kNetdev:
        return netdev + "/" + file.name;
      case Base::kRoot:
        break;
    }
    return file.name;
  }
};

constexpr const char* kPciDir = "sys/devices/pci0000:00/0000:01:00.0";
const Bases kTree{std::string(kPciDir) + "/infiniband/ibdev0",
                  std::string(kPciDir) + "/infiniband/ibdev0/ports/1", kPciDir,
                  std::string(kPciDir) + "/net/ib0"};

fs::path tree_root;

void remove_tree() {
  std::error_code ec;
  if (!tree_root.empty()) fs::remove_all(tree_root, ec);
}

// The folder the tree goes in: $TMPDIR, else /dev/shm (tmpfs: on a busy disk every input
// would cost a second of writes), else /tmp.
std::string temporary_folder() {
  const char* tmp = std::getenv("TMPDIR");
  if (tmp != nullptr && *tmp != '\0') return tmp;
  return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

// The tree's directories and symlinks, as the kernel lays them out; its files come per input.
void lay_out_tree() {
  std::string pattern = temporary_folder() + "/ibkit-fuzz-sysfs.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror("mkdtemp");
    std::abort();
  }
  tree_root = pattern;
  std::atexit(remove_tree);
  for (const auto& file : kFiles)
    fs::create_directories((tree_root / kTree.path(file)).parent_path());
  fs::create_directories(tree_root / "sys/class/infiniband");
  fs::create_directories(tree_root / "sys/class/net");
  fs::create_directories(tree_root / "sys/bus/pci/devices");
  fs::create_directories(tree_root / "sys/bus/pci/drivers/mlx5_core");
  for (const char* module : {"ib_ipoib", "ib_umad", "ib_uverbs", "mlx5_ib"}) {
    fs::create_directories(tree_root / "sys/module" / module);
  }
  fs::create_symlink("../../devices/pci0000:00/0000:01:00.0/infiniband/ibdev0",
                     tree_root / "sys/class/infiniband/ibdev0");
  fs::create_symlink("../../../0000:01:00.0", tree_root / kTree.device / "device");
  fs::create_symlink("../../devices/pci0000:00/0000:01:00.0/net/ib0",
                     tree_root / "sys/class/net/ib0");
  fs::create_symlink("../../../0000:01:00.0", tree_root / kTree.netdev / "device");
  fs::create_symlink("../../../bus/pci/drivers/mlx5_core", tree_root / kPciDir / "driver");
  fs::create_symlink("../../../devices/pci0000:00/0000:01:00.0",
                     tree_root / "sys/bus/pci/devices/0000:01:00.0");
}

std::string decode_line(std::string_view line) {
  std::string text;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == 'n' || line[i + 1] == '\\')) {
      text += line[++i] == 'n' ? '\n' : '\\';
    } else {
      text += line[i];
    }
  }
  return text;
}

std::string encode_line(std::string_view text) {
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\\') {
      line += "\\\\";
    } else {
      line += c;
    }
  }
  return line;
}

ibkit::Config config_for(std::string_view word) {
  ibkit::Config config;
  if (word == "infiniband" || word == "ethernet") {
    config.source = "fuzz";
    config.expect.link_layer = word == "infiniband" ? "InfiniBand" : "Ethernet";
    config.expect.min_rate_gbps = 40;
    config.expect.port_count = 1;
    config.expect.memlock_kib.reset();
    config.expect.ipoib = word == "infiniband";
  }
  return config;
}

// A port.rate that passes must rest on a finite data rate that meets the minimum: a figure
// that could not be read is never a pass (ARCHITECTURE.md, "Verdicts").
void check_rate_verdicts(const std::vector<ibkit::Hca>& hcas, const ibkit::Config& config,
                         const ibkit::CheckResults& results) {
  for (const auto& result : results) {
    if (result.id != "port.rate" || result.status != ibkit::Status::kPass) continue;
    for (const auto& hca : hcas) {
      for (const auto& port : hca.ports) {
        if (hca.subject(port.number) != result.subject) continue;
        if (!port.rate || !std::isfinite(port.rate->data_gbps) ||
            port.rate->data_gbps + 1e-9 < config.expect.min_rate_gbps.value_or(0)) {
          broken_promise("port.rate passed a rate that was not read as a figure",
                         "rate \"" + port.rate_text + "\", observed " + result.observed);
        }
      }
    }
  }
}

std::size_t kept = 0;  // keeps results the optimizer would otherwise drop

// IBKIT_FUZZ_SEED_FROM=DIR: the first device, port and netdev of the fixture tree DIR as an
// input (stdout).
void print_seed(const char* fixture) {
  auto root = ibkit::SysfsRoot::open(fixture);
  if (!root) {
    std::fprintf(stderr, "%s\n", root.error().message.c_str());
    std::exit(2);
  }
  auto devices = root->list("sys/class/infiniband");
  if (devices.empty()) std::exit(2);
  Bases bases;
  bases.device = "sys/class/infiniband/" + devices.front();
  bases.port = bases.device + "/ports/1";
  bases.pci = bases.device + "/device";
  const bool ethernet = root->read(bases.port + "/link_layer") == "Ethernet";
  auto netdevs = ibkit::netdevs_for_port(*root, bases.device, 1, ethernet);
  bases.netdev = "sys/class/net/" + (netdevs.empty() ? std::string("none") : netdevs.front());
  // Only the lines the readers look for of the two long files, so that mutations fall on the
  // attributes rather than on rows nobody reads.
  const std::string netdev = netdevs.empty() ? "" : netdevs.front();
  auto shorten = [&](const TreeFile& file, const std::string& text) {
    const std::string name = file.name;
    if (name != "proc/self/limits" && name != "ip-addr.txt") return text;
    std::vector<std::string> kept;
    for (const auto& line : ibkit::split(text, '\n')) {
      if (line.find(name == "ip-addr.txt" ? " " + netdev + " " : "Max locked memory") !=
          std::string::npos) {
        kept.push_back(line);
      }
    }
    return ibkit::join(kept, "\n");
  };
  std::string seed = ethernet ? "ethernet\n" : "infiniband\n";
  for (const auto& file : kFiles) {
    auto text = root->read(bases.path(file));
    seed += (text ? encode_line(shorten(file, *text)) : "~") + "\n";
  }
  std::fwrite(seed.data(), 1, seed.size(), stdout);
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* fixture = std::getenv("IBKIT_FUZZ_SEED_FROM")) print_seed(fixture);
  lay_out_tree();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto root = ibkit::SysfsRoot::open(tree_root);
  if (!root) broken_promise("the fuzz tree cannot be opened", root.error().message);
  // Each file as the input wants it (nullopt: absent), written only when it changed since the
  // last input: most mutations change one line, and the writes are most of an input's time.
  static std::vector<std::optional<std::string>> written(std::size(kFiles));  // none yet
  const auto lines = ibkit::split(ibkit::fuzz::as_text(data, size), '\n');
  for (std::size_t i = 0; i < std::size(kFiles); ++i) {
    std::optional<std::string> wanted;
    if (i + 1 < lines.size() && lines[i + 1] != "~") wanted = decode_line(lines[i + 1]);
    if (wanted == written[i]) continue;
    const fs::path path = tree_root / kTree.path(kFiles[i]);
    if (wanted) {
      std::ofstream(path, std::ios::binary | std::ios::trunc) << *wanted;
    } else {
      std::error_code ec;
      fs::remove(path, ec);
    }
    written[i] = std::move(wanted);
  }

  const auto config = config_for(lines.empty() ? "" : lines.front());
  const auto hcas = ibkit::scan_hcas(*root);
  kept += ibkit::render_devices_text("fuzz", hcas).size();
  kept += ibkit::render_devices_json("fuzz", hcas).size();
  if (auto netdev = ibkit::read_netdev(*root, "ib0")) kept += netdev->mode.size();
  if (auto memlock = ibkit::read_memlock(*root)) kept += memlock->soft_bytes.has_value();
  kept += ibkit::read_cpu_governors(*root).size() + ibkit::nvidia_gpus(*root).size();
  kept += ibkit::read_hostname(*root).size();
  if (auto addresses = ibkit::read_addresses(*root)) kept += addresses->size();

  const auto run = ibkit::run_checks(*root, config);
  kept += ibkit::render_results_table(run.results, true).size();
  check_rate_verdicts(hcas, config, run.results);
  return 0;
}
