#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ibkit {

// A port's link as the kernel reports it in ports/N/rate, e.g. "56 Gb/sec (4X FDR)".
struct LinkRate {
  std::string text;         // the sysfs string, as read
  double nominal_gbps = 0;  // the leading number: signalling rate as marketed
  int width = 0;            // lanes (1, 2, 4, 8, 12); 0 when the string does not say
  std::string speed;        // "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"
  double data_gbps = 0;     // what the link carries after line encoding
};

// Parses a ports/N/rate string. The data rate is computed from width x per-lane speed with the
// lane's encoding (8b/10b up to QDR, 64b/66b from FDR10, so 4X FDR carries 54.5, not 56).
// On an Ethernet link layer (RoCE) the nominal rate is the data rate. Returns nullopt when the
// string has no leading number.
std::optional<LinkRate> parse_link_rate(std::string_view text, bool ethernet_link_layer);

// Data rate in Gb/s of one lane at an InfiniBand speed name; nullopt for an unknown name.
std::optional<double> lane_data_gbps(std::string_view speed);

// PCIe bandwidth in Gb/s after encoding, from a link speed such as "8.0 GT/s PCIe" and a
// width; nullopt when the speed is unknown.
std::optional<double> pcie_data_gbps(std::string_view link_speed, int width);

}  // namespace ibkit
