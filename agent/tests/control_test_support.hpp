#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <sys/types.h>
#include <thread>

#include "control/server.hpp"
#include "control/socket.hpp"
#include "control/tcp_channel.hpp"

// Loopback plumbing shared by the control-channel and TCP tests: connected pairs on ephemeral
// ports, key files, and a server on its own thread.
namespace ibkit::test {

struct SocketPair {
  std::unique_ptr<Socket> client;
  std::unique_ptr<Socket> server;
};

// A connected TCP pair on `address` ("127.0.0.1" or "::1") and an ephemeral port.
SocketPair loopback_pair(const std::string& address = "127.0.0.1");

struct ChannelPair {
  std::unique_ptr<TcpChannel> client;
  std::unique_ptr<TcpChannel> server;
};
ChannelPair channel_pair();

double seconds_since(std::chrono::steady_clock::time_point start);

// Writes `content` to a fresh file under the temp directory with `mode`; returns its path.
std::string write_key_file(const std::string& name, const std::string& content, mode_t mode);

// run_server on a loopback listener on its own thread; stopped (like SIGTERM) and joined when
// destroyed. The log is readable after stop().
class ServerThread {
 public:
  ServerThread(ServerSettings settings, ServerSides sides);
  ~ServerThread();
  std::uint16_t port() const { return port_; }
  // Stops the server (as a signal would) and waits for it; returns its summary.
  ServerSummary stop();
  // Waits for the server to return by itself (--once, deadline), at most `limit`.
  bool wait(std::chrono::milliseconds limit);
  std::string log() const { return log_.str(); }
  const ServerSummary& summary() const { return summary_; }

 private:
  ServerSettings settings_;
  ServerSides sides_;
  std::unique_ptr<Listener> listener_;
  std::uint16_t port_ = 0;
  FileDescriptor stop_read_;
  FileDescriptor stop_write_;
  std::ostringstream log_;
  ServerSummary summary_;
  std::thread thread_;
  std::atomic<bool> returned_{false};
};

}  // namespace ibkit::test
