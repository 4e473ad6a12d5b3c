#pragma once
#include <csignal>
#include <string>

namespace ibkit {

// SIGTERM and SIGINT noted instead of ending the process while one of these lives: a sweep
// that Slurm's time limit or a Ctrl-C stops still writes the report of what it measured. The
// first signal restores the default action, so a second one ends the process at once. They
// nest: one made while another lives changes nothing, so a signal noted before it still counts.
// Made and destroyed by one thread.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal that came (SIGTERM or SIGINT), or 0.
  static int received();

 private:
  struct sigaction previous_term_ {};
  struct sigaction previous_int_ {};
};

// "SIGTERM", "SIGINT", else "signal N".
std::string stop_signal_name(int signal);

}  // namespace ibkit
