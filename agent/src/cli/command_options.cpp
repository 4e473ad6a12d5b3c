#include "cli/command_options.hpp"

namespace ibkit {

void add_root_option(CLI::App& command, std::string& root) {
  command.add_option("--root", root, "read sysfs/procfs under DIR instead of / (fixture trees)")
      ->type_name("DIR");
}

void add_report_options(CLI::App& command, std::string& format, std::string& output) {
  command.add_option("--format", format, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  command.add_option("--output", output, "write the report to FILE (text still goes to stdout)")
      ->type_name("FILE");
}

}  // namespace ibkit
