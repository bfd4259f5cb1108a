// What the DWF branch unit needs to know about each PC of a kernel, worked
// out once per kernel when its first CTA starts: which instructions need the
// threads of a 32-thread PTX warp together (warp-synchronous), which ones are
// blocking CTA barriers (where DWF gathers the CTA's threads, see
// dwf_branch_unit.h), and whether the kernel uses something DWF cannot run.
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::tbc {

enum class PcKind : uint8_t {
  Plain,
  WarpSync,    // vote/shfl/match/redux (.sync) and bar.warp.sync
  CtaBarrier,  // bar.sync / barrier.sync / bar.red: the warp waits for the CTA
};

struct DwfKernelFacts {
  const ptx::Program* prog = nullptr;
  const ptx::Cfg* cfg = nullptr;
  std::vector<PcKind> kind;       // per PC
  // Per PC, WarpSync only: the lanes of the membermask when it is an
  // immediate; all 32 lanes when it is a register (its value differs per
  // thread and is not known here) or absent.
  std::vector<uint32_t> members;
  bool has_warp_sync = false;
};

// Classifies every PC. Throws simt::input_error naming the kernel and the
// source line for what `unit` (the branch unit's name, for the message)
// cannot run: calls to functions (DWF keeps no return stack; builtins such
// as vprintf are plain instructions and allowed), and warp-synchronous
// instructions when warp_size < 32 (a PTX warp would not fit in one of ours).
DwfKernelFacts analyse_dwf_kernel(const ptx::Program& prog, const ptx::Cfg& cfg, uint32_t warp_size,
                                  const char* unit);

}  // namespace simt::tbc
