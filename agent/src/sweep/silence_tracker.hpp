#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ibkit {

// What one attempt said about its two nodes (by index into the sweep's hosts): whether each
// stayed silent, and whether B answered at all (only A's report can say so).
struct PairSilence {
  std::size_t a = 0;
  std::size_t b = 0;
  bool a_silent = false;
  bool b_silent = false;
  bool b_answered = false;
};

// Counts each node's silent pairs in a row during a sweep. A node silent in `limit` pairs in a
// row is silenced: its later pairs are left out (not_run) instead of each waiting out a connect
// timeout. A node that answers starts again from zero.
class SilenceTracker {
 public:
  SilenceTracker(std::size_t nodes, int limit)
      : silent_(nodes, 0), last_chance_(nodes, false), limit_(limit) {}

  // Notes a finished step of `pairs_run` pairs and what each pair that asked its nodes said.
  // When at least kFabricEventPairs of them, and more than half, went unanswered at once, that
  // is the fabric (a switch rebooting, a storm), not the nodes: it is held against none of them,
  // and the result is the note their pairs' reasons get ("; 5 of 8 pairs of this step went
  // unanswered at once: ..."). nullopt otherwise.
  std::optional<std::string> note_step(const std::vector<PairSilence>& seen, std::size_t pairs_run);

  bool silenced(std::size_t node) const {
    return silent_[node] >= (last_chance_[node] ? 1 : limit_);
  }
  // Whether the node's last pair went unanswered (for the progress line).
  bool silent(std::size_t node) const { return silent_[node] > 0; }
  // Every node's silence forgiven: a node down for a moment (a reboot, a flapping link) gets its
  // pairs run again. One that was silenced has a last chance: silenced again by its next pair
  // unless that one answers (then it counts to `limit` again), so a node still dead or frozen
  // costs one more wait, not `limit` more (a frozen node's is a whole pair deadline).
  void forgive_all();
  int limit() const { return limit_; }

  // A step with at least this many pairs unanswered, and more than half of them, is a
  // fabric-wide event. A dead node silences one pair a step, so it takes more than a quarter of
  // the nodes dead at once, and at least four: three dead nodes of eight are three dead nodes.
  static constexpr std::size_t kFabricEventPairs = 4;

 private:
  void note(std::size_t node, bool silent, bool answered);

  std::vector<int> silent_;        // by node: its silent pairs in a row
  std::vector<bool> last_chance_;  // by node: silenced before, forgiven, not heard from since
  int limit_;
};

}  // namespace ibkit
