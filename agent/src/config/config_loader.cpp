#include "config/config_loader.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <vector>

#include <toml++/toml.h>

#include "config/toml_prescan.hpp"
#include "util/closest_name.hpp"
#include "util/files/bounded_file.hpp"
#include "util/mistakes.hpp"

namespace ibkit {
namespace {

// A configuration is a few KiB (docs/ibkit.toml.example); a MiB is a wrong path.
constexpr FileLimit kConfigFile{"--config", std::size_t{1} << 20,
                                "a configuration is a few KiB; give the path of a TOML file"};

std::string where(std::string_view source, const toml::source_region& region) {
  return std::string(source) + ":" + std::to_string(region.begin.line) + ":" +
         std::to_string(region.begin.column);
}

std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date/time";
  }
}

bool comes_before(const toml::source_position& a, const toml::source_position& b) {
  return a.line != b.line ? a.line < b.line : a.column < b.column;
}

// Every mistake of one configuration file, each with its file:line:col, so that a run names
// them all rather than one per run.
class ConfigMistakes {
 public:
  explicit ConfigMistakes(std::string_view source) : source_(source) {}

  void note(const toml::source_region& region, const std::string& text) {
    noted_.push_back({region.begin, where(source_, region) + ": " + text});
  }

  // In the file's order, the first few in full then how many more (Mistakes); none when clean.
  std::optional<Error> error() {
    std::stable_sort(noted_.begin(), noted_.end(),
                     [](const Noted& a, const Noted& b) { return comes_before(a.at, b.at); });
    Mistakes mistakes;
    for (const auto& noted : noted_) mistakes.add(noted.text);
    if (!mistakes.any()) return std::nullopt;
    return mistakes.error();
  }

 private:
  struct Noted {
    toml::source_position at;
    std::string text;
  };
  std::string_view source_;
  std::vector<Noted> noted_;
};

// Reads one TOML table into a struct, key by key, noting each problem in `mistakes`; keys never
// asked for are noted as unknown.
class TableReader {
 public:
  TableReader(const toml::table& table, ConfigMistakes& mistakes, std::string path)
      : table_(table), mistakes_(mistakes), path_(std::move(path)) {}

  const toml::node* find(std::string_view key) {
    known_.insert(std::string(key));
    return table_.get(key);
  }

  void fail(const toml::node& node, std::string_view key, const std::string& message) {
    mistakes_.note(node.source(), path_ + "." + std::string(key) + " " + message);
  }

  void read_string(std::string_view key, std::string& out,
                   std::initializer_list<std::string_view> choices) {
    const toml::node* node = find(key);
    if (node == nullptr) return;
    const auto* text = node->as_string();
    std::string options;
    for (auto choice : choices)
      options += (options.empty() ? "\"" : ", \"") + std::string(choice) + "\"";
    if (text == nullptr)
      return fail(*node, key, "is " + type_name(*node) + "; write one of " + options);
    for (auto choice : choices) {
      if (text->get() == choice) {
        out = text->get();
        return;
      }
    }
    std::vector<std::string> names(choices.begin(), choices.end());
    const std::string nearest = closest_name(text->get(), names);
    fail(*node, key,
         "is \"" + text->get() + "\"; " +
             (nearest.empty() ? "" : "did you mean \"" + nearest + "\"? ") + "write one of " +
             options);
  }

  void read_bool(std::string_view key, bool& out) {
    const toml::node* node = find(key);
    if (node == nullptr) return;
    if (const auto* flag = node->as_boolean()) {
      out = flag->get();
    } else {
      fail(*node, key, "is " + type_name(*node) + "; write true or false");
    }
  }

  std::optional<std::uint64_t> read_count(std::string_view key, std::uint64_t max) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    const auto* integer = node->as_integer();
    if (integer == nullptr) {
      fail(*node, key,
           "is " + type_name(*node) + "; write a whole number from 0 to " + std::to_string(max));
      return std::nullopt;
    }
    if (integer->get() < 0 || static_cast<std::uint64_t>(integer->get()) > max) {
      fail(*node, key,
           "is " + std::to_string(integer->get()) + "; write a whole number from 0 to " +
               std::to_string(max));
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(integer->get());
  }

