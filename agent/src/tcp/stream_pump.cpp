#include "tcp/stream_pump.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <mutex>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;

constexpr std::size_t kReceiveBufferBytes = 256 * 1024;
// send/recv calls per stream per wake, so one busy stream cannot starve the others.
constexpr int kCallsPerWake = 16;

struct StreamState {
  Socket* socket = nullptr;
  std::size_t number = 0;  // 1-based, for messages
  bool sending = true;
  bool receiving = true;
  std::size_t offset = 0;  // into the current write
  StreamCounts counts;
  std::optional<Clock::time_point> first_byte;
  Clock::time_point end_of_stream;

  std::string name() const {
    return "stream " + std::to_string(number) + " to " + socket->peer_name();
  }
  void finish_sending() {
    sending = false;
    socket->shutdown_write();
  }
};

// What the threads of one pump share. The first failure wins and ends every stream, so the
// other threads wake and stop instead of waiting out their deadline.
class Pump {
 public:
  Pump(std::vector<Socket>& streams, const SendPlan& send_plan, int control_fd, const Deadline& end,
       std::chrono::milliseconds stall_limit)
      : streams_(streams),
        plan(send_plan),
        hangup_fd(control_fd),
        deadline(end),
        stall(stall_limit),
        payload(send_plan.write_size, '\x5a') {
    if (plan.duration) {
      send_until = Clock::now() + std::chrono::duration_cast<Clock::duration>(*plan.duration);
    }
  }

  void fail(Error error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) {
      error_ = std::move(error);
      for (auto& stream : streams_) stream.shutdown_both();
    }
    aborted_ = true;
  }
  bool aborted() const { return aborted_; }
  std::optional<Error> error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

  bool send_done(const StreamState& stream, Clock::time_point now) const {
    return send_until ? now >= *send_until : stream.counts.sent >= plan.bytes;
  }

 private:
  std::vector<Socket>& streams_;
  mutable std::mutex mutex_;
  std::optional<Error> error_;
  std::atomic<bool> aborted_{false};

 public:
  const SendPlan& plan;
  const int hangup_fd;
  const Deadline deadline;
  const std::chrono::milliseconds stall;
  const std::string payload;
  std::optional<Clock::time_point> send_until;
};

