#include "guarded_fifo.hpp"

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

namespace ibkit::test {

GuardedFifo::GuardedFifo(const std::string& name, int seconds)
    : path_((std::filesystem::temp_directory_path() /
             ("ibkit-" + name + "-" + std::to_string(getpid())))
                .string()) {
  std::filesystem::remove(path_);
  REQUIRE(mkfifo(path_.c_str(), 0600) == 0);
  watchdog_ = std::thread([this, seconds] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!done_ && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (done_) return;
    // Succeeds only when a reader has the FIFO open (or is stuck opening it).
    const int writer = open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (writer >= 0) close(writer);
  });
}

GuardedFifo::~GuardedFifo() {
  done_ = true;
  watchdog_.join();
  std::filesystem::remove(path_);
}

}  // namespace ibkit::test