  std::optional<double> read_positive_number(
      std::string_view key, double max = 1e6,
      const char* example = "a positive number of Gb/s, such as 54.5") {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    std::optional<double> value;
    if (const auto* integer = node->as_integer()) value = static_cast<double>(integer->get());
    if (const auto* real = node->as_floating_point()) value = real->get();
    if (!value || !(*value > 0) || *value > max) {
      fail(*node, key, std::string("must be ") + example);
      return std::nullopt;
    }
    return value;
  }

  // A number from `low` (included or not) to `high` (included); anything else is the error
  // "must be <example>".
  std::optional<double> read_number_in(std::string_view key, double low, bool low_included,
                                       double high, const char* example) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    std::optional<double> value;
    if (const auto* integer = node->as_integer()) value = static_cast<double>(integer->get());
    if (const auto* real = node->as_floating_point()) value = real->get();
    // Written so that NaN fails every comparison.
    if (!value || !(low_included ? *value >= low : *value > low) || !(*value <= high)) {
      fail(*node, key, std::string("must be ") + example);
      return std::nullopt;
    }
    return value;
  }

  // Notes every key that nobody asked for; call after every read. The first in the file lists
  // the known keys, the others point to it rather than repeat the list.
  void reject_unknown_keys() {
    std::vector<const toml::key*> unknown;
    for (auto&& [key, node] : table_) {
      if (known_.count(std::string(key.str())) == 0) unknown.push_back(&key);
    }
    std::stable_sort(unknown.begin(), unknown.end(), [](const toml::key* a, const toml::key* b) {
      return comes_before(a->source().begin, b->source().begin);
    });
    for (const auto* key : unknown) {
      const std::string name = path_ + "." + std::string(key->str());
      if (key == unknown.front()) {
        mistakes_.note(key->source(), "unknown key " + name + "; known keys are: " + known_list());
      } else {
        mistakes_.note(key->source(), "unknown key " + name + "; known keys as listed for " +
                                          path_ + "." + std::string(unknown.front()->str()));
      }
    }
  }

 private:
  std::string known_list() const {
    std::string known;
    for (const auto& name : known_) known += (known.empty() ? "" : ", ") + name;
    return known;
  }

  const toml::table& table_;
  ConfigMistakes& mistakes_;
  std::string path_;
  std::set<std::string> known_;
};

void read_port_selection(TableReader& reader, PortSelection& ports) {
  const toml::node* node = reader.find("ports");
  if (node == nullptr) return;
  ports.given = true;
  constexpr const char* kHelp = "; write \"all\", \"any\" or a list such as [\"mlx5_0/1\"]";
  if (const auto* text = node->as_string()) {
    if (text->get() == "all") {
      ports.kind = PortSelection::Kind::kAll;
    } else if (text->get() == "any") {
      ports.kind = PortSelection::Kind::kAny;
    } else {
      reader.fail(*node, "ports", "is \"" + text->get() + "\"" + kHelp);
    }
    return;
  }
  const auto* list = node->as_array();
  if (list == nullptr) return reader.fail(*node, "ports", "is " + type_name(*node) + kHelp);
  ports.kind = PortSelection::Kind::kListed;
  for (const auto& item : *list) {
    const auto* entry = item.as_string();
    if (entry == nullptr || entry->get().find('/') == std::string::npos) {
      return reader.fail(item, "ports",
                         "has an entry that is not \"device/port\"" + std::string(kHelp));
    }
    ports.listed.push_back(entry->get());
  }
}

