#include "verbs/latency_engine.hpp"

#include <array>

#include "verbs/completion_poller.hpp"
#include "verbs/work_requests.hpp"

namespace ibkit {
namespace {

using Clock = std::chrono::steady_clock;

// One side of the ping-pong: how to send a ping and how to wait for the peer's.
class PingPong {
 public:
  PingPong(VerbsSide& side, const LatencyPlan& plan, const Deadline& deadline)
      : side_(side),
        plan_(plan),
        outbox_(side.region_bytes / 2),
        send_poller_(side.send_cq.get(), deadline, plan.stall, "latency test (send queue)",
                     plan.hangup_fd),
        recv_poller_(side.recv_cq.get(), deadline, plan.stall,
                     "latency test (waiting for the peer)", plan.hangup_fd),
        deadline_(deadline) {}

  Expected<Done> send_ping(std::uint8_t value) {
    if (auto reaped = reap_sends(); !reaped) return reaped;
    SendRequest request;
    request.bytes = plan_.size;
    request.local_offset = outbox_;
    request.wr_id = make_wr_id(0, 1);
    if (plan_.op == "write") {
      side_.region(0)[outbox_ + plan_.size - 1] = std::byte{value};
      request.opcode = IBV_WR_RDMA_WRITE;
    } else {
      request.opcode = IBV_WR_SEND;
    }
    ++outstanding_;
    return post_send(side_, request);
  }

  Expected<Done> await_ping(std::uint8_t value) {
    if (plan_.op == "write") return await_inbox_byte(value);
    std::array<ibv_wc, 1> completion{};
    if (auto got = recv_poller_.wait(completion.data(), 1); !got) return got.error();
    return post_receive(side_, 0);
  }

 private:
  // Keeps the send queue from filling: every ping is signaled, so its completion is reaped.
  Expected<Done> reap_sends() {
    std::array<ibv_wc, 16> completions{};
    while (outstanding_ > 0) {
      auto count = outstanding_ + 1 >= side_.caps.send_depth
                       ? send_poller_.wait(completions.data(), 16)
                       : send_poller_.poll(completions.data(), 16);
      if (!count) return count.error();
      if (*count == 0) break;
      outstanding_ -= static_cast<std::uint32_t>(*count);
    }
    return Done{};
  }

  Expected<Done> await_inbox_byte(std::uint8_t value) {
    const volatile std::uint8_t* inbox =
        reinterpret_cast<volatile std::uint8_t*>(side_.region(0)) + plan_.size - 1;
    auto last_check = Clock::now();
    unsigned spins = 0;
    while (*inbox != value) {
      if (++spins % 4096 != 0) continue;
      auto now = Clock::now();
      if (now >= deadline_.time_point())
        return Error{"write latency test: deadline passed waiting for the peer"};
      if (now - last_check > plan_.stall) {
        return Error{
            "write latency test: the peer's write did not arrive within the stall timeout (peer or "
            "link gone)"};
      }
      if (auto reaped = reap_sends(); !reaped) return reaped;
    }
    return Done{};
  }

  VerbsSide& side_;
  const LatencyPlan& plan_;
  std::size_t outbox_;
  CompletionPoller send_poller_;
  CompletionPoller recv_poller_;
  Deadline deadline_;
  std::uint32_t outstanding_ = 0;
};

Expected<Done> check_plan(const VerbsSide& side, const LatencyPlan& plan) {
  if (plan.size == 0 || plan.size > side.region_bytes / 2) {
    return Error{"latency test: size " + std::to_string(plan.size) +
                 " does not fit the registered buffer"};
  }
  // An RDMA write raises no completion where it lands: the write ping-pong polls memory.
  if (plan.op == "write" && side.channel) {
    return Error{"latency test: --events needs --op send (a write ping-pong polls memory)"};
  }
  return Done{};
}

}  // namespace

void reset_latency_inbox(VerbsSide& side, std::size_t size) {
  if (size > 0 && size <= side.region_bytes / 2) side.region(0)[size - 1] = std::byte{0};
}

Expected<std::vector<double>> run_latency(VerbsSide& side, PingRole role, const LatencyPlan& plan,
                                          const Deadline& deadline) {
  if (auto valid = check_plan(side, plan); !valid) return valid.error();
  PingPong pingpong(side, plan, deadline);
  std::vector<double> samples;
  if (role == PingRole::kInitiator) samples.reserve(plan.iters);
  for (std::uint64_t i = 0; i < plan.iters; ++i) {
    const auto value = static_cast<std::uint8_t>(i % 255 + 1);
    if (role == PingRole::kInitiator) {
      auto start = Clock::now();
      if (auto sent = pingpong.send_ping(value); !sent) return sent.error();
      if (auto answered = pingpong.await_ping(value); !answered) return answered.error();
      std::chrono::duration<double, std::micro> round_trip = Clock::now() - start;
      samples.push_back(round_trip.count() / 2.0);
    } else {
      if (auto pinged = pingpong.await_ping(value); !pinged) return pinged.error();
      if (auto sent = pingpong.send_ping(value); !sent) return sent.error();
    }
  }
  return samples;
}

Expected<std::vector<double>> run_loopback_latency(VerbsSide& initiator, VerbsSide& responder,
                                                   const LatencyPlan& plan,
                                                   const Deadline& deadline) {
  if (auto valid = check_plan(initiator, plan); !valid) return valid.error();
  if (auto valid = check_plan(responder, plan); !valid) return valid.error();
  PingPong ping(initiator, plan, deadline);
  PingPong pong(responder, plan, deadline);
  std::vector<double> samples;
  samples.reserve(plan.iters);
  for (std::uint64_t i = 0; i < plan.iters; ++i) {
    const auto value = static_cast<std::uint8_t>(i % 255 + 1);
    auto start = Clock::now();
    if (auto sent = ping.send_ping(value); !sent) return sent.error();
    if (auto arrived = pong.await_ping(value); !arrived) return arrived.error();
    if (auto sent = pong.send_ping(value); !sent) return sent.error();
    if (auto answered = ping.await_ping(value); !answered) return answered.error();
    std::chrono::duration<double, std::micro> round_trip = Clock::now() - start;
    samples.push_back(round_trip.count() / 2.0);
  }
  return samples;
}

}  // namespace ibkit
