#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace ibkit {

// --help as a man page writes it: `-p,--port N (1-65535)`, `--test lat|bw|tcp|all`,
// `--device DEVICE`, flags bare, instead of CLI11's `UINT:INT in [1 - 65535]`,
// `TEXT:{lat,bw,tcp,all}` and `Excludes: --sweep` (the refusal names an exclusion when it
// happens). A type name an option sets itself (FILE, NAME) is kept. Each option's text ends
// with its default where the text does not name one.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* option) const override;
  std::string make_option_desc(const CLI::Option* option) const override;
};

// What follows an option's names in the help, from CLI11's type name (as above): " N (1-65535)",
// " lat|bw|tcp|all", " FILE". `long_name` ("--device") names a TEXT value; "" for a positional.
std::string help_value_text(const std::string& type_name, const std::string& long_name);

// An option's help text with " (default 2)" appended from CLI11's captured default: not for a
// flag, an empty default, or a text that already says "default".
std::string help_description(const std::string& description, const std::string& default_text,
                             bool flag);

}  // namespace ibkit
