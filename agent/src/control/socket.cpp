#include "control/socket.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "util/posix_error.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The numeric address and port of a socket address; an IPv4-mapped IPv6 address becomes the
// plain IPv4 one, so a dual-stack listener names peers the way they name themselves.
TcpEndpoint endpoint_of(const sockaddr* address, socklen_t length) {
  char host[NI_MAXHOST] = "";
  char service[NI_MAXSERV] = "";
  if (getnameinfo(address, length, host, sizeof host, service, sizeof service,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return {"?", 0};
  }
  std::string text = host;
  if (text.rfind("::ffff:", 0) == 0 && text.find('.') != std::string::npos) text.erase(0, 7);
  auto port = parse_unsigned(service);
  return {text, static_cast<std::uint16_t>(port.value_or(0))};
}

TcpEndpoint local_endpoint(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {"?", 0};
  return endpoint_of(reinterpret_cast<sockaddr*>(&address), length);
}

struct AddressList {
  addrinfo* head = nullptr;
  ~AddressList() {
    if (head != nullptr) freeaddrinfo(head);
  }
};

addrinfo stream_hints(int flags) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | flags;
  return hints;
}

// Resolves host:port for a stream socket; `flags` adds AI_NUMERICHOST / AI_PASSIVE.
Expected<AddressList*> resolve(const std::string& host, std::uint16_t port, int flags,
                               AddressList& list) {
  const addrinfo hints = stream_hints(flags);
  const std::string service = std::to_string(port);
  int status =
      getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &list.head);
  if (status != 0) {
    return Error{TcpEndpoint{host, port}.label() + ": " + gai_strerror(status)};
  }
  return &list;
}

// A name lookup that may outlive its caller: getaddrinfo has no timeout, so it runs on a
// thread of its own and frees its own result when nobody waits for it any more.
struct NameLookup {
  std::mutex mutex;
  std::condition_variable finished_signal;
  bool finished = false;
  bool abandoned = false;
  int status = 0;
  addrinfo* head = nullptr;
};

