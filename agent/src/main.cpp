// ibkit: InfiniBand/RDMA node readiness checks and fabric tests. This file only wires the
// subcommands (cli/command.hpp) to the process: streams, exit codes, and the exceptions of
// CLI11, which are caught here and nowhere else.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <unistd.h>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/check_command.hpp"
#include "cli/command.hpp"
#include "cli/devices_command.hpp"
#include "cli/fabric_command.hpp"
#include "cli/health_command.hpp"
#include "cli/help_formatter.hpp"
#include "cli/output.hpp"
#include "cli/pair_command.hpp"
#include "cli/report_command.hpp"
#include "cli/serve_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/usage_error.hpp"
#include "util/build_version.hpp"
#include "util/exit_codes.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ibkit: InfiniBand/RDMA readiness checks and fabric tests"};
  app.formatter(std::make_shared<ibkit::HelpFormatter>());
  // Every option keeps its default's text, for --help (HelpFormatter::make_option_desc).
  app.option_defaults()->always_capture_default();
  app.set_version_flag("-V,--version", "ibkit " + ibkit::build_version());
  app.require_subcommand(1);

  const std::vector<ibkit::Command> commands{
      ibkit::add_devices_command(app), ibkit::add_check_command(app),
      ibkit::add_serve_command(app),   ibkit::add_pair_command(app),
      ibkit::add_sweep_command(app),   ibkit::add_report_command(app),
      ibkit::add_health_command(app),  ibkit::add_fabric_command(app),
  };

  const auto arguments = ibkit::help_as_option(argc, argv);
  const int count = static_cast<int>(arguments.size());
  const char* const* values = arguments.data();
  if (const auto unknown = ibkit::unknown_command_error(app, count, values); !unknown.empty()) {
    std::cerr << unknown << "\n";
    return ibkit::kExitUsage;
  }
  try {
    app.parse(count, values);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);
    std::cerr << ibkit::usage_error_text(app, error, count, values) << "\n";
    return ibkit::kExitUsage;
  }

  ibkit::Console console{std::cout, std::cerr,
                         isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr,
                         ibkit::text_width(STDOUT_FILENO)};
  try {
    for (const auto& command : commands) {
      if (*command.parser) return command.run(console);
    }
  } catch (const std::bad_alloc&) {
    // Not a bug to report: the limits it ran under (ulimit -v, a unit's MemoryMax) or the size
    // of what it was given.
    std::cerr << "ibkit: out of memory; give it more (ulimit -v, the unit's MemoryMax) or less to "
                 "do (fewer nodes or rails, a smaller report)\n";
    return ibkit::kExitInternal;
  } catch (const std::exception& error) {
    std::cerr << "ibkit: internal error: " << error.what() << "; please report it\n";
    return ibkit::kExitInternal;
  }
  return ibkit::kExitUsage;
}
