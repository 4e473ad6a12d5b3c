#pragma once

#include <functional>

#include <CLI/CLI.hpp>

#include "cli/output.hpp"

namespace ibkit {

// A subcommand: its CLI11 parser and what runs when it was chosen. Each add_*_command
// function registers its options (kept alive by `run`) on the parent app.
struct Command {
  CLI::App* parser;
  std::function<int(Console&)> run;
};

}  // namespace ibkit
