#include "sysfs/sysfs_root.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "util/text.hpp"

namespace ibkit {
namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxAttributeBytes = 64 * 1024;
}

Expected<SysfsRoot> SysfsRoot::open(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return Error{"--root " + root.string() +
                 ": not a directory; give the root of a sysfs tree (\"/\" for this machine)"};
  }
  fs::path canonical = fs::canonical(root, ec);
  if (ec) return Error{"--root " + root.string() + ": " + ec.message()};
  return SysfsRoot(canonical, canonical == fs::path("/"));
}

fs::path SysfsRoot::full(std::string_view relative) const {
  return root_ / fs::path(relative).relative_path();
}

std::optional<std::string> SysfsRoot::read(std::string_view relative) const {
  fs::path file = full(relative);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string content(kMaxAttributeBytes + 1, '\0');
  in.read(content.data(), static_cast<std::streamsize>(content.size()));
  if (in.bad()) return std::nullopt;
  content.resize(static_cast<std::size_t>(in.gcount()));
  if (content.size() > kMaxAttributeBytes) return std::nullopt;
  if (content.find('\0') != std::string::npos) return std::nullopt;
  return std::string(trim(content));
}

std::vector<std::string> SysfsRoot::list(std::string_view relative) const {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(full(relative), ec);
  if (ec) return names;
  for (const auto& entry : it) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool SysfsRoot::exists(std::string_view relative) const {
  std::error_code ec;
  return fs::exists(full(relative), ec);
}

bool SysfsRoot::is_directory(std::string_view relative) const {
  std::error_code ec;
  return fs::is_directory(full(relative), ec);
}

std::optional<std::string> SysfsRoot::link_target_name(std::string_view relative) const {
  std::error_code ec;
  fs::path target = fs::read_symlink(full(relative), ec);
  if (ec) return std::nullopt;
  return target.filename().string();
}

std::optional<std::string> SysfsRoot::resolve(std::string_view relative) const {
  std::error_code ec;
  fs::path resolved = fs::canonical(full(relative), ec);
  if (ec) return std::nullopt;
  fs::path inside = resolved.lexically_relative(root_);
  if (inside.empty() || *inside.begin() == "..") return std::nullopt;
  return inside.string();
}

}  // namespace ibkit
