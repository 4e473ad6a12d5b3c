#include "launch/server_fleet.hpp"

#include <chrono>
#include <poll.h>

#include "launch/remote_command.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kErrorsKept = 16 * 1024;
constexpr const char* kListening = "ibkit serve: listening on";
// How long the servers get to stop once their stdin is closed, all of them together.
constexpr std::chrono::seconds kStopGrace{15};

std::vector<std::string> serve_command(const LaunchSettings& settings) {
  std::vector<std::string> command{settings.remote_ibkit,         "serve",      "--port",
                                   std::to_string(settings.port), "--key-file", "-",
                                   "--until-stdin-closes"};
  if (settings.serve_deadline_s > 0) {
    command.push_back("--deadline");
    command.push_back(format_number(settings.serve_deadline_s, 0));
  }
  return command;
}

}  // namespace

ServerFleet::ServerFleet(const LaunchSettings& settings, const std::vector<std::string>& nodes,
                         const SharedKey& key)
    : nodes_(nodes), children_(nodes.size()), errors_(nodes.size()), problems_(nodes.size()) {
  const auto command = serve_command(settings);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    auto child = LaunchedChild::start(remote_argv(settings.remote, nodes_[i], command));
    if (!child) {
      problems_[i] = NodeProblem{NodeProblemKind::kUnreachable,
                                 nodes_[i] + ": could not start " +
                                     launch_method_name(settings.remote.method) + ": " +
                                     child.error().message};
      continue;
    }
    // A launcher that ended already fails the write; its stderr says why below.
    (void)child->write_input(key.bytes + "\n");
    children_[i].emplace(std::move(*child));
  }
  wait_until_listening(settings);
  drainer_ = std::thread([this] { drain_errors(); });
}

void ServerFleet::wait_until_listening(const LaunchSettings& settings) {
  const Deadline deadline = Deadline::after_seconds(settings.listen_timeout_s);
  auto waiting = [&](std::size_t i) { return children_[i] && !problems_[i]; };
  std::vector<bool> listening(nodes_.size(), false);
  while (true) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!waiting(i) || listening[i]) continue;
      fds.push_back(pollfd{children_[i]->error_fd(), POLLIN, 0});
      which.push_back(i);
    }
    if (fds.empty() || deadline.expired()) break;
    poll(fds.data(), fds.size(), std::min(deadline.remaining_ms(), 200));
    for (std::size_t k = 0; k < which.size(); ++k) {
      const std::size_t i = which[k];
      const bool open = children_[i]->read_errors(errors_[i], kErrorsKept);
      if (errors_[i].find(kListening) != std::string::npos) {
        listening[i] = true;
        continue;
      }
      if (open) continue;
      // Its stderr closed before it listened: it ended, or is ending.
      const int status = children_[i]->stop(std::chrono::seconds(2));
      problems_[i] = classify_launch_failure(settings.remote.method, nodes_[i], "ibkit serve",
                                             status, errors_[i], settings.remote_ibkit);
    }
  }
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (!waiting(i) || listening[i]) continue;
    children_[i]->stop(std::chrono::seconds(0));
    problems_[i] =
        NodeProblem{NodeProblemKind::kUnreachable,
                    nodes_[i] + ": ibkit serve did not say it listens within " +
                        format_number(settings.listen_timeout_s, 0) + " s of its start through " +
                        launch_method_name(settings.remote.method) +
                        (errors_[i].empty() ? "" : " (" + quoted_excerpt(errors_[i], 200) + ")")};
  }
}

void ServerFleet::drain_errors() {
  // Nothing else touches the children or their stderr until stop() has joined this thread.
  while (!stopping_) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!children_[i] || problems_[i] || children_[i]->error_fd() < 0) continue;
      fds.push_back(pollfd{children_[i]->error_fd(), POLLIN, 0});
      which.push_back(i);
    }
    poll(fds.data(), fds.size(), 200);
    for (std::size_t k = 0; k < which.size(); ++k) {
      if (fds[k].revents != 0) children_[which[k]]->read_errors(errors_[which[k]], kErrorsKept);
    }
  }
}

std::vector<std::string> ServerFleet::stop() {
  std::vector<std::string> killed;
  if (stopping_.exchange(true)) return killed;
  if (drainer_.joinable()) drainer_.join();
  for (auto& child : children_) {
    if (child) child->close_input();
  }
  const auto until = std::chrono::steady_clock::now() + kStopGrace;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (!children_[i] || children_[i]->poll_exit() >= 0) continue;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    children_[i]->stop(std::max(left, std::chrono::milliseconds(0)));
    // stop() reaps; a launcher still running at the grace's end was terminated or killed.
    if (std::chrono::steady_clock::now() >= until) {
      killed.push_back(nodes_[i] + ": its server did not end within " +
                       std::to_string(kStopGrace.count()) +
                       " s of its input closing; its launcher was terminated");
    }
  }
  return killed;
}

}  // namespace ibkit
