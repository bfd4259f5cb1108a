// The memory coalescer: turns the per-thread accesses of one warp
// instruction into one request per cache line touched, in order of first
// touch (thread order, as the executor reports them). Shared-memory
// accesses are not its business (the shared-memory banks serve them) and
// are skipped, so the owner can hand the same access list to both.
// Texture accesses (ptx::Space::Tex: texels at their global address) become
// read requests of space Tex at tex_line, the texture cache's line, so that
// the owner can send them to that cache.
//
// Local memory is per thread; the hardware interleaves it word by word
// across the threads of a CTA so that the same local word of consecutive
// threads is contiguous (and coalesces). The owner supplies that layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "func/executor.h"
#include "func/thread_mask.h"
#include "stats/stats.h"

namespace simt::mem {

struct CoalescerParams {
  uint32_t line = 128;     // bytes per request (the L1D line)
  uint32_t tex_line = 64;  // bytes per texture request (the texture cache's line)

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

enum class AccessKind : uint8_t { Read, Write, Atomic };

struct LineRequest {
  ptx::Space space = ptx::Space::Global;  // Global, Const, Param, Tex; Local after mapping becomes Global
  AccessKind kind = AccessKind::Read;
  uint64_t line_addr = 0;
  uint32_t bytes = 0;         // distinct bytes of the line touched
  func::ThreadMask threads;   // threads with at least one byte in this line
  uint64_t members = 0;       // with member tags (coalesce()): bit k = an access tagged k touches it
};

// Where the CTA's local memory lives in global memory: local byte `a` of
// thread `t` is at base + ((a / 4) * threads + t) * 4 + a % 4. A warp with
// threads of several CTAs has one layout per part (MemAccess::part).
struct LocalLayout {
  uint64_t base = 0;
  uint32_t threads = 0;  // threads of the CTA
};

class Coalescer {
 public:
  // Counters under "<stats_name>.requests" etc.
  Coalescer(const CoalescerParams& p, stats::Registry& stats, const std::string& stats_name);

  // Fills `out` (cleared first; reuse it to avoid allocation) with one
  // request per (space, line). Local accesses need `local[a.part]` (an
  // array of `parts` layouts); without it they throw std::invalid_argument.
  // Returns out.size(). LineRequest::threads holds CTA-local thread ids of
  // every part. `member` (may be null) tags each access with a number below
  // 64; LineRequest::members then collects the tags of the accesses in each
  // line (an access that combines several instructions: who waits for what).
  size_t coalesce(const std::vector<func::MemAccess>& accesses, AccessKind kind,
                  std::vector<LineRequest>& out, const LocalLayout* local = nullptr, size_t parts = 1,
                  const uint8_t* member = nullptr);

  uint32_t line() const { return p_.line; }

 private:
  template <bool Tagged>
  void touch(std::vector<LineRequest>& out, ptx::Space space, uint32_t line_bytes, uint32_t tid, uint64_t addr,
             uint32_t size, AccessKind kind, uint64_t member_bit);
  template <bool Tagged>
  void add_all(const std::vector<func::MemAccess>& accesses, AccessKind kind, std::vector<LineRequest>& out,
               const LocalLayout* layouts, size_t parts, const uint8_t* member);
  size_t request_for(std::vector<LineRequest>& out, ptx::Space space, uint64_t line, AccessKind kind);

  CoalescerParams p_;
  uint32_t mask_words_;          // 64-bit words of byte mask per request
  std::vector<uint64_t> masks_;  // [request * mask_words_ + i]: bytes touched
  size_t last_ = 0;              // request touched last (fast path for unit stride)

  stats::Counter& instructions_;
  stats::Counter& requests_;
  stats::Counter& bytes_;
  stats::Histogram& per_instruction_;
};

}  // namespace simt::mem
