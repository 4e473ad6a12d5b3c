#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace ibkit {

// --root DIR, shared by the commands that read the machine's files.
void add_root_option(CLI::App& command, std::string& root);

// --format text|json|junit (and prometheus where asked) and --output FILE, shared by the
// commands that write a report.
void add_report_options(CLI::App& command, std::string& format, std::string& output,
                        bool prometheus = false);

// Transforms for numbers a person writes with their unit: a size in bytes ("64K", "1M", "8MiB";
// K is 1024) and seconds ("90", "10m", "2h", "500ms"). A plain number is as it was.
CLI::Validator size_with_units();
CLI::Validator seconds_with_units();

// --output DIR of the commands that write a folder of report files (sweep, report); "-" is
// refused in words, where it made a folder named "-".
CLI::Option* add_output_folder_option(CLI::App& command, std::string& output,
                                      const std::string& description);

}  // namespace ibkit
