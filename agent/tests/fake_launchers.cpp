#include "fake_launchers.hpp"

#include <arpa/inet.h>
#include <cstdlib>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "scratch_path.hpp"

namespace ibkit::test {
namespace {

const std::string kTests = std::string(source_dir()) + "/agent/tests";

}  // namespace

const std::string kFakeAgent = kTests + "/fake_agent.sh";

FakeLaunchers::FakeLaunchers()
    : dir(scratch_path("launchers")),
      log((dir / "calls.log").string()),
      old_path(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin") {
  std::filesystem::create_directories(dir);
  for (const char* name : {"ssh", "srun"}) {
    std::filesystem::remove(dir / name);
    std::filesystem::create_symlink(kTests + "/fake_launcher.sh", dir / name);
  }
  setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  setenv("FAKE_LAUNCHER_LOG", log.c_str(), 1);
}

FakeLaunchers::~FakeLaunchers() {
  setenv("PATH", old_path.c_str(), 1);
  unsetenv("FAKE_LAUNCHER_LOG");
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

std::string FakeLaunchers::calls() const {
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

LaunchSettings settings_for(LaunchMethod method, const std::string& agent) {
  LaunchSettings settings;
  settings.remote.method = method;
  settings.remote.connect_timeout_s = 2;
  settings.remote_ibkit = agent;
  settings.check_timeout_s = 20;
  settings.listen_timeout_s = 20;
  return settings;
}

std::uint16_t free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  close(fd);
  return ntohs(address.sin_port);
}

bool process_with(const std::string& needle) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline");
    std::string line;
    std::getline(in, line, '\0');
    std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if ((line + " " + rest).find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace ibkit::test
