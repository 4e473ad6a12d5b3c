#include "verbs/bandwidth_engine.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <vector>

#include "verbs/completion_poller.hpp"
#include "verbs/work_requests.hpp"

namespace ibkit {
namespace {

using Clock = std::chrono::steady_clock;

ibv_wr_opcode data_opcode(const std::string& op) {
  if (op == "write") return IBV_WR_RDMA_WRITE;
  if (op == "read") return IBV_WR_RDMA_READ;
  return IBV_WR_SEND;
}

// The initiating half: keeps tx_depth requests in flight on every queue pair, signals one in
// cq_moderation, and counts what each signaled completion covers.
class Poster {
 public:
  Poster(VerbsSide& side, const BandwidthPlan& plan, const Deadline& deadline)
      : side_(side),
        plan_(plan),
        queues_(side.qps.size()),
        poller_(side.send_cq.get(), deadline, plan.stall, "bandwidth test (send queue)") {}

  bool done() const {
    return std::all_of(queues_.begin(), queues_.end(),
                       [](const Queue& q) { return q.finished && q.completed == q.posted; });
  }

  Expected<Done> step(Clock::time_point now) {
    if (start_ == Clock::time_point{}) start_ = now;
    const bool time_up = plan_.duration_s > 0 &&
                         std::chrono::duration<double>(now - start_).count() >= plan_.duration_s;
    for (std::size_t qp = 0; qp < queues_.size(); ++qp) {
      if (auto posted = fill(qp, time_up); !posted) return posted;
    }
    std::array<ibv_wc, 16> completions{};
    auto count = poller_.poll(completions.data(), static_cast<int>(completions.size()));
    if (!count) return count.error();
    for (int i = 0; i < *count; ++i) {
      queues_[wr_qp(completions[static_cast<std::size_t>(i)].wr_id)].completed +=
          wr_covered(completions[static_cast<std::size_t>(i)].wr_id);
      end_ = Clock::now();
    }
    return Done{};
  }

  BandwidthResult result() const {
    BandwidthResult result;
    for (const auto& q : queues_) result.messages += q.data_posted;
    result.bytes = result.messages * plan_.size;
    result.seconds = std::chrono::duration<double>(end_ - start_).count();
    return result;
  }

 private:
  struct Queue {
    std::uint64_t posted = 0;  // work requests, data and end marker
    std::uint64_t completed = 0;
    std::uint64_t data_posted = 0;
    std::uint32_t unsignaled = 0;
    bool finished = false;  // nothing more will be posted
  };

  Expected<Done> fill(std::size_t qp, bool time_up) {
    Queue& q = queues_[qp];
    while (!q.finished && q.posted - q.completed < plan_.tx_depth) {
      const bool data_left = plan_.duration_s > 0 ? !time_up : q.data_posted < plan_.iters;
      if (data_left) {
        const bool last = plan_.duration_s <= 0 && q.data_posted + 1 == plan_.iters;
        if (auto posted = post(qp, data_opcode(plan_.op), plan_.size, last); !posted) return posted;
        ++q.data_posted;
        continue;
      }
      // No data left: flush the unsignaled tail, and tell a SEND receiver we are done.
      if (plan_.op == "send") {
        if (auto posted = post(qp, IBV_WR_SEND_WITH_IMM, 0, true); !posted) return posted;
      } else if (q.unsignaled > 0) {
        if (auto posted = post(qp, data_opcode(plan_.op), plan_.size, true); !posted) return posted;
        ++q.data_posted;
      }
      q.finished = true;
    }
    return Done{};
  }

  Expected<Done> post(std::size_t qp, ibv_wr_opcode opcode, std::size_t bytes, bool force_signal) {
    Queue& q = queues_[qp];
    const bool signaled = force_signal || q.unsignaled + 1 >= plan_.cq_moderation;
    SendRequest request;
    request.qp = qp;
    request.opcode = opcode;
    request.bytes = bytes;
    request.signaled = signaled;
    request.immediate = kEndOfTestImmediate;
    request.wr_id = make_wr_id(qp, q.unsignaled + 1);
    if (auto posted = post_send(side_, request); !posted) return posted;
    ++q.posted;
    q.unsignaled = signaled ? 0 : q.unsignaled + 1;
    return Done{};
  }

  VerbsSide& side_;
  const BandwidthPlan& plan_;
  std::vector<Queue> queues_;
  CompletionPoller poller_;
  Clock::time_point start_{};
  Clock::time_point end_{};
};

// The receiving half of a send test: re-posts every receive and stops at each queue pair's
// end-of-test SEND.
class Receiver {
 public:
  Receiver(VerbsSide& side, const BandwidthPlan& plan, const Deadline& deadline)
      : side_(side),
        ended_(side.qps.size(), false),
        poller_(side.recv_cq.get(), deadline, plan.stall,
                "bandwidth test (waiting for the peer's sends)") {}

  bool done() const {
    return std::all_of(ended_.begin(), ended_.end(), [](bool ended) { return ended; });
  }

  Expected<Done> step() {
    std::array<ibv_wc, 16> completions{};
    auto count = poller_.poll(completions.data(), static_cast<int>(completions.size()));
    if (!count) return count.error();
    for (int i = 0; i < *count; ++i) {
      const ibv_wc& wc = completions[static_cast<std::size_t>(i)];
      const std::size_t qp = side_.index_of(wc.qp_num);
      if (qp >= side_.qps.size())
        return Error{"bandwidth test: completion for an unknown queue pair"};
      if ((wc.wc_flags & IBV_WC_WITH_IMM) != 0 && ntohl(wc.imm_data) == kEndOfTestImmediate) {
        ended_[qp] = true;
      } else {
        ++messages_;
        bytes_ += wc.byte_len;
        if (start_ == Clock::time_point{}) start_ = Clock::now();
        end_ = Clock::now();
      }
      if (auto reposted = post_receive(side_, qp); !reposted) return reposted;
    }
    return Done{};
  }

  BandwidthResult result() const {
    return {messages_, bytes_, std::chrono::duration<double>(end_ - start_).count()};
  }

 private:
  VerbsSide& side_;
  std::vector<bool> ended_;
  CompletionPoller poller_;
  std::uint64_t messages_ = 0;
  std::uint64_t bytes_ = 0;
  Clock::time_point start_{};
  Clock::time_point end_{};
};

}  // namespace

Expected<BandwidthResult> run_bandwidth(VerbsSide& side, const BandwidthPlan& plan,
                                        const Deadline& deadline) {
  if (plan.size == 0 || plan.size > side.region_bytes) {
    return Error{"bandwidth test: size " + std::to_string(plan.size) +
                 " does not fit the registered buffer"};
  }
  if (plan.op != "write" && plan.op != "read" && plan.op != "send") {
    return Error{"bandwidth test: unknown operation " + plan.op};
  }
  Poster poster(side, plan, deadline);
  Receiver receiver(side, plan, deadline);
  const bool receiving = plan.receive_sends && plan.op == "send";
  while ((plan.post_data && !poster.done()) || (receiving && !receiver.done())) {
    if (plan.post_data && !poster.done()) {
      if (auto stepped = poster.step(Clock::now()); !stepped) return stepped.error();
    }
    if (receiving && !receiver.done()) {
      if (auto stepped = receiver.step(); !stepped) return stepped.error();
    }
  }
  return plan.post_data ? poster.result() : receiver.result();
}

}  // namespace ibkit
