// ibkit: InfiniBand/RDMA node readiness checks and fabric tests. This file only wires the
// command line to the library; see cli/commands.hpp for what each subcommand does.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "util/exit_codes.hpp"

namespace {

void add_root_option(CLI::App& command, std::string& root) {
  command.add_option("--root", root, "read sysfs/procfs under DIR instead of / (fixture trees)")
      ->type_name("DIR");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ibkit: InfiniBand/RDMA readiness checks and fabric tests"};
  app.set_version_flag("--version", "ibkit 0.1.0");
  app.require_subcommand(1);

  ibkit::DevicesOptions devices;
  auto* devices_command =
      app.add_subcommand("devices", "HCAs and ports: ibstat + ibv_devinfo + ibdev2netdev");
  add_root_option(*devices_command, devices.root);
  devices_command->add_option("--format", devices.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  ibkit::CheckOptions check;
  auto* check_command =
      app.add_subcommand("check", "readiness preflight of this node against the expected state");
  add_root_option(*check_command, check.root);
  check_command
      ->add_option("--config", check.config,
                   "TOML expectations (default /etc/ibkit/ibkit.toml if present)")
      ->type_name("FILE");
  check_command->add_option("--format", check.format, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  check_command
      ->add_option("--output", check.output, "write the report to FILE (text still goes to stdout)")
      ->type_name("FILE");
  check_command->add_flag("--config-only", check.config_only,
                          "validate --config and exit (0 valid, 2 not)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);
    std::cerr << "ibkit: " << error.what() << " (see ibkit --help)\n";
    return ibkit::kExitUsage;
  }

  ibkit::Console console{std::cout, std::cerr,
                         isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr};
  try {
    if (*devices_command) return ibkit::run_devices(devices, console);
    if (*check_command) return ibkit::run_check(check, console);
  } catch (const std::exception& error) {
    std::cerr << "ibkit: internal error: " << error.what() << "; please report it\n";
    return ibkit::kExitInternal;
  }
  return ibkit::kExitUsage;
}