// Sends what the socket takes now; true when bytes moved (or the direction ended).
bool send_some(StreamState& stream, Pump& pump) {
  bool progress = false;
  for (int call = 0; call < kCallsPerWake && stream.sending; ++call) {
    if (pump.send_done(stream, Clock::now())) {
      stream.finish_sending();
      return true;
    }
    std::size_t chunk = pump.plan.write_size - stream.offset;
    if (!pump.send_until) {
      chunk = static_cast<std::size_t>(
          std::min<std::uint64_t>(chunk, pump.plan.bytes - stream.counts.sent));
    }
    ssize_t n =
        ::send(stream.socket->fd(), pump.payload.data() + stream.offset, chunk, MSG_NOSIGNAL);
    if (n > 0) {
      stream.counts.sent += static_cast<std::uint64_t>(n);
      stream.offset = (stream.offset + static_cast<std::size_t>(n)) % pump.plan.write_size;
      progress = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    pump.fail(transfer_error(stream.name(), "sending", errno));
    break;
  }
  return progress;
}

// Reads what has arrived; true when bytes moved (or the stream ended).
bool receive_some(StreamState& stream, Pump& pump, std::string& buffer, Clock::time_point now) {
  bool progress = false;
  for (int call = 0; call < kCallsPerWake && stream.receiving; ++call) {
    ssize_t n = ::recv(stream.socket->fd(), buffer.data(), buffer.size(), 0);
    if (n > 0) {
      if (!stream.first_byte) stream.first_byte = now;
      stream.counts.received += static_cast<std::uint64_t>(n);
      progress = true;
      continue;
    }
    if (n == 0) {
      stream.receiving = false;
      stream.end_of_stream = now;
      return true;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    pump.fail(transfer_error(stream.name(), "receiving", errno));
    break;
  }
  return progress;
}

// How long poll may sleep: until the deadline, the stall limit, or the end of sending.
int poll_timeout_ms(const Pump& pump, Clock::time_point last_progress, bool any_sending) {
  auto until = std::min(pump.deadline.time_point(), last_progress + pump.stall);
  if (any_sending && pump.send_until) until = std::min(until, *pump.send_until);
  auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

// One thread's streams, driven by poll until each has sent its share and seen end of stream.
void run_streams(const std::vector<StreamState*>& mine, Pump& pump) {
  std::string buffer(kReceiveBufferBytes, '\0');
  std::vector<pollfd> fds;
  auto last_progress = Clock::now();
  while (!pump.aborted()) {
    fds.clear();
    bool any_sending = false;
    bool any_active = false;
    for (const auto* stream : mine) {
      short events =
          static_cast<short>((stream->sending ? POLLOUT : 0) | (stream->receiving ? POLLIN : 0));
      any_sending = any_sending || stream->sending;
      any_active = any_active || events != 0;
      fds.push_back({stream->socket->fd(), events, 0});
    }
    if (!any_active) return;
    if (pump.hangup_fd >= 0) fds.push_back({pump.hangup_fd, POLLRDHUP, 0});
    if (poll(fds.data(), fds.size(), poll_timeout_ms(pump, last_progress, any_sending)) < 0 &&
        errno != EINTR) {
      pump.fail(posix_error("poll", errno));
      return;
    }
    const auto now = Clock::now();
    if (pump.hangup_fd >= 0 && fds.back().revents != 0) {
      pump.fail(Error{"the control connection to peer " + mine.front()->socket->peer().address +
                      " closed during the test (the peer is gone or was stopped)"});
      return;
    }
    bool progress = false;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      auto& stream = *mine[i];
      const short revents = fds[i].revents;
      if (stream.receiving && (revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        progress = receive_some(stream, pump, buffer, now) || progress;
      }
      const bool time_is_up = stream.sending && pump.send_until && now >= *pump.send_until;
      if (stream.sending && (time_is_up || (revents & (POLLOUT | POLLHUP | POLLERR)) != 0)) {
        progress = send_some(stream, pump) || progress;
      }
    }
    if (progress) {
      last_progress = now;
    } else if (now - last_progress >= pump.stall) {
      pump.fail(Error{"streams to " + mine.front()->socket->peer_name() + " moved no data for " +
                      seconds_text(std::chrono::duration<double>(pump.stall).count()) +
                      " (the peer stalled)"});
      return;
    }
    if (pump.deadline.expired()) {
      pump.fail(Error{"streams to " + mine.front()->socket->peer_name() +
                      " were still moving data when the deadline passed"});
      return;
    }
  }
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

std::uint64_t PumpResult::received() const {
  std::uint64_t total = 0;
  for (const auto& stream : streams) total += stream.received;
  return total;
}

std::uint64_t PumpResult::sent() const {
  std::uint64_t total = 0;
  for (const auto& stream : streams) total += stream.sent;
  return total;
}

Expected<PumpResult> pump_streams(std::vector<Socket>& streams, const SendPlan& plan, int hangup_fd,
                                  const Deadline& deadline, std::chrono::milliseconds stall) {
  if (plan.write_size == 0) return Error{"the write size must be at least 1 byte"};
  Pump pump(streams, plan, hangup_fd, deadline, stall);
  std::vector<StreamState> states(streams.size());
  for (std::size_t i = 0; i < streams.size(); ++i) {
    states[i].socket = &streams[i];
    states[i].number = i + 1;
    if (pump.send_done(states[i], Clock::now())) states[i].finish_sending();
  }

  // Streams are dealt to one thread per core; this thread runs the first share.
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = std::max<std::size_t>(1, std::min(cores, streams.size()));
  std::vector<std::vector<StreamState*>> shares(threads);
  for (std::size_t i = 0; i < states.size(); ++i) shares[i % threads].push_back(&states[i]);
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) {
    helpers.emplace_back(run_streams, std::cref(shares[t]), std::ref(pump));
  }
  run_streams(shares[0], pump);
  for (auto& helper : helpers) helper.join();
  if (auto error = pump.error()) return *error;

  PumpResult result;
  std::optional<Clock::time_point> first;
  std::optional<Clock::time_point> last;
  for (auto& state : states) {
    if (state.first_byte) {
      state.counts.receive_seconds = seconds_between(*state.first_byte, state.end_of_stream);
      first = first ? std::min(*first, *state.first_byte) : *state.first_byte;
      last = last ? std::max(*last, state.end_of_stream) : state.end_of_stream;
    }
    result.streams.push_back(state.counts);
  }
  if (first) result.receive_seconds = seconds_between(*first, *last);
  return result;
}

}  // namespace ibkit
