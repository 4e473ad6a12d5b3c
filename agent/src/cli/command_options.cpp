#include "cli/command.hpp"
#include "cli/commands.hpp"

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

Command add_devices_command(CLI::App& app) {
  auto options = std::make_shared<DevicesOptions>();
  auto* parser =
      app.add_subcommand("devices", "HCAs and ports: ibstat + ibv_devinfo + ibdev2netdev");
  add_root_option(*parser, options->root);
  parser->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return {parser, [options](Console& console) { return run_devices(*options, console); }};
}

Command add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  auto* parser =
      app.add_subcommand("check", "readiness preflight of this node against the expected state");
  add_root_option(*parser, options->root);
  parser
      ->add_option("--config", options->config,
                   "TOML expectations (default /etc/ibkit/ibkit.toml if present)")
      ->type_name("FILE");
  add_report_options(*parser, options->format, options->output);
  parser->add_flag("--config-only", options->config_only,
                   "validate --config and exit (0 valid, 2 not)");
  return {parser, [options](Console& console) { return run_check(*options, console); }};
}

}  // namespace ibkit
