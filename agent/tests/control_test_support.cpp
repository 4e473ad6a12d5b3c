#include "control_test_support.hpp"

#include <array>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "scratch_path.hpp"

namespace ibkit::test {

SocketPair loopback_pair(const std::string& address) {
  auto listener = Listener::open(address, 0);
  REQUIRE(listener.ok());
  // A loopback connect completes into the listen backlog, so one thread can do both ends.
  auto client = connect_tcp(address, listener->local().port, Deadline::after_seconds(2));
  REQUIRE(client.ok());
  auto server = listener->accept(Deadline::after_seconds(2));
  REQUIRE(server.ok());
  return {std::make_unique<Socket>(std::move(*client)),
          std::make_unique<Socket>(std::move(*server))};
}

ChannelPair channel_pair() {
  auto sockets = loopback_pair();
  return {std::make_unique<TcpChannel>(std::move(*sockets.client)),
          std::make_unique<TcpChannel>(std::move(*sockets.server))};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string write_key_file(const std::string& name, const std::string& content, mode_t mode) {
  auto path = ibkit::test::scratch_path(name);
  std::filesystem::remove(path);
  {
    std::ofstream out(path);
    out << content;
  }
  chmod(path.c_str(), mode);
  return path.string();
}

ServerThread::ServerThread(ServerSettings settings, ServerSides sides)
    : settings_(std::move(settings)), sides_(std::move(sides)) {
  auto listener = Listener::open("127.0.0.1", 0);
  REQUIRE(listener.ok());
  port_ = listener->local().port;
  listener_ = std::make_unique<Listener>(std::move(*listener));
  std::array<int, 2> ends{};
  REQUIRE(pipe2(ends.data(), O_CLOEXEC) == 0);
  stop_read_ = FileDescriptor(ends[0]);
  stop_write_ = FileDescriptor(ends[1]);
  thread_ = std::thread([this] {
    summary_ = run_server(*listener_, settings_, sides_, stop_read_.get(), log_);
    returned_ = true;
  });
}

ServerThread::~ServerThread() { stop(); }

ServerSummary ServerThread::stop() {
  if (thread_.joinable()) {
    char byte = 1;
    [[maybe_unused]] auto written = write(stop_write_.get(), &byte, 1);
    thread_.join();
  }
  return summary_;
}

bool ServerThread::wait(std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (!returned_ && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (returned_ && thread_.joinable()) thread_.join();
  return returned_;
}

}  // namespace ibkit::test
