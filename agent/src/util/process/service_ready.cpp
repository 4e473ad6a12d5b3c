#include "util/process/service_ready.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

constexpr std::string_view kReady = "READY=1";

}  // namespace

Expected<Done> tell_service_manager_ready() {
  const char* socket_name = std::getenv("NOTIFY_SOCKET");
  if (socket_name == nullptr || *socket_name == '\0') return Done{};
  const std::string name = socket_name;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (name.size() >= sizeof address.sun_path || (name[0] != '/' && name[0] != '@')) {
    return Error{"NOTIFY_SOCKET is not a socket path or @name: " + name};
  }
  std::memcpy(address.sun_path, name.data(), name.size());
  if (name[0] == '@') address.sun_path[0] = '\0';  // an abstract socket's name
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size());
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return posix_error("NOTIFY_SOCKET " + name, errno);
  const auto sent = sendto(fd, kReady.data(), kReady.size(), MSG_NOSIGNAL,
                           reinterpret_cast<const sockaddr*>(&address), length);
  const int saved = errno;
  close(fd);
  if (sent < 0) return posix_error("NOTIFY_SOCKET " + name, saved);
  return Done{};
}

}  // namespace ibkit
