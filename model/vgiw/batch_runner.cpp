#include "vgiw/batch_runner.h"

#include "func/address_space.h"
#include "func/thread_fault.h"
#include "util/error.h"

namespace simt::vgiw {


BatchRunner::BatchRunner(const Compilation& c, const CompiledBlock& block, uint32_t line, uint64_t local_region)
    : c_(c), b_(block), line_(line), local_region_(local_region) {
  const auto& nodes = b_.graph.nodes();
  mem_index_.assign(nodes.size(), kNone);
  mem_of_pc_.assign(b_.end - b_.begin, kNone);
  for (uint32_t n = 0; n < nodes.size(); ++n)
    if (nodes[n].kind == NodeKind::Instr && nodes[n].unit == Unit::Ldst) {
      mem_index_[n] = static_cast<uint32_t>(mem_nodes_.size());
      mem_of_pc_[nodes[n].pc - b_.begin] = mem_index_[n];
      mem_nodes_.push_back(n);
    }
}

void BatchRunner::run(VgiwCta& cta, uint32_t base, uint64_t bits, BatchResult& out) {
  func::CtaState& st = *cta.state;
  const sm::KernelContext& k = *cta.kernel;
  const uint32_t first_tid = base - cta.base;
  func::ThreadMask mask;
  mask.set_word(first_tid / 64, bits);
  const size_t nm = mem_nodes_.size();
  out.first.assign(nm * 65, 0);
  out.lines.clear();
  out.shared.assign(nm, 0);
  out.thread_instructions = 0;
  out.batch_instructions = 0;
  out.int_threads = out.fp_threads = out.sfu_threads = 0;
  const uint32_t fall = b_.end < c_.program().funcs[0].end ? c_.id_at(b_.end) : kNone;
  for (uint32_t i = 0; i < 64; ++i) out.next[i] = fall;
  const uint32_t threads = static_cast<uint32_t>(__builtin_popcountll(bits));
  for (uint32_t pc = b_.begin; pc < b_.end; ++pc) {
    c_.executor().step(st, k.env, pc, mask, res_);  // the if-converted program (compiler.h)
    out.thread_instructions += threads;
    ++out.batch_instructions;
    switch (c_.program().code[pc].cls) {
      case ptx::InstrClass::Int: out.int_threads += threads; break;
      case ptx::InstrClass::Fp: out.fp_threads += threads; break;
      case ptx::InstrClass::Sfu: out.sfu_threads += threads; break;
      default: break;
    }
    if (res_.control == func::Control::Fault) throw func::thread_fault(c_.program(), st, pc, res_.fault);
    const uint32_t m = mem_of_pc_[pc - b_.begin];
    if (m != kNone) {  // accesses come in thread order
      uint32_t next_bit = 0, last_bit = 64;
      for (const func::MemAccess& a : res_.accesses) {
        const uint32_t bit = a.tid - first_tid;
        if (bit >= 64) continue;
        if (a.space == ptx::Space::Shared) {
          out.shared[m] = 1;
          continue;
        }
        while (next_bit <= bit) out.first[m * 65 + next_bit++] = static_cast<uint32_t>(out.lines.size());
        // Global, const and Space::Tex as they are: no texture cache here (batch_runner.h).
        uint64_t addr = a.addr;
        if (a.space == ptx::Space::Param) addr += func::kParamWindow;
        if (a.space == ptx::Space::Local)  // word-interleaved over the CTA's threads (mem/coalescer.h)
          addr = local_region_ + (uint64_t{cta.base / 64} << 32) + ((a.addr / 4) * cta.threads + a.tid) * 4 +
                 a.addr % 4;
        const uint64_t l = addr & ~uint64_t{line_ - 1};
        if (last_bit == bit && out.lines.back().addr == l) {
          out.lines.back().bytes += a.size;
          continue;
        }
        out.lines.push_back({l, a.size, static_cast<uint32_t>((addr - l) / 4), res_.is_store || res_.is_atomic,
                             res_.is_atomic});
        last_bit = bit;
      }
      while (next_bit <= 64) out.first[m * 65 + next_bit++] = static_cast<uint32_t>(out.lines.size());
    }
    switch (res_.control) {
      case func::Control::Branch: {
        const uint32_t taken = c_.id_at(res_.target);
        for (uint32_t b = 0; b < 64; ++b)
          if (res_.taken.test(first_tid + b)) out.next[b] = taken;
        break;
      }
      case func::Control::Exit:
        for (uint32_t b = 0; b < 64; ++b)
          if (res_.taken.test(first_tid + b)) out.next[b] = kNone;
        break;
      case func::Control::Ret:
        for (uint32_t b = 0; b < 64; ++b) out.next[b] = kNone;
        break;
      case func::Control::Barrier:
        // Every thread of the CTA runs the barrier block before any runs its
        // successor (bbs.h); the barrier's arrivals still count, so that a
        // bar.red delivers its result when the last thread arrives.
        cta.barriers.arrive(res_, mask.count());
        cta.barriers.release(st, [](uint32_t) {});
        break;
      case func::Control::Call:
        throw internal_error("vgiw: a call reached the grid (" + where(c_.program(), pc) + ")");
      default: break;
    }
    if (res_.control == func::Control::Exit) mask = mask.minus(res_.taken);
  }
  // Threads that exited anywhere in the block are done.
  for (uint32_t b = 0; b < 64; ++b)
    if (((bits >> b) & 1) && st.exited().test(first_tid + b)) out.next[b] = kNone;
}

}  // namespace simt::vgiw
