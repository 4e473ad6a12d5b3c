#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace ibkit {

// argv with "ibkit help [COMMAND]" turned into "ibkit [COMMAND] --help", as git and others take
// it; anything else as it is.
std::vector<const char*> help_as_option(int argc, const char* const* argv);

// "ibkit: no command 'chek'; did you mean check? (commands: devices, check, ...)" when the first
// argument is neither an option nor one of `app`'s subcommands; "" otherwise. Checked before
// parsing, so `ibkit chek --help` is this error, not the top-level help.
std::string unknown_command_error(const CLI::App& app, int argc, const char* const* argv);

// The one line a parse error of `app` (parsed from argv) prints: in the subcommand's name, as
// its other errors are, an unknown option named with the nearest real one ("ibkit check: no
// option --formt; did you mean --format?"), and where to read more ("see ibkit check --help").
std::string usage_error_text(const CLI::App& app, const CLI::ParseError& error, int argc,
                             const char* const* argv);

}  // namespace ibkit
