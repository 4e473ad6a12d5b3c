#include "cli/command_options.hpp"

#include <filesystem>
#include <map>
#include <system_error>

#include "report/report_formats.hpp"

namespace ibkit {

void add_root_option(CLI::App& command, std::string& root) {
  command.add_option("--root", root, "read sysfs/procfs under DIR instead of / (fixture trees)")
      ->type_name("DIR");
}

namespace {

// Where a report file can go, checked while parsing so that a typo in the path costs nothing:
// "-" (standard output) or a path in an existing directory that is not itself a directory.
std::string output_path_problem(const std::string& path) {
  if (path == "-") return "";
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return path + " is a directory; name a file in it";
  }
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, error)) {
    return "no directory " + parent.string() +
           "; create it, or write the report elsewhere (- is standard output)";
  }
  return "";
}

}  // namespace

void add_report_options(CLI::App& command, std::string& format, std::string& output,
                        bool prometheus) {
  std::vector<std::string> formats{"text", "json", "junit"};
  if (prometheus) formats.emplace_back("prometheus");
  command.add_option("--format", format, format_words(formats, " or "))
      ->check(CLI::IsMember(formats));
  command
      .add_option("--output", output,
                  "write the report to FILE (text still goes to stdout); - writes it to stdout")
      ->type_name("FILE")
      ->check(CLI::Validator(output_path_problem, "FILE"));
}

CLI::Validator size_with_units() {
  CLI::Validator units = CLI::AsSizeValue(false);
  units.description("");  // the option's own help says what it takes
  return units;
}

CLI::Validator seconds_with_units() {
  CLI::Validator units = CLI::AsNumberWithUnit(
      std::map<std::string, double>{{"ms", 0.001}, {"s", 1}, {"m", 60}, {"min", 60}, {"h", 3600}},
      CLI::AsNumberWithUnit::CASE_INSENSITIVE, "s|m|h");
  units.description("");
  return units;
}

CLI::Option* add_output_folder_option(CLI::App& command, std::string& output,
                                      const std::string& description) {
  const auto not_stdout = [](const std::string& path) -> std::string {
    if (path != "-") return "";
    return "- is standard output, but this writes a folder of files; give a directory (the text "
           "report goes to standard output anyway)";
  };
  return command.add_option("--output", output, description)
      ->type_name("DIR")
      ->check(CLI::Validator(not_stdout, "DIR"));
}

}  // namespace ibkit
