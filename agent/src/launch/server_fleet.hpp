#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "control/auth.hpp"
#include "launch/launch_settings.hpp"
#include "launch/node_problem.hpp"
#include "util/expected.hpp"
#include "util/process/launched_child.hpp"

namespace ibkit {

// The ibkit serve a launched sweep runs on each node: started through the launcher with
// `--key-file - --until-stdin-closes`, the run's key written to its stdin (never a command line,
// a file or an environment), and ready once it says it listens. While the sweep runs their
// stderr is read, so a chatty server never blocks on a full pipe. Stopping closes their stdin:
// each server stops, and its ssh or srun ends with it. The launchers that have not ended after
// the settings' stop grace are terminated, all at once, and those still running after the
// term grace killed: stopping takes those two graces at most, however many nodes there are. If
// this process dies instead, the kernel closes the pipes, with the same effect.
class ServerFleet {
 public:
  // Starts one server per node and waits, at most settings.listen_timeout_s, until each listens
  // or has failed (problems() says which and why); `each_ready`, when given, is called (from
  // this thread) as each one does. A stop signal (settings.stop_signal) starts no more servers
  // and ends the wait: those not listening yet are stopped, as kStopped problems. Fails only
  // when this machine has no descriptor left to start a launcher with (EMFILE, ENFILE): the
  // sweep's failure, never a node's; the servers started by then are stopped.
  static Expected<std::unique_ptr<ServerFleet>> start(const LaunchSettings& settings,
                                                      const std::vector<std::string>& nodes,
                                                      const SharedKey& key,
                                                      std::function<void()> each_ready = {});
  ~ServerFleet() { stop(); }
  ServerFleet(const ServerFleet&) = delete;
  ServerFleet& operator=(const ServerFleet&) = delete;

  // Per node, in the order given: nothing when its server listens, else why it does not.
  const std::vector<std::optional<NodeProblem>>& problems() const { return problems_; }

  // Stops every server (idempotent). Returns a line for each launcher that had to be killed.
  std::vector<std::string> stop();

 private:
  ServerFleet(const LaunchSettings& settings, const std::vector<std::string>& nodes,
              std::function<void()> each_ready);
  void wait_until_listening(const LaunchSettings& settings);
  void set_problem(std::size_t i, NodeProblem problem);  // and tells each_ready_
  NodeProblem stopped_problem(const LaunchSettings& settings, std::size_t i) const;
  void drain_errors();

  // Stops the launchers of `which` together (stop_together), `grace` after their stdin closes;
  // returns, per entry of `which`, how each ended.
  std::vector<StopOutcome> stop_children(const std::vector<std::size_t>& which,
                                         std::chrono::milliseconds grace);

  std::vector<std::string> nodes_;
  std::function<void()> each_ready_;
  std::chrono::milliseconds stop_grace_;
  std::chrono::milliseconds term_grace_;
  std::vector<std::optional<LaunchedChild>> children_;
  std::vector<std::string> errors_;  // each server's stderr so far (capped)
  std::vector<std::optional<NodeProblem>> problems_;
  std::atomic<bool> stopping_{false};  // set once by stop(): ends the drainer
  std::thread drainer_;
};

}  // namespace ibkit
