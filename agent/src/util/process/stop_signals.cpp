#include "util/process/stop_signals.hpp"

namespace ibkit {
namespace {

volatile std::sig_atomic_t stop_signal = 0;
// StopSignals alive now: only the outermost installs and restores the handlers, and an inner
// one (a launched sweep's own sweep) keeps a signal that came before it.
int holders = 0;

extern "C" void note_stop_signal(int signal) { stop_signal = signal; }

}  // namespace

StopSignals::StopSignals() {
  if (holders++ > 0) return;
  stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = note_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second signal is the default's. SA_RESTART: a read or write in flight
  // carries on; the waits that matter poll by a deadline and see the flag between polls.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGTERM, &action, &previous_term_);
  sigaction(SIGINT, &action, &previous_int_);
}

StopSignals::~StopSignals() {
  if (--holders > 0) return;
  sigaction(SIGTERM, &previous_term_, nullptr);
  sigaction(SIGINT, &previous_int_, nullptr);
}

int StopSignals::received() { return stop_signal; }

std::string stop_signal_name(int signal) {
  if (signal == SIGTERM) return "SIGTERM";
  if (signal == SIGINT) return "SIGINT";
  return "signal " + std::to_string(signal);
}

}  // namespace ibkit
