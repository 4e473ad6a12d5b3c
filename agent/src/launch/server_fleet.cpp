#include "launch/server_fleet.hpp"

#include <chrono>
#include <poll.h>

#include "launch/launch_targets.hpp"
#include "launch/remote_command.hpp"
#include "util/process/descriptor_room.hpp"
#include "util/process/stop_signals.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kErrorsKept = 16 * 1024;
constexpr const char* kListening = "ibkit serve: listening on";
// How long a launcher whose stderr closed before its server listened gets to end by itself.
constexpr std::chrono::seconds kEndingGrace{2};

std::chrono::milliseconds milliseconds_of(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

std::vector<std::string> serve_command(const LaunchSettings& settings) {
  std::vector<std::string> command{settings.remote_ibkit,         "serve",      "--port",
                                   std::to_string(settings.port), "--key-file", "-",
                                   "--until-stdin-closes"};
  if (settings.serve_deadline_s > 0) {
    command.push_back("--deadline");
    command.push_back(format_number(settings.serve_deadline_s, 0));
  }
  if (settings.session_timeout_s > 0) {
    command.push_back("--session-timeout");
    command.push_back(format_number(settings.session_timeout_s, 0));
  }
  return command;
}

}  // namespace

ServerFleet::ServerFleet(const LaunchSettings& settings, const std::vector<std::string>& nodes,
                         std::function<void()> each_ready)
    : nodes_(nodes),
      each_ready_(std::move(each_ready)),
      stop_grace_(milliseconds_of(settings.stop_grace_s)),
      term_grace_(milliseconds_of(settings.term_grace_s)),
      children_(nodes.size()),
      errors_(nodes.size()),
      problems_(nodes.size()) {}

Expected<std::unique_ptr<ServerFleet>> ServerFleet::start(const LaunchSettings& settings,
                                                          const std::vector<std::string>& nodes,
                                                          const SharedKey& key,
                                                          std::function<void()> each_ready) {
  // The constructor is private: make_unique cannot reach it.
  std::unique_ptr<ServerFleet> fleet(new ServerFleet(settings, nodes, std::move(each_ready)));
  const auto command = serve_command(settings);
  const std::string how = launch_method_name(settings.remote.method);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (stopped_by(settings) != 0) {
      fleet->set_problem(i, fleet->stopped_problem(settings, i));
      continue;
    }
    auto child = LaunchedChild::start(remote_argv(settings.remote, nodes[i], command));
    if (!child && out_of_descriptors(child.error().errnum)) {
      return Error{target_address(nodes[i]) + ": could not start " + how + ": " +
                   child.error().message};
    }
    if (!child) {
      fleet->set_problem(i, NodeProblem{NodeProblemKind::kUnreachable,
                                        target_address(nodes[i]) + ": could not start " + how +
                                            ": " + child.error().message});
      continue;
    }
    // A launcher that ended already fails the write; its stderr says why below.
    (void)child->write_input(key.bytes + "\n");
    fleet->children_[i].emplace(std::move(*child));
  }
  fleet->wait_until_listening(settings);
  fleet->drainer_ = std::thread([raw = fleet.get()] { raw->drain_errors(); });
  return fleet;
}

std::vector<StopOutcome> ServerFleet::stop_children(const std::vector<std::size_t>& which,
                                                    std::chrono::milliseconds grace) {
  std::vector<LaunchedChild*> children;
  for (const std::size_t i : which) children.push_back(&*children_[i]);
  return stop_together(children, grace, term_grace_);
}

void ServerFleet::set_problem(std::size_t i, NodeProblem problem) {
  problems_[i] = std::move(problem);
  if (each_ready_) each_ready_();
}

NodeProblem ServerFleet::stopped_problem(const LaunchSettings& settings, std::size_t i) const {
  return NodeProblem{NodeProblemKind::kStopped,
                     target_address(nodes_[i]) + ": ibkit serve not started: the sweep was " +
                         "stopped by " + stop_signal_name(stopped_by(settings))};
}

void ServerFleet::wait_until_listening(const LaunchSettings& settings) {
  const auto [deadline, by_sweep] = launch_wait(settings, settings.listen_timeout_s);
  const double allowed_s = by_sweep ? deadline.remaining_ms() / 1000.0 : settings.listen_timeout_s;
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
    if (fds.empty() || deadline.expired() || stopped_by(settings) != 0) break;
    poll(fds.data(), fds.size(), std::min(deadline.remaining_ms(), 200));
    std::vector<std::size_t> ended;  // stderr closed before it listened: it ended, or is ending
    for (const std::size_t i : which) {
      const bool open = children_[i]->read_errors(errors_[i], kErrorsKept);
      if (errors_[i].find(kListening) != std::string::npos) {
        listening[i] = true;
        if (each_ready_) each_ready_();
      } else if (!open) {
        ended.push_back(i);
      }
    }
    const auto outcomes = stop_children(ended, kEndingGrace);
    for (std::size_t k = 0; k < ended.size(); ++k) {
      const std::size_t i = ended[k];
      set_problem(
          i, classify_launch_failure(settings.remote.method, nodes_[i], "ibkit serve",
                                     outcomes[k].exit_status, errors_[i], settings.remote_ibkit));
    }
  }
  std::vector<std::size_t> silent;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (waiting(i) && !listening[i]) silent.push_back(i);
  }
  stop_children(silent, std::chrono::milliseconds(0));
  for (const std::size_t i : silent) {
    if (stopped_by(settings) != 0) {
      set_problem(i, stopped_problem(settings, i));
      continue;
    }
    set_problem(
        i,
        NodeProblem{NodeProblemKind::kUnreachable,
                    target_address(nodes_[i]) + ": ibkit serve did not say it listens within " +
                        format_number(allowed_s, 0) + " s of its start through " +
                        launch_method_name(settings.remote.method) +
                        (by_sweep ? ", what the sweep's --deadline left it" : "") +
                        (errors_[i].empty() ? "" : " (" + quoted_excerpt(errors_[i], 200) + ")")});
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
  std::vector<std::size_t> started;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (children_[i]) started.push_back(i);
  }
  const auto outcomes = stop_children(started, stop_grace_);
  for (std::size_t k = 0; k < started.size(); ++k) {
    if (!outcomes[k].signalled) continue;
    killed.push_back(target_address(nodes_[started[k]]) + ": its server did not end within " +
                     format_number(static_cast<double>(stop_grace_.count()) / 1000.0, 1) +
                     " s of its input closing; its launcher was terminated");
  }
  return killed;
}

}  // namespace ibkit
