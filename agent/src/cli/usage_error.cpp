#include "cli/usage_error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "util/closest_name.hpp"

namespace ibkit {
namespace {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// The subcommand argv names (the first argument that is one), or nullptr.
const CLI::App* named_command(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (command->get_name() == argv[i]) return command;
    }
  }
  return nullptr;
}

// The first --name in argv (up to any '=') that `command` has no option for, with the nearest
// option it has: "no option --formt; did you mean --format?"; "" when every one is known.
std::string unknown_option(const CLI::App& command, int argc, const char* const* argv) {
  std::vector<std::string> known;
  for (const auto* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) known.push_back(name);
  }
  std::vector<std::string> short_known;
  for (const auto* option : command.get_options()) {
    for (const auto& name : option->get_snames()) short_known.push_back(name);
  }
  const bool has_format = std::find(known.begin(), known.end(), "format") != known.end();
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--") break;
    if (argument.size() == 2 && argument[0] == '-' && std::isalpha(argument[1]) != 0 &&
        std::find(short_known.begin(), short_known.end(), argument.substr(1)) ==
            short_known.end()) {
      return "no option " + argument +
             (argument == "-q" ? " (ibkit prints the report and nothing "
                                 "else; errors go to stderr)"
                               : "");
    }
    if (argument.size() < 3 || argument.compare(0, 2, "--") != 0) continue;
    const std::string name = argument.substr(2, argument.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    // Other tools' way of asking for JSON.
    if (name == "json" && has_format) return "no option --json; use --format json";
    const std::string nearest = closest_name(name, known);
    return "no option --" + name + (nearest.empty() ? "" : "; did you mean --" + nearest + "?");
  }
  return "";
}

// CLI11's "--port: Value abc not in range 1 to 65535" as "--port abc: not a number; expected 1 to
// 65535" (or "is out of range"): the value is named first, and a word is not said to be out of
// a range of numbers. Other messages are returned as they are.
std::string range_message(const std::string& what) {
  const std::string value_word = ": Value ";
  const std::string range_word = " not in range ";
  const auto value_at = what.find(value_word);
  const auto range_at = what.find(range_word);
  if (value_at == std::string::npos || range_at == std::string::npos || range_at < value_at)
    return what;
  const std::string option = what.substr(0, value_at);
  const std::string value =
      what.substr(value_at + value_word.size(), range_at - value_at - value_word.size());
  const std::string range = what.substr(range_at + range_word.size());
  char* end = nullptr;
  std::strtod(value.c_str(), &end);
  const bool number = !value.empty() && end != nullptr && *end == '\0';
  return option + " " + value + (number ? ": out of range" : ": not a number") + "; expected " +
         range;
}

}  // namespace

std::vector<const char*> help_as_option(int argc, const char* const* argv) {
  std::vector<const char*> arguments(argv, argv + argc);
  if (argc >= 2 && std::string_view(argv[1]) == "help") {
    arguments.erase(arguments.begin() + 1);
    arguments.push_back("--help");
  }
  return arguments;
}

std::string unknown_command_error(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2 || argv[1][0] == '-' || named_command(app, 2, argv) != nullptr) return "";
  const auto names = command_names(app);
  const std::string nearest = closest_name(argv[1], names);
  return "ibkit: no command '" + std::string(argv[1]) + "'" +
         (nearest.empty() ? "" : "; did you mean " + nearest + "?") +
         " (commands: " + joined(names) + ")";
}

std::string usage_error_text(const CLI::App& app, const CLI::ParseError& error, int argc,
                             const char* const* argv) {
  const CLI::App* command = named_command(app, argc, argv);
  const std::string where = command ? "ibkit " + command->get_name() + ": " : "ibkit: ";
  const std::string help = command ? "ibkit " + command->get_name() + " --help" : "ibkit --help";
  std::string what = range_message(error.what());
  if (command && dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    if (auto unknown = unknown_option(*command, argc, argv); !unknown.empty()) what = unknown;
  }
  if (!command && dynamic_cast<const CLI::RequiredError*>(&error) != nullptr && argc < 2) {
    what = "name a command: " + joined(command_names(app));
  }
  return where + what + " (see " + help + ")";
}

}  // namespace ibkit