void read_string_list(TableReader& reader, std::string_view key, std::vector<std::string>& out) {
  const toml::node* node = reader.find(key);
  if (node == nullptr) return;
  const auto* list = node->as_array();
  if (list == nullptr) {
    return reader.fail(
        *node, key, "is " + type_name(*node) + "; write a list of names such as [\"ib_uverbs\"]");
  }
  out.clear();
  for (const auto& item : *list) {
    const auto* entry = item.as_string();
    if (entry == nullptr || entry->get().empty()) {
      return reader.fail(item, key, "has an entry that is not a name; write a list of strings");
    }
    out.push_back(entry->get());
  }
}

void read_memlock(TableReader& reader, Expectations& expect) {
  const toml::node* node = reader.find("memlock");
  if (node == nullptr) return;
  if (const auto* text = node->as_string(); text != nullptr && text->get() == "unlimited") {
    expect.memlock_kib.reset();
  } else if (const auto* integer = node->as_integer(); integer != nullptr && integer->get() > 0) {
    expect.memlock_kib = static_cast<std::uint64_t>(integer->get());
  } else {
    reader.fail(*node, "memlock", "must be \"unlimited\" or a positive size in KiB");
  }
}

// active_mtu: one of the MTUs an RDMA port can run.
void read_active_mtu(TableReader& reader, Expectations& expect) {
  const toml::node* node = reader.find("active_mtu");
  if (node == nullptr) return;
  const auto* integer = node->as_integer();
  if (integer != nullptr) {
    for (std::int64_t mtu = 256; mtu <= 4096; mtu *= 2) {
      if (integer->get() != mtu) continue;
      expect.active_mtu = static_cast<int>(mtu);
      return;
    }
  }
  reader.fail(*node, "active_mtu",
              "is " + (integer != nullptr ? std::to_string(integer->get()) : type_name(*node)) +
                  "; write one of 256, 512, 1024, 2048, 4096 (bytes, as ibv_devinfo's "
                  "active_mtu)");
}

void read_expect(TableReader& reader, Expectations& expect) {
  std::string link_layer;
  reader.read_string("link_layer", link_layer, {"InfiniBand", "Ethernet", "any"});
  if (!link_layer.empty() && link_layer != "any") expect.link_layer = link_layer;
  expect.min_rate_gbps = reader.read_positive_number("min_rate_gbps");
  if (auto count = reader.read_count("port_count", 64))
    expect.port_count = static_cast<int>(*count);
  read_port_selection(reader, expect.ports);
  read_active_mtu(reader, expect);
  read_string_list(reader, "modules", expect.modules);
  std::string gpu_direct;
  reader.read_string("gpu_direct", gpu_direct, {"auto", "required", "off"});
  if (gpu_direct == "required") expect.gpu_direct = GpuDirect::kRequired;
  if (gpu_direct == "off") expect.gpu_direct = GpuDirect::kOff;
  read_memlock(reader, expect);
  // The kernel's cpufreq governors (intel_pstate and amd-pstate offer the first two only).
  reader.read_string(
      "cpu_governor", expect.cpu_governor,
      {"performance", "powersave", "ondemand", "conservative", "schedutil", "userspace", "any"});
  reader.read_string("ipoib_mode", expect.ipoib_mode, {"auto", "connected", "datagram", "any"});
  if (auto mtu = reader.read_count("ipoib_mtu", 65520)) expect.ipoib_mtu = *mtu;
  reader.read_bool("ipoib", expect.ipoib);
  reader.read_bool("pcie", expect.pcie);
  std::string platform;
  reader.read_string("platform", platform, {"any", "homelab", "azure", "lab"});
  if (platform == "homelab") expect.platform = Platform::kHomelab;
  if (platform == "azure") expect.platform = Platform::kAzure;
  if (platform == "lab") expect.platform = Platform::kLab;
  reader.read_bool("loopback", expect.loopback);
  reader.reject_unknown_keys();
}

