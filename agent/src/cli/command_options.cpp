#include "cli/command_options.hpp"

#include "report/report_formats.hpp"

namespace ibkit {

void add_root_option(CLI::App& command, std::string& root) {
  command.add_option("--root", root, "read sysfs/procfs under DIR instead of / (fixture trees)")
      ->type_name("DIR");
}

void add_report_options(CLI::App& command, std::string& format, std::string& output,
                        bool prometheus) {
  std::vector<std::string> formats{"text", "json", "junit"};
  if (prometheus) formats.emplace_back("prometheus");
  command.add_option("--format", format, format_words(formats, " or "))
      ->check(CLI::IsMember(formats));
  command.add_option("--output", output, "write the report to FILE (text still goes to stdout)")
      ->type_name("FILE");
}

}  // namespace ibkit
