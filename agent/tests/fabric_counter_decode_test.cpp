// The performance-management answers decoded through libibmad as installed, from bytes laid out
// as the InfiniBand specification puts them (ClassPortInfo, PortCounters, PortCountersExtended).
#include <array>
#include <cstdint>

#include <catch2/catch.hpp>

#include "fabric/counter_query.hpp"

using namespace ibkit;

namespace {

using Mad = std::array<std::uint8_t, 256>;

// `value` big-endian in `width` bytes at byte `offset`.
void put(Mad& mad, std::size_t offset, std::size_t width, std::uint64_t value) {
  for (std::size_t i = 0; i < width; ++i)
    mad[offset + width - 1 - i] = static_cast<std::uint8_t>(value >> (8 * i));
}

}  // namespace

TEST_CASE("PortCountersExtended's 64-bit error counters are read where ClassPortInfo offers them",
          "[fabric]") {
  auto ib = load_ib_libraries();
  REQUIRE(ib);

  // ClassPortInfo: CapabilityMask2 is the top 27 bits of the word at byte 4, RespTimeValue the
  // low 5; its bit 1 is IsAdditionalPortCountersExtendedSupported.
  Mad info{};
  put(info, 4, 4, (std::uint64_t{1} << 1) << 5 | 18);
  CHECK(has_extended_error_counters(*ib, info.data()));
  put(info, 4, 4, (std::uint64_t{1} << 0) << 5 | 18);  // only IsPMKeySupported
  CHECK_FALSE(has_extended_error_counters(*ib, info.data()));
  put(info, 2, 2, 0x1200);  // ibsim's CapabilityMask: extended data counters, no error ones
  CHECK_FALSE(has_extended_error_counters(*ib, info.data()));

  // PortCountersExtended: eight 64-bit data counters from byte 8, then the error counters.
  Mad extended{};
  put(extended, 72, 8, 0x1'0000'0007ULL);  // SymbolErrorCounter, past 32 bits
  put(extended, 88, 8, 300);               // LinkDownedCounter, past PortCounters' 8 bits
  put(extended, 160, 8, 5);                // VL15Dropped, the last of the twelve
  SubnetPort port;
  decode_error_counters(*ib, extended.data(), true, port);
  CHECK(port.counters_extended);
  CHECK(port.counters.size() == 12);
  CHECK(port.counters.at("symbol_error") == 0x1'0000'0007ULL);
  CHECK(port.counters.at("link_downed") == 300);
  CHECK(port.counters.at("VL15_dropped") == 5);
  CHECK(port.counters.at("port_rcv_errors") == 0);

  // PortCounters: the same counters in their own widths.
  Mad basic{};
  put(basic, 4, 2, 65535);  // SymbolErrorCounter, stopped at its maximum
  put(basic, 7, 1, 255);    // LinkDownedCounter
  put(basic, 22, 2, 5);     // VL15Dropped
  SubnetPort narrow;
  decode_error_counters(*ib, basic.data(), false, narrow);
  CHECK_FALSE(narrow.counters_extended);
  CHECK(narrow.counters.at("symbol_error") == 65535);
  CHECK(narrow.counters.at("link_downed") == 255);
  CHECK(narrow.counters.at("VL15_dropped") == 5);
}
