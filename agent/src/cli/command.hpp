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

Command add_devices_command(CLI::App& app);
Command add_check_command(CLI::App& app);

// --root DIR, shared by the commands that read the machine's files.
void add_root_option(CLI::App& command, std::string& root);

// --format text|json|junit and --output FILE, shared by the commands that write a report.
void add_report_options(CLI::App& command, std::string& format, std::string& output);

}  // namespace ibkit
