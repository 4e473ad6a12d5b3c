#include "util/process/service_ready.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "scratch_path.hpp"

namespace ibkit {
namespace {

// A datagram socket bound where NOTIFY_SOCKET names it, as systemd's: a path, or with a
// leading "@" an abstract name. NOTIFY_SOCKET is set while it lives.
class FakeServiceManager {
 public:
  explicit FakeServiceManager(const std::string& name) : name_(name) {
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name.data(), name.size());
    if (name[0] == '@') address.sun_path[0] = '\0';
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size());
    bound_ = fd_ >= 0 && bind(fd_, reinterpret_cast<const sockaddr*>(&address), length) == 0;
    setenv("NOTIFY_SOCKET", name.c_str(), 1);
  }
  ~FakeServiceManager() {
    unsetenv("NOTIFY_SOCKET");
    if (fd_ >= 0) close(fd_);
    if (name_[0] == '/') std::filesystem::remove(name_);
  }
  bool bound() const { return bound_; }
  // The message waiting, if one came.
  std::optional<std::string> message() const {
    char buffer[64] = {};
    const auto got = recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (got < 0) return std::nullopt;
    return std::string(buffer, static_cast<std::size_t>(got));
  }

 private:
  std::string name_;
  int fd_ = -1;
  bool bound_ = false;
};

TEST_CASE("tell_service_manager_ready sends READY=1 to NOTIFY_SOCKET's path", "[util]") {
  FakeServiceManager manager(test::scratch_path("notify").string());
  REQUIRE(manager.bound());
  REQUIRE(tell_service_manager_ready().ok());
  CHECK(manager.message() == "READY=1");
}

TEST_CASE("tell_service_manager_ready reaches an abstract socket named @name", "[util]") {
  FakeServiceManager manager("@ibkit-notify-" + std::to_string(getpid()));
  REQUIRE(manager.bound());
  REQUIRE(tell_service_manager_ready().ok());
  CHECK(manager.message() == "READY=1");
}

TEST_CASE("tell_service_manager_ready does nothing without NOTIFY_SOCKET", "[util]") {
  unsetenv("NOTIFY_SOCKET");
  CHECK(tell_service_manager_ready().ok());
}

TEST_CASE("tell_service_manager_ready says why it could not reach the service manager", "[util]") {
  setenv("NOTIFY_SOCKET", "relative/path", 1);
  auto relative = tell_service_manager_ready();
  REQUIRE_FALSE(relative.ok());
  CHECK_THAT(relative.error().message, Catch::Contains("NOTIFY_SOCKET is not a socket path"));
  const auto gone = test::scratch_path("no-such-socket").string();
  setenv("NOTIFY_SOCKET", gone.c_str(), 1);
  auto missing = tell_service_manager_ready();
  unsetenv("NOTIFY_SOCKET");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message, Catch::Contains(gone));
}

}  // namespace
}  // namespace ibkit
