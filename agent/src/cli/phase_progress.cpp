#include "cli/phase_progress.hpp"

#include <ostream>

#include "util/text.hpp"

namespace ibkit {

PhaseProgress::PhaseProgress(Console& console, std::string phase, std::size_t total,
                             std::chrono::milliseconds every)
    : console_(console), phase_(std::move(phase)), total_(total), every_(every) {
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, every_, [this] { return ending_; })) report(false);
  });
}

PhaseProgress::~PhaseProgress() {
  {
    std::lock_guard lock(mutex_);
    ending_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  report(true);
}

void PhaseProgress::report(bool last) {
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_)
          .count();
  console_.err << "ibkit sweep: " << phase_ << ": " << done_.load() << " of "
               << count_of(total_, "node", "nodes") << " done" << (last ? " in " : ", ") << seconds
               << " s\n"
               << std::flush;
}

}  // namespace ibkit
