// What ibkit fabric reads from its discovery child, on any bytes, and the checks on whatever it
// accepts. A record accepted reads back the same once written again; every reference in it names
// a node and port it lists; the checks of any accepted fabric end without a crash, one
// fabric.sm and one fabric.duplicates result, and never a link or counters result without a
// subject; compared as a saved topology with itself it passes with no other result, and
// compared with an empty subnet (and the empty one with it) it ends, with at most 50 results of
// a kind (a --topology file is a user's file, as hostile as any).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fabric/fabric_checks.hpp"
#include "fabric/fabric_record.hpp"
#include "fabric/topology_diff.hpp"
#include "fuzz_input.hpp"

using ibkit::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto fabric = ibkit::read_fabric_record(ibkit::fuzz::as_text(data, size));
  if (!fabric) return 0;
  const std::string written = ibkit::record_fabric(*fabric);
  const auto again = ibkit::read_fabric_record(written);
  if (!again) broken_promise("a record written from an accepted one is refused", written);
  if (ibkit::record_fabric(*again) != written)
    broken_promise("a record changed on rereading", written);
  for (const auto& node : fabric->nodes) {
    for (const auto& port : node.ports) {
      if (port.remote && fabric->port_of(*port.remote) == nullptr)
        broken_promise("a far end that is not listed", written);
    }
  }
  const auto results = ibkit::check_subnet(*fabric, {"4X", "HDR"});
  if (results.size() < 3 || results[0].id != "fabric.sm" || results[1].id != "fabric.duplicates")
    broken_promise("the fabric checks out of their order", written);
  for (const auto& result : results) {
    if ((result.id == "fabric.link" || result.id == "fabric.counters") && result.subject.empty())
      broken_promise("a link or counters result without a subject", result.observed);
  }
  const auto same = ibkit::check_topology(*fabric, *fabric);
  if (same.size() != 1 || same[0].status != ibkit::Status::kPass)
    broken_promise("a topology differs from itself", same.empty() ? "" : same[0].observed);
  const ibkit::Subnet empty;
  for (const auto& results_of_kind :
       {ibkit::check_topology(*fabric, empty), ibkit::check_topology(empty, *fabric)}) {
    if (results_of_kind.size() > 2 * (ibkit::kTopologyProblemsListed + 1) + 1)
      broken_promise("more topology results than the cap allows", written);
  }
  return 0;
}
