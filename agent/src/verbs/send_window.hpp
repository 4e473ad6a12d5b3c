#pragma once

#include <algorithm>
#include <cstdint>

namespace ibkit {

// How much a bandwidth test keeps in flight on each queue pair.
//
// By count it is perftest's habit: tx_depth work requests, whatever their size. By duration a
// queue pair also holds at most kMaxDurationInflightBytes (and at least one request): what is
// in flight when the time is up must still drain before the size ends, and 128 requests of
// 8 MiB are a gigabyte per queue pair - seconds on a 10 Gb/s link, hours on an emulated one -
// while 16 MiB keeps any link busy (two 8 MiB messages; 0.3 ms of 400 Gb/s). Up to 128 KiB
// messages nothing changes.
inline constexpr std::uint64_t kMaxDurationInflightBytes = 16ull << 20;

// Work requests one queue pair keeps in flight for `size`-byte messages.
inline std::uint32_t send_window(std::uint64_t size, std::uint32_t tx_depth, bool by_duration) {
  if (!by_duration || size == 0) return tx_depth;
  const std::uint64_t fits = std::max<std::uint64_t>(1, kMaxDurationInflightBytes / size);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(tx_depth, fits));
}

}  // namespace ibkit
