// The string parsers behind the sysfs readers on any text, line by line: ports/N/rate
// (parse_link_rate), PCIe link speeds, the numbers of every attribute (parse_unsigned,
// parse_double, format_number), and the whole input as captured `ip -o addr show` output.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "sysfs/addresses.hpp"
#include "sysfs/link_rate.hpp"
#include "util/text.hpp"

namespace {

using ibkit::fuzz::broken_promise;

std::size_t kept = 0;  // keeps results the optimizer would otherwise drop

void parse_line(const std::string& line, int width) {
  for (bool ethernet : {false, true}) {
    auto rate = ibkit::parse_link_rate(line, ethernet);
    if (!rate) continue;
    if (rate->width < 0 || rate->width > 32) broken_promise("parse_link_rate", "width of " + line);
    if (ethernet && !(rate->data_gbps == rate->nominal_gbps ||
                      (std::isnan(rate->data_gbps) && std::isnan(rate->nominal_gbps)))) {
      broken_promise("parse_link_rate", "an Ethernet data rate that is not the nominal: " + line);
    }
    kept += ibkit::format_number(rate->data_gbps, 1).size();
  }
  if (auto lane = ibkit::lane_data_gbps(line)) kept += ibkit::format_number(*lane).size();
  if (auto pcie = ibkit::pcie_data_gbps(line, width)) kept += ibkit::format_number(*pcie).size();
  if (auto number = ibkit::parse_double(line)) {
    for (int decimals = 0; decimals <= 6; decimals += 3) {
      const std::string text = ibkit::format_number(*number, decimals);
      if (text.empty()) broken_promise("format_number", "an empty text for " + line);
      kept += text.size();
    }
  }
  if (auto number = ibkit::parse_unsigned(line)) kept += static_cast<std::size_t>(*number & 1);
  kept += ibkit::split_whitespace(line).size() + ibkit::trim(line).size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ibkit::fuzz::as_text(data, size);
  int number = 0;
  for (const auto& line : ibkit::split(text, '\n')) parse_line(line, number++ % 34 - 1);
  for (const auto& address : ibkit::parse_ip_addr_output(text)) {
    if (address.family != "inet" && address.family != "inet6") {
      broken_promise("parse_ip_addr_output", "family " + address.family);
    }
    if (address.interface.find('@') != std::string::npos) {
      broken_promise("parse_ip_addr_output", "interface " + address.interface);
    }
  }
  return 0;
}