// Port counters the kernel exposes under ports/N/counters; a limit on a name neither these nor
// the transport counters have is a typo.
constexpr std::string_view kPortCounters[] = {
    "symbol_error",
    "link_error_recovery",
    "link_downed",
    "port_rcv_errors",
    "port_rcv_remote_physical_errors",
    "port_rcv_switch_relay_errors",
    "port_xmit_discards",
    "port_xmit_constraint_errors",
    "port_rcv_constraint_errors",
    "local_link_integrity_errors",
    "excessive_buffer_overrun_errors",
    "VL15_dropped",
    "port_xmit_wait",
};

// <counter>_per_hour and <counter>_per_second for each counter judged as a rate.
void read_error_rate_limits(TableReader& reader, ErrorRateLimits& limits) {
  for (auto counter : kRateCounters) {
    const std::string name(counter);
    if (auto limit = reader.read_number_in(name + "_per_hour", 0, true, 1e12,
                                           "a number of errors per hour, 0 or more, such as 720"))
      limits.per_hour[name] = *limit;
    if (auto limit = reader.read_number_in(name + "_per_second", 0, true, 1e9,
                                           "a number of errors per second, 0 or more, such as 10"))
      limits.per_second[name] = *limit;
  }
}

// [limits] names port counters and transport counters alike; rxe's hw_counters/link_downed
// and counters/link_downed share the one limit.
void read_limits(TableReader& reader, Config& config) {
  for (auto counter : kPortCounters) {
    if (auto limit = reader.read_count(counter, UINT32_MAX))
      config.counter_limits[std::string(counter)] = *limit;
  }
  for (const auto& counter : transport_counters()) {
    const std::string name(counter.name);
    if (name == "link_downed") {
      if (auto limit = config.counter_limits.find(name); limit != config.counter_limits.end())
        config.transport_limits[name] = limit->second;
      continue;
    }
    if (auto limit = reader.read_count(counter.name, UINT32_MAX))
      config.transport_limits[name] = *limit;
  }
  if (auto flaps = reader.read_count("link_flaps", UINT32_MAX)) config.max_link_flaps = *flaps;
  read_error_rate_limits(reader, config.error_rates);
  reader.reject_unknown_keys();
}

void read_thresholds(TableReader& reader, Thresholds& thresholds) {
  thresholds.max_latency_us =
      reader.read_positive_number("max_latency_us", 1e9, "a positive number of microseconds");
  thresholds.min_bandwidth_gbps = reader.read_positive_number("min_bandwidth_gbps");
  thresholds.min_bandwidth_fraction = reader.read_positive_number(
      "min_bandwidth_fraction", 1.0, "a fraction of the port's data rate, above 0 and at most 1");
  thresholds.min_tcp_gbps = reader.read_positive_number("min_tcp_gbps");
  if (auto delta = reader.read_count("max_counter_delta", UINT32_MAX))
    thresholds.max_counter_delta = *delta;
  if (auto delta = reader.read_count("max_transport_delta", UINT32_MAX))
    thresholds.max_transport_delta = *delta;
  reader.read_bool("fleet", thresholds.fleet.on);
  if (auto ratio = reader.read_number_in("fleet_max_latency_ratio", 1, true, 1000,
                                         "a number from 1 to 1000, such as 3")) {
    thresholds.fleet.max_latency_ratio = *ratio;
    thresholds.fleet.latency_pinned = true;
  }
  if (auto ratio = reader.read_number_in("fleet_min_bandwidth_ratio", 0, false, 1,
                                         "a fraction above 0 and at most 1, such as 0.33")) {
    thresholds.fleet.min_bandwidth_ratio = *ratio;
    thresholds.fleet.bandwidth_pinned = true;
  }
  reader.reject_unknown_keys();
}

const toml::table* subtable(const toml::table& root, std::string_view name,
                            ConfigMistakes& mistakes) {
  const toml::node* node = root.get(name);
  if (node == nullptr) return nullptr;
  if (!node->is_table()) {
    mistakes.note(node->source(), std::string(name) + " must be a table; write [" +
                                      std::string(name) + "] on a line of its own");
  }
  return node->as_table();
}

