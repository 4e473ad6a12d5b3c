#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/channel.hpp"
#include "util/expected.hpp"
#include "util/files/file_descriptor.hpp"
#include "util/posix_error.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// An errno from send/recv on a connection to `who` ("peer 10.0.0.2:40112"), `doing` being
// "sending" or "receiving"; a reset or broken pipe reads "<who> closed the connection".
Error transfer_error(const std::string& who, const char* doing, int errnum);

// One end of a TCP connection: a numeric address (IPv4-mapped IPv6 shown as IPv4) and a port.
struct TcpEndpoint {
  std::string address;
  std::uint16_t port = 0;
  // "10.0.0.1:18515" or "[fe80::1%ib0]:18515", for messages.
  std::string label() const;
};

// Why a read of `size` bytes (`what`: "a frame header") from `who` ("peer 10.0.0.1:18515")
// ended after `got` of them: the peer closed the connection, or it stayed silent until the
// deadline, `waited` seconds after the read began. Shared by every stream a frame is read from.
Error receive_ended(const std::string& who, const char* what, std::size_t got, std::size_t size);
Error receive_timed_out(const std::string& who, const char* what, std::size_t got, std::size_t size,
                        double waited);

// Waits until `fd` has one of `events` (poll(2) flags) or the deadline passes. Returns the
// revents (never 0 when ready), 0 when the deadline passed; retries EINTR.
short wait_for_events(int fd, short events, const Deadline& deadline);

// A connected non-blocking TCP socket. Every error names the peer.
class Socket {
 public:
  Socket(FileDescriptor fd, TcpEndpoint local, TcpEndpoint peer);

  // Writes all `size` bytes, waiting for buffer space until the deadline. Fails when the deadline
  // passes or the peer is gone.
  Expected<Done> send_all(const void* data, std::size_t size, const Deadline& deadline);
  // Reads exactly `size` bytes. Fails on timeout, a reset, or end of stream (saying how many of
  // the bytes came); `what` names the bytes in those messages ("a frame header").
  Expected<Done> receive_exact(void* data, std::size_t size, const Deadline& deadline,
                               const char* what);

  // Waits for the peer's first byte and returns it without taking it from the stream. Fails
  // when the peer closes the connection or sends nothing before the deadline (`what` names the
  // awaited bytes in that message).
  Expected<unsigned char> peek_byte(const Deadline& deadline, const char* what);

  // Ends the sending direction: the peer reads end of stream after the bytes already sent.
  void shutdown_write();
  // Ends both directions now; a thread waiting on this socket wakes. Safe from another thread.
  void shutdown_both();

  int fd() const { return fd_.get(); }
  const TcpEndpoint& local() const { return local_; }
  const TcpEndpoint& peer() const { return peer_; }
  // "peer 10.0.0.1:18515", the prefix of this socket's error messages.
  std::string peer_name() const { return "peer " + peer_.label(); }

 private:
  FileDescriptor fd_;
  TcpEndpoint local_;
  TcpEndpoint peer_;
};

// Connects to host:port (a name or a numeric IPv4/IPv6 address), trying each address the name
// has, each attempt bounded by the deadline. Fails with a message naming host:port.
Expected<Socket> connect_tcp(const std::string& host, std::uint16_t port, const Deadline& deadline);

// The numeric addresses a host name (or a numeric address, given back as it is written by the
// resolver) has for a stream socket, in the order connect_tcp tries them, IPv4-mapped ones as
// IPv4; waits for the name service until the deadline. Fails when the name service knows no
// such name, and with `environment` set when it gave no answer (in time, or at all).
Expected<std::vector<std::string>> resolve_addresses(const std::string& host,
                                                     const Deadline& deadline);

// A listening TCP socket whose accept waits honour a deadline.
class Listener {
 public:
  // Listens on `address` (numeric; "" = every IPv6 and IPv4 address) and `port` (0 = an
  // ephemeral port). Fails when the address is not numeric or the port is taken.
  static Expected<Listener> open(const std::string& address, std::uint16_t port);

  // Waits for one connection until the deadline; fails with "no peer came within N s".
  Expected<Socket> accept(const Deadline& deadline);
  // Takes a connection that is already waiting (after poll said the fd is readable); nullopt
  // when none is waiting after all.
  Expected<std::optional<Socket>> accept_ready();

  int fd() const { return fd_.get(); }
  const TcpEndpoint& local() const { return local_; }

 private:
  Listener(FileDescriptor fd, TcpEndpoint local) : fd_(std::move(fd)), local_(std::move(local)) {}
  FileDescriptor fd_;
  TcpEndpoint local_;
};

// True when `text` is a numeric IPv4 or IPv6 address (an IPv6 scope suffix "%ib0" allowed).
bool is_numeric_address(const std::string& text);

// True when `text` is a numeric loopback address: 127.0.0.0/8, ::1, or ::ffff:127.x.y.z.
bool is_loopback_address(const std::string& text);

// Seconds as text for messages: "3 s", "0.25 s".
std::string seconds_text(double seconds);

}  // namespace ibkit
