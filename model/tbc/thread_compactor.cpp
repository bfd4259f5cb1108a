#include "tbc/thread_compactor.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simt::tbc {

void ThreadCompactor::check(const func::ThreadMask& mask, uint32_t threads_in_cta,
                            uint32_t warp_size) {
  if (warp_size == 0 || warp_size > kMaxWarpSize)
    throw std::invalid_argument("thread compactor: warp size " + std::to_string(warp_size) +
                                " outside 1.." + std::to_string(kMaxWarpSize));
  if (threads_in_cta > func::kMaxCtaThreads)
    throw std::invalid_argument("thread compactor: CTA of " + std::to_string(threads_in_cta) +
                                " threads exceeds " + std::to_string(func::kMaxCtaThreads));
  // A bit past the CTA is a caller bug; generating a warp for it would run a
  // thread that does not exist.
  if (mask.minus(func::ThreadMask::range(0, threads_in_cta)).any())
    throw std::invalid_argument("thread compactor: activemask has threads outside the CTA of " +
                                std::to_string(threads_in_cta));
}

uint32_t ThreadCompactor::count_warps(const func::ThreadMask& mask, uint32_t threads_in_cta,
                                      uint32_t warp_size, bool compact) {
  check(mask, threads_in_cta, warp_size);
  if (compact) {
    // Each lane's encoder emits one of its threads per warp, so the busiest
    // lane decides how many warps it takes.
    std::array<uint32_t, kMaxWarpSize> lane_pop{};
    mask.for_each([&](uint32_t t) { ++lane_pop[t % warp_size]; });
    return *std::max_element(lane_pop.begin(), lane_pop.begin() + warp_size);
  }
  uint32_t warps = 0;
  uint32_t last_warp = UINT32_MAX;
  // for_each is ascending, so each static warp with a set thread shows up
  // as one run of equal warp indices.
  mask.for_each([&](uint32_t t) {
    const uint32_t w = t / warp_size;
    if (w != last_warp) {
      ++warps;
      last_warp = w;
    }
  });
  return warps;
}

void ThreadCompactor::start(const func::ThreadMask& mask, uint32_t threads_in_cta,
                            uint32_t warp_size) {
  needed_ = count_warps(mask, threads_in_cta, warp_size, compact_);
  remaining_ = needed_;
  running_compact_ = compact_;
  pending_ = mask;
  threads_ = threads_in_cta;
  warp_size_ = warp_size;
  lane_cursor_.fill(0);
  static_cursor_ = 0;
}

bool ThreadCompactor::next(CompactedWarp& out) {
  if (remaining_ == 0) return false;
  out.lane_thread.fill(kNoThread);
  out.mask.clear();
  out.warp_size = warp_size_;
  const bool made = running_compact_ ? next_compacted(out) : next_static(out);
  // count_warps() and the generators must agree; a mismatch is a bug here.
  if (!made || out.mask.none())
    throw std::logic_error("thread compactor: warp count and generated warps disagree");
  --remaining_;
  return true;
}

bool ThreadCompactor::next_compacted(CompactedWarp& out) {
  for (uint32_t lane = 0; lane < warp_size_; ++lane) {
    // Priority encoder of this lane: lowest pending thread of the lane.
    uint32_t& w = lane_cursor_[lane];
    for (; w * warp_size_ + lane < threads_; ++w) {
      const uint32_t t = w * warp_size_ + lane;
      if (pending_.test(t)) {
        out.lane_thread[lane] = t;
        out.mask.set(t);
        pending_.reset(t);  // selected bits are reset (seed 001 §3.3)
        ++w;
        break;
      }
    }
  }
  return out.mask.any();
}

bool ThreadCompactor::next_static(CompactedWarp& out) {
  const uint32_t static_warps = (threads_ + warp_size_ - 1) / warp_size_;
  for (; static_cursor_ < static_warps; ++static_cursor_) {
    const uint32_t base = static_cursor_ * warp_size_;
    for (uint32_t lane = 0; lane < warp_size_ && base + lane < threads_; ++lane) {
      if (pending_.test(base + lane)) {
        out.lane_thread[lane] = base + lane;
        out.mask.set(base + lane);
        pending_.reset(base + lane);
      }
    }
    if (out.mask.any()) {
      ++static_cursor_;
      return true;
    }
  }
  return false;
}

}  // namespace simt::tbc