// Line `number` (1-based) of `text`, or "".
std::string_view line_of(std::string_view text, std::size_t number) {
  for (std::size_t line = 1; line < number; ++line) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) return "";
    text.remove_prefix(end + 1);
  }
  return text.substr(0, text.find('\n'));
}

// For `key = Word` (a word not quoted, which TOML reads as a number, a boolean or nothing):
// "link_layer = InfiniBand: text needs quotes; write link_layer = \"InfiniBand\"". "" for
// any other line, whose parse error then stands as toml++ words it.
std::string unquoted_text(std::string_view line) {
  auto is_key = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  auto is_word = [&](char c) { return is_key(c) || c == '.' || c == '/' || c == ':' || c == '+'; };
  auto skip = [&](auto accept) {
    std::size_t n = 0;
    while (n < line.size() && accept(line[n])) ++n;
    const auto taken = line.substr(0, n);
    line.remove_prefix(n);
    return taken;
  };
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  skip(blank);
  const auto key = skip(is_key);
  skip(blank);
  if (key.empty() || line.empty() || line.front() != '=') return "";
  line.remove_prefix(1);
  skip(blank);
  if (line.empty() || !std::isalpha(static_cast<unsigned char>(line.front()))) return "";
  const auto word = skip(is_word);
  skip(blank);
  if (!line.empty() && line.front() != '#') return "";
  if (word == "true" || word == "false" || word == "inf" || word == "nan") return "";
  return std::string(key) + " = " + std::string(word) + ": text needs quotes; write " +
         std::string(key) + " = \"" + std::string(word) + "\"";
}

}  // namespace

Expected<Config> parse_config(std::string_view text, std::string_view source_name) {
  Config config;
  config.source = std::string(source_name);
  if (auto hazard = first_toml_hazard(text, kMaxConfigDepth)) {
    const auto line = std::string(source_name) + ":" + std::to_string(hazard->line);
    if (hazard->kind == TomlHazard::Kind::too_deep) {
      return Error{line + ": a key nested more than " + std::to_string(kMaxConfigDepth) +
                   " levels deep; ibkit's keys are a table and a name, e.g. [expect] then "
                   "port_count = 2"};
    }
    return Error{line +
                 ": a non-ASCII character outside a quoted string or comment; TOML allows "
                 "them only there: remove it, or quote the value"};
  }
  toml::table root;
  try {
    root = toml::parse(toml_safe_text(text), source_name);
  } catch (const toml::parse_error& error) {
    const auto quotes = unquoted_text(line_of(text, error.source().begin.line));
    return Error{where(source_name, error.source()) + ": " +
                 (quotes.empty() ? std::string(error.description()) : quotes)};
  }

  ConfigMistakes mistakes(source_name);
  for (auto&& [key, node] : root) {
    if (key.str() != "expect" && key.str() != "limits" && key.str() != "thresholds") {
      mistakes.note(key.source(), "unknown table or key \"" + std::string(key.str()) +
                                      "\"; the configuration has [expect], [limits] and "
                                      "[thresholds]");
    }
  }
  if (const auto* expect = subtable(root, "expect", mistakes)) {
    TableReader reader(*expect, mistakes, "expect");
    read_expect(reader, config.expect);
  }
  if (const auto* limits = subtable(root, "limits", mistakes)) {
    TableReader reader(*limits, mistakes, "limits");
    read_limits(reader, config);
  }
  if (const auto* thresholds = subtable(root, "thresholds", mistakes)) {
    TableReader reader(*thresholds, mistakes, "thresholds");
    read_thresholds(reader, config.thresholds);
  }
  if (auto error = mistakes.error()) return *error;
  return config;
}

Expected<Config> load_config(const std::filesystem::path& file) {
  auto content = read_bounded_file(file.string(), kConfigFile);
  if (!content) return content.error();
  return parse_config(content->bytes, file.string());
}

}  // namespace ibkit
