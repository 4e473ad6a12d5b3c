#include "verbs/bandwidth_engine.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <memory>
#include <vector>

#include "verbs/completion_events.hpp"
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
        poller_(side.send_cq.get(), deadline, plan.stall, "bandwidth test (send queue)",
                plan.hangup_fd) {}

  bool done() const {
    return std::all_of(queues_.begin(), queues_.end(),
                       [](const Queue& q) { return q.finished && q.completed == q.posted; });
  }

  // Posts what the window allows and reaps once; true when it did either.
  Expected<bool> step(Clock::time_point now) {
    if (start_ == Clock::time_point{}) start_ = now;
    const bool time_up = plan_.duration_s > 0 &&
                         std::chrono::duration<double>(now - start_).count() >= plan_.duration_s;
    const std::uint64_t posted_before = posted();
    for (std::size_t qp = 0; qp < queues_.size(); ++qp) {
      if (auto filled = fill(qp, time_up); !filled) return filled.error();
    }
    std::array<ibv_wc, 16> completions{};
    auto count = poller_.poll(completions.data(), static_cast<int>(completions.size()));
    if (!count) return count.error();
    for (int i = 0; i < *count; ++i) {
      queues_[wr_qp(completions[static_cast<std::size_t>(i)].wr_id)].completed +=
          wr_covered(completions[static_cast<std::size_t>(i)].wr_id);
      end_ = Clock::now();
    }
    return *count > 0 || posted() != posted_before;
  }

  CompletionPoller& poller() { return poller_; }

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

  std::uint64_t posted() const {
    std::uint64_t total = 0;
    for (const auto& q : queues_) total += q.posted;
    return total;
  }

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
                "bandwidth test (waiting for the peer's sends)", plan.hangup_fd) {}

  bool done() const {
    return std::all_of(ended_.begin(), ended_.end(), [](bool ended) { return ended; });
  }

  // Reaps once and re-posts what it reaped; true when there was anything.
  Expected<bool> step() {
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
      if (auto reposted = post_receive(side_, qp); !reposted) return reposted.error();
    }
    return *count > 0;
  }

  CompletionPoller& poller() { return poller_; }

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

// One end's poster and receiver, each only when the end does that part.
struct EndRun {
  std::unique_ptr<Poster> poster;
  std::unique_ptr<Receiver> receiver;
};

Expected<Done> check_plan(const VerbsSide& side, const BandwidthPlan& plan) {
  if (plan.size == 0 || plan.size > side.region_bytes) {
    return Error{"bandwidth test: size " + std::to_string(plan.size) +
                 " does not fit the registered buffer"};
  }
  if (plan.op != "write" && plan.op != "read" && plan.op != "send") {
    return Error{"bandwidth test: unknown operation " + plan.op};
  }
  return Done{};
}

// Sleeps on the ends' completion channels until a completion is due on a part still running;
// a sleep that ends without an event fails with the Error of the part whose time ran out.
Expected<Done> sleep_for_completions(std::vector<EndRun>& runs,
                                     std::span<ibv_comp_channel* const> channels) {
  std::vector<CompletionPoller*> waiting;
  for (auto& run : runs) {
    if (run.poster && !run.poster->done()) waiting.push_back(&run.poster->poller());
    if (run.receiver && !run.receiver->done()) waiting.push_back(&run.receiver->poller());
  }
  if (waiting.empty()) return Done{};
  auto due = waiting.front()->due_by();
  for (auto* poller : waiting) due = std::min(due, poller->due_by());
  auto events = await_completion_events(channels, due);
  if (!events) return events.error();
  if (*events > 0) return Done{};
  for (auto* poller : waiting) {
    if (auto time = poller->check_time(); !time) return time;
  }
  return Done{};
}

}  // namespace

Expected<std::vector<BandwidthResult>> run_bandwidth_ends(std::span<const BandwidthEnd> ends,
                                                          const Deadline& deadline) {
  std::vector<EndRun> runs(ends.size());
  std::vector<ibv_comp_channel*> channels;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const BandwidthEnd& end = ends[i];
    if (auto valid = check_plan(*end.side, end.plan); !valid) return valid.error();
    if (end.plan.post_data)
      runs[i].poster = std::make_unique<Poster>(*end.side, end.plan, deadline);
    if (end.plan.receive_sends && end.plan.op == "send")
      runs[i].receiver = std::make_unique<Receiver>(*end.side, end.plan, deadline);
    ibv_comp_channel* channel = end.side->channel.get();
    if (channel != nullptr &&
        std::find(channels.begin(), channels.end(), channel) == channels.end())
      channels.push_back(channel);
  }
  auto running = [&runs] {
    return std::any_of(runs.begin(), runs.end(), [](const EndRun& run) {
      return (run.poster && !run.poster->done()) || (run.receiver && !run.receiver->done());
    });
  };
  while (running()) {
    bool progress = false;
    for (auto& run : runs) {
      if (run.poster && !run.poster->done()) {
        auto stepped = run.poster->step(Clock::now());
        if (!stepped) return stepped.error();
        progress = progress || *stepped;
      }
      if (run.receiver && !run.receiver->done()) {
        auto stepped = run.receiver->step();
        if (!stepped) return stepped.error();
        progress = progress || *stepped;
      }
    }
    if (!progress && !channels.empty()) {
      if (auto slept = sleep_for_completions(runs, channels); !slept) return slept.error();
    }
  }
  std::vector<BandwidthResult> results;
  for (const auto& run : runs) {
    results.push_back(run.poster     ? run.poster->result()
                      : run.receiver ? run.receiver->result()
                                     : BandwidthResult{});
  }
  return results;
}

Expected<BandwidthResult> run_bandwidth(VerbsSide& side, const BandwidthPlan& plan,
                                        const Deadline& deadline) {
  const BandwidthEnd end{&side, plan};
  auto results = run_bandwidth_ends(std::span<const BandwidthEnd>(&end, 1), deadline);
  if (!results) return results.error();
  return results->front();
}

}  // namespace ibkit
