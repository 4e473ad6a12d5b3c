#pragma once

#include <map>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "control/server.hpp"

namespace ibkit {

// A --once server waits this long for its peer unless --deadline says otherwise.
inline constexpr double kDefaultOnceDeadlineS = 120;
inline constexpr double kDefaultSessionTimeoutS = 600;

struct ServeOptions {
  std::string bind;  // "" = every address, IPv6 and IPv4
  std::uint16_t port = kDefaultControlPort;
  bool once = false;      // serve one session, then exit with its outcome
  double deadline_s = 0;  // stop accepting after this; 0 = none (120 s with --once)
  std::string key_file;   // the shared key ("-": its first line of standard input); required
                          // unless --once on a loopback --bind
  bool until_stdin_closes = false;  // stop when standard input ends (a launcher went away)
  double session_timeout_s = kDefaultSessionTimeoutS;  // one session's whole length
};

// `ibkit serve`: the peer side of pair tests. Returns an ExitCode: 0 stopped by SIGTERM/SIGINT
// or the end of standard input (--until-stdin-closes), or the --once session or the --deadline
// window ended well; 1 the --once session failed, or
// no peer came before the deadline; 2 bad options or key file (a long-running server without
// --key-file, or one without a key on another than a loopback address); 3 the address or port
// cannot be listened on.
int run_serve(const ServeOptions& options, Console& console);

Command add_serve_command(CLI::App& app);

}  // namespace ibkit
