#pragma once

#include <filesystem>
#include <string>

namespace ibkit::test {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// What a run may take: a deadline, and optionally an address-space cap, so a test of hostile
// input fails instead of eating the machine when the input wins (not for sanitizer builds,
// whose shadow memory needs terabytes of address space).
struct RunLimits {
  int seconds = 30;
  int memory_mib = 0;       // 0: no cap
  int open_files = 0;       // the hard limit of open files (ulimit -Hn); 0: as inherited
  int open_files_soft = 0;  // the soft one (ulimit -Sn), at most the hard one; 0: the hard one
};

// Runs the built ibkit binary with `arguments` (shell words, already quoted) within `limits`
// (open files: for a test of what the binary does when descriptors run short);
// captures its exit code (124 when the deadline ended it, 128+N for signal N), stdout and
// stderr.
Outcome run_ibkit(const std::string& arguments, const RunLimits& limits = {});

// Runs the built ibkit binary with `arguments` (shell words, already quoted) and sends it
// `signal` once its stderr holds `once_said` (at once if it never says so within `seconds`);
// waits for it to end, killing it `seconds` after the signal. The outcome as run_ibkit's, but
// -N when signal N ended it (128+N is what ibkit exits with after writing its report), and how
// long it took from the signal to its end.
struct StoppedOutcome {
  Outcome outcome;
  double seconds_to_end = 0;
};
StoppedOutcome run_ibkit_stopped(const std::string& arguments, const std::string& once_said,
                                 int signal, int seconds = 60);

// All of `file`'s text ("" when it cannot be read): what a run left in its files.
std::string read_text(const std::filesystem::path& file);

// `text` with each line that goes on a wrapped one (an indented line) joined to the line before
// by a space: a text report's reasons one line each, wherever its width broke them.
std::string unwrapped(const std::string& text);

// Whether `text` is one line ending in a newline: the form of every error ibkit prints.
inline bool one_line(const std::string& text) {
  return !text.empty() && text.find('\n') == text.size() - 1;
}

}  // namespace ibkit::test
