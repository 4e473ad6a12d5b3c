#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "control/socket.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// What one side of a TCP test sends on each of its streams.
struct SendPlan {
  std::size_t write_size = 128 * 1024;                    // bytes per send() call
  std::uint64_t bytes = 0;                                // per stream, when `duration` is not set
  std::optional<std::chrono::duration<double>> duration;  // send for this long instead
};

struct StreamCounts {
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  double receive_seconds = 0;  // from the first byte received to the end of the stream
};

struct PumpResult {
  std::vector<StreamCounts> streams;
  // From the first byte received on any stream to the last end of stream, on this host's clock.
  double receive_seconds = 0;
  std::uint64_t received() const;
  std::uint64_t sent() const;
};

// Runs every stream at once: sends on each as the plan says, then ends its sending direction,
// and reads (counting, discarding) until the peer ends its own. Uses up to one thread per core.
// Fails, ending all the streams, when a stream errs or is reset, when no byte moves on a
// thread's streams for `stall`, when the deadline passes, or when `hangup_fd` (>= 0) reports
// that the peer closed the control connection.
Expected<PumpResult> pump_streams(std::vector<Socket>& streams, const SendPlan& plan, int hangup_fd,
                                  const Deadline& deadline, std::chrono::milliseconds stall);

}  // namespace ibkit