// The name service's answer for host:port by the deadline: getaddrinfo's status (0: `list`
// holds the addresses), or nullopt when it gave none in time.
std::optional<int> look_up_by(const std::string& host, std::uint16_t port, const Deadline& deadline,
                              AddressList& list) {
  if (resolve(host, port, AI_NUMERICHOST, list)) return 0;
  auto lookup = std::make_shared<NameLookup>();
  const std::string service = std::to_string(port);
  std::thread([lookup, host, service] {
    const addrinfo hints = stream_hints(0);
    addrinfo* head = nullptr;
    const int status = getaddrinfo(host.c_str(), service.c_str(), &hints, &head);
    std::lock_guard<std::mutex> lock(lookup->mutex);
    if (lookup->abandoned) {
      if (head != nullptr) freeaddrinfo(head);
    } else {
      lookup->status = status;
      lookup->head = head;
    }
    lookup->finished = true;
    lookup->finished_signal.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(lookup->mutex);
  if (!lookup->finished_signal.wait_until(lock, deadline.time_point(),
                                          [&] { return lookup->finished; })) {
    lookup->abandoned = true;
    return std::nullopt;
  }
  list.head = lookup->head;
  return lookup->status;
}

// Resolves a host name (or a numeric address) for connecting, waiting for the name service
// until the deadline at most.
Expected<AddressList*> resolve_by(const std::string& host, std::uint16_t port,
                                  const Deadline& deadline, AddressList& list) {
  const auto start = Clock::now();
  const auto status = look_up_by(host, port, deadline, list);
  if (!status) {
    return Error{TcpEndpoint{host, port}.label() + ": the name service gave no answer within " +
                 seconds_text(seconds_since(start)) + " (give a numeric address, or fix DNS)"};
  }
  if (*status != 0) return Error{TcpEndpoint{host, port}.label() + ": " + gai_strerror(*status)};
  return &list;
}

// Connects one resolved address, waiting for the handshake until the deadline.
Expected<Socket> connect_address(const addrinfo& address, const std::string& label,
                                 const Deadline& deadline) {
  FileDescriptor fd(socket(address.ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return posix_error("connect to " + label + ": socket", errno);
  const auto start = Clock::now();
  if (connect(fd.get(), address.ai_addr, address.ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return posix_error("connect to " + label, errno);
    if (wait_for_events(fd.get(), POLLOUT, deadline) == 0) {
      return Error{"connect to " + label + ": no answer within " +
                   seconds_text(seconds_since(start))};
    }
    int problem = 0;
    socklen_t length = sizeof problem;
    getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &problem, &length);
    if (problem != 0) return posix_error("connect to " + label, problem);
  }
  TcpEndpoint peer = endpoint_of(address.ai_addr, address.ai_addrlen);
  TcpEndpoint local = local_endpoint(fd.get());
  return Socket(std::move(fd), std::move(local), std::move(peer));
}

}  // namespace

Error transfer_error(const std::string& peer, const char* doing, int errnum) {
  if (errnum == EPIPE || errnum == ECONNRESET) {
    return {peer + " closed the connection (" + errno_text(errnum) + ") while " + doing};
  }
  return posix_error(peer + ": " + doing, errnum);
}

Error receive_ended(const std::string& who, const char* what, std::size_t got, std::size_t size) {
  if (got == 0) return Error{who + " closed the connection"};
  return Error{who + " closed the connection in the middle of " + what + " (" +
               std::to_string(got) + " of " + std::to_string(size) + " bytes came)"};
}

Error receive_timed_out(const std::string& who, const char* what, std::size_t got, std::size_t size,
                        double waited) {
  if (got == 0) {
    return Error{who + " sent nothing for " + seconds_text(waited) + " (deadline passed) while " +
                 "waiting for " + what};
  }
  return Error{who + " stalled in the middle of " + what + " (" + std::to_string(got) + " of " +
               std::to_string(size) + " bytes in " + seconds_text(waited) + ", deadline passed)"};
}

std::string TcpEndpoint::label() const {
  if (address.find(':') != std::string::npos) {
    return "[" + address + "]:" + std::to_string(port);
  }
  return address + ":" + std::to_string(port);
}

short wait_for_events(int fd, short events, const Deadline& deadline) {
  while (true) {
    pollfd entry{fd, events, 0};
    int ready = poll(&entry, 1, deadline.remaining_ms());
    if (ready > 0) return entry.revents;
    if (ready == 0) {
      if (deadline.expired()) return 0;
      continue;  // poll's millisecond rounding woke us a little early
    }
    if (errno != EINTR) return POLLERR;
  }
}

std::string seconds_text(double seconds) { return format_number(seconds, 2) + " s"; }

bool is_numeric_address(const std::string& text) {
  if (text.empty()) return false;
  AddressList list;
  return resolve(text, 0, AI_NUMERICHOST, list).ok();
}

bool is_loopback_address(const std::string& text) {
  if (text.empty()) return false;
  AddressList list;
  if (!resolve(text, 0, AI_NUMERICHOST, list)) return false;
  const sockaddr* address = list.head->ai_addr;
  if (address->sa_family == AF_INET) {
    const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(address);
    return (ntohl(ipv4->sin_addr.s_addr) >> 24) == 127;
  }
  if (address->sa_family != AF_INET6) return false;
  const in6_addr& ipv6 = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
  if (IN6_IS_ADDR_LOOPBACK(&ipv6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&ipv6) && ipv6.s6_addr[12] == 127;
}

Socket::Socket(FileDescriptor fd, TcpEndpoint local, TcpEndpoint peer)
    : fd_(std::move(fd)), local_(std::move(local)), peer_(std::move(peer)) {}

Expected<Done> Socket::send_all(const void* data, std::size_t size, const Deadline& deadline) {
  const auto* bytes = static_cast<const char*>(data);
  const auto start = Clock::now();
  std::size_t sent = 0;
  while (sent < size) {
    ssize_t n = ::send(fd_.get(), bytes + sent, size - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      return transfer_error(peer_name(), "sending", errno);
    }
    if (wait_for_events(fd_.get(), POLLOUT, deadline) == 0) {
      return Error{peer_name() + " took nothing for " + seconds_text(seconds_since(start)) +
                   " (deadline passed; the peer is not reading)"};
    }
  }
  return Done{};
}

Expected<Done> Socket::receive_exact(void* data, std::size_t size, const Deadline& deadline,
                                     const char* what) {
  auto* bytes = static_cast<char*>(data);
  const auto start = Clock::now();
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = ::recv(fd_.get(), bytes + got, size - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return receive_ended(peer_name(), what, got, size);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return transfer_error(peer_name(), "receiving", errno);
    }
    if (wait_for_events(fd_.get(), POLLIN, deadline) == 0) {
      return receive_timed_out(peer_name(), what, got, size, seconds_since(start));
    }
  }
  return Done{};
}

Expected<unsigned char> Socket::peek_byte(const Deadline& deadline, const char* what) {
  const auto start = Clock::now();
  while (true) {
    unsigned char byte = 0;
    ssize_t n = ::recv(fd_.get(), &byte, 1, MSG_PEEK);
    if (n > 0) return byte;
    if (n == 0) return receive_ended(peer_name(), what, 0, 1);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return transfer_error(peer_name(), "receiving", errno);
    }
    if (wait_for_events(fd_.get(), POLLIN, deadline) == 0) {
      return receive_timed_out(peer_name(), what, 0, 1, seconds_since(start));
    }
  }
}

void Socket::shutdown_write() { ::shutdown(fd_.get(), SHUT_WR); }
void Socket::shutdown_both() { ::shutdown(fd_.get(), SHUT_RDWR); }

Expected<std::vector<std::string>> resolve_addresses(const std::string& host,
                                                     const Deadline& deadline) {
  AddressList list;
  const auto start = Clock::now();
  const auto status = look_up_by(host, 1, deadline, list);
  if (!status) {
    return Error{"the name service gave no answer about " + host + " within " +
                     seconds_text(seconds_since(start)),
                 true};
  }
  if (*status == EAI_NONAME || *status == EAI_NODATA || *status == EAI_FAIL) {
    return Error{"the name service knows no " + host + " (" + gai_strerror(*status) + ")"};
  }
  if (*status != 0) {
    return Error{"the name service could not look up " + host + " (" + gai_strerror(*status) + ")",
                 true};
  }
  std::vector<std::string> addresses;
  for (const addrinfo* address = list.head; address != nullptr; address = address->ai_next) {
    std::string text = endpoint_of(address->ai_addr, address->ai_addrlen).address;
    if (std::find(addresses.begin(), addresses.end(), text) == addresses.end())
      addresses.push_back(std::move(text));
  }
  if (addresses.empty()) return Error{"the name service gave " + host + " no address"};
  return addresses;
}

Expected<Socket> connect_tcp(const std::string& host, std::uint16_t port,
                             const Deadline& deadline) {
  const std::string label = TcpEndpoint{host, port}.label();
  AddressList list;
  auto resolved = resolve_by(host, port, deadline, list);
  if (!resolved) return Error{"connect to " + resolved.error().message};
  Error last{"connect to " + label + ": the name has no address"};
  for (const addrinfo* address = list.head; address != nullptr; address = address->ai_next) {
    auto socket = connect_address(*address, label, deadline);
    if (socket) return socket;
    last = socket.error();
    if (deadline.expired()) break;
  }
  return last;
}

Expected<Listener> Listener::open(const std::string& address, std::uint16_t port) {
  // "" listens on IPv6 and IPv4 at once through a dual-stack socket, or on IPv4 alone when
  // the kernel has no IPv6.
  const std::string bind_to = address.empty() ? "::" : address;
  const std::string label = TcpEndpoint{bind_to, port}.label();
  AddressList list;
  auto resolved = resolve(bind_to, port, AI_NUMERICHOST | AI_PASSIVE, list);
  if (!resolved) return Error{"listen on " + resolved.error().message};

  FileDescriptor fd(socket(list.head->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid() && address.empty() && errno == EAFNOSUPPORT) return open("0.0.0.0", port);
  if (!fd.valid()) return posix_error("listen on " + label + ": socket", errno);
  int yes = 1;
  int no = 0;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (list.head->ai_family == AF_INET6 && address.empty()) {
    setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
  }
  if (bind(fd.get(), list.head->ai_addr, list.head->ai_addrlen) != 0) {
    if (address.empty() && errno == EADDRNOTAVAIL) return open("0.0.0.0", port);
    return posix_error("listen on " + label, errno);
  }
  if (listen(fd.get(), 16) != 0) return posix_error("listen on " + label, errno);
  TcpEndpoint local = local_endpoint(fd.get());
  return Listener(std::move(fd), std::move(local));
}

Expected<Socket> Listener::accept(const Deadline& deadline) {
  const auto start = Clock::now();
  while (true) {
    auto socket = accept_ready();
    if (!socket) return socket.error();
    if (*socket) return std::move(**socket);
    if (wait_for_events(fd_.get(), POLLIN, deadline) == 0) {
      return Error{"no peer came within " + seconds_text(seconds_since(start)) + " on " +
                   local_.label()};
    }
  }
}

Expected<std::optional<Socket>> Listener::accept_ready() {
  while (true) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    int fd = accept4(fd_.get(), reinterpret_cast<sockaddr*>(&address), &length,
                     SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      FileDescriptor owned(fd);
      TcpEndpoint peer = endpoint_of(reinterpret_cast<sockaddr*>(&address), length);
      TcpEndpoint local = local_endpoint(fd);
      return std::optional<Socket>(Socket(std::move(owned), std::move(local), std::move(peer)));
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::optional<Socket>();
    // A connection reset before we took it is gone; look for the next one.
    if (errno == EINTR || errno == ECONNABORTED) continue;
    return posix_error("accept on " + local_.label(), errno);
  }
}

}  // namespace ibkit
