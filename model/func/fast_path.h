// Internal to the executor: the common instructions pre-decoded once per PC
// (operand registers, immediates already converted to the instruction type,
// register write rules, the operation itself), so step() runs them as tight
// loops over a warp's threads instead of decoding every operand of
// every thread. Whatever is not covered here (modifiers such as .ftz/.sat/.cc,
// special registers, vectors, directed rounding, opcodes with side effects)
// keeps a null kernel and goes through the general handlers, which stay the
// definition: a fast kernel must give exactly their results.
#pragma once

#include <cstdint>
#include <vector>

#include "func/cta_state.h"
#include "func/reg_write.h"
#include "func/thread_mask.h"
#include "ptx/ir.h"

namespace simt::func {

// A source operand: a register row read through `mask` (the operand type's
// width), or a constant when `reg` is ptx::kNoReg.
struct FastOperand {
  uint32_t reg = ptx::kNoReg;
  bool neg = false;  // predicate operands: `!p`
  uint64_t mask = ~uint64_t{0};
  uint64_t imm = 0;
};

struct ExecEnv;
struct FastInstr;
// ALU kernels take the active threads of one 64-thread mask word: threads
// word * 64 + k for each set bit k of `bits` (a warp of up to 64 threads is
// one call; run_fast() calls a kernel once for each word of a wider mask).
using FastKernel = void (*)(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits);
// Loads and stores: returns false, having changed nothing, when some thread
// would fault or needs the general path; the general handler then runs.
using FastMemKernel = bool (*)(const FastInstr& f, CtaState& cta, const ExecEnv& env, const ThreadMask& active);

struct FastInstr {
  FastKernel run = nullptr;     // null: use the general handler
  FastMemKernel mem = nullptr;  // used only when no access list is recorded
  bool branch = false;          // bra: the guard's threads go to `target`
  bool guard_neg = false;       // the guard is `@!p`
  uint32_t target = ptx::kNoPc;
  uint32_t guard = ptx::kNoReg;  // guard predicate register (copied here: the runner reads no ptx::Instr)
  uint32_t dst = ptx::kNoReg, dst2 = ptx::kNoReg;  // dst2: setp's second predicate
  RegWrite w, w2;
  FastOperand src[3];
  // Per-operation parameters.
  ptx::CmpOp cmp = ptx::CmpOp::None;
  ptx::Sreg sreg = ptx::Sreg::TidX;  // mov from a special register
  uint8_t bits = 0;  // operand width in bits (shifts, compares, wide multiplies)
  bool sgn = false;
  bool flag = false;  // op-specific: min/max: .NaN; cvta: to the space
  uint64_t base = 0, wrap = 0;  // cvta window
};

// The memory kernels (fast_memory.cpp); false when `in` has none.
bool decode_fast_memory(const ptx::Program& prog, const ptx::Instr& in, FastInstr& f);

struct FastProgram {
  std::vector<FastInstr> code;  // indexed by PC
  explicit FastProgram(const ptx::Program& prog);
};

// Bit k set when bit 0 of r[k] is, for k < n (n <= 64): a predicate row's
// values packed into a mask word (fast_path.cpp; a vector loop where the
// CPU has AVX2, see util/lane_clones.h).
uint64_t pack_predicates(const uint64_t* r, uint64_t n);

// Guard predicate over one 64-thread word: the threads of `w` (word `word`
// of a mask) whose predicate row bit 0, negated if `neg`, is set.
inline uint64_t guard_word(const uint64_t* row, uint32_t word, uint64_t w, bool neg) {
  if (!w) return 0;
  const uint32_t lo = static_cast<uint32_t>(__builtin_ctzll(w)), hi = 64 - static_cast<uint32_t>(__builtin_clzll(w));
  const uint64_t g = pack_predicates(row + size_t{word} * 64 + lo, hi - lo) << lo;
  return (neg ? ~g : g) & w;
}

// Calls f(t) for each thread of `m`, ascending: one step per thread, so a
// scattered mask costs no more per thread than a dense one (the memory
// kernels). A word whose threads are one contiguous run (a converged warp)
// takes a plain counted loop, which the compiler unrolls and vectorises.
template <class F>
inline void for_each_thread(const ThreadMask& m, uint32_t nthreads, F&& f) {
  const uint32_t words = (nthreads + 63) / 64;
  for (uint32_t i = 0; i < words; ++i) {
    uint64_t w = m.word(i);
    if (!w) continue;
    const uint32_t lo = static_cast<uint32_t>(__builtin_ctzll(w));
    const uint64_t run = w >> lo;
    if ((run & (run + 1)) == 0) {  // bits lo..hi-1 all set (run + 1 wraps to 0 for a full word)
      const uint32_t hi = 64 - static_cast<uint32_t>(__builtin_clzll(w));
      for (uint32_t t = i * 64 + lo; t < i * 64 + hi; ++t) f(t);
      continue;
    }
    for (; w; w &= w - 1) f(i * 64 + static_cast<uint32_t>(__builtin_ctzll(w)));
  }
}

// Calls f(lo, hi, bits) for the threads `w` of mask word `word`, if any:
// [lo, hi) runs from its first to its last thread, and bit k of `bits`
// says whether thread lo + k is in the set.
template <class F>
inline void for_word_span(uint32_t word, uint64_t w, F&& f) {
  if (!w) return;
  const uint32_t first = static_cast<uint32_t>(__builtin_ctzll(w));
  const uint32_t n = 64 - static_cast<uint32_t>(__builtin_clzll(w)) - first;
  f(word * 64 + first, word * 64 + first + n, w >> first);
}
// for_word_span for each 64-thread word of `m`.
template <class F>
inline void for_each_span(const ThreadMask& m, uint32_t nthreads, F&& f) {
  const uint32_t words = (nthreads + 63) / 64;
  for (uint32_t i = 0; i < words; ++i) for_word_span(i, m.word(i), f);
}
// Whether every thread of a span is in the mask (a 64-wide span only when
// the whole word is set).
inline bool span_full(uint32_t lo, uint32_t hi, uint64_t bits) {
  return bits == (hi - lo == 64 ? ~uint64_t{0} : (uint64_t{1} << (hi - lo)) - 1);
}

// d[t] = v(t) for each thread t of a span. A span whose threads are one
// unbroken run is one loop the compiler can vectorise; a scattered one
// (divergence, random grouping) goes thread by thread, which costs less
// than a loop per run when the runs are short.
template <class V>
inline void write_span(uint64_t* d, uint32_t lo, uint32_t hi, uint64_t bits, V&& v) {
  if (span_full(lo, hi, bits)) {
    for (uint32_t t = lo; t < hi; ++t) d[t] = v(t);
    return;
  }
  for (; bits; bits &= bits - 1) {
    const uint32_t t = lo + static_cast<uint32_t>(__builtin_ctzll(bits));
    d[t] = v(t);
  }
}
// write_span over the threads `w` of mask word `word` / of a whole mask.
template <class V>
inline void write_word(uint64_t* d, uint32_t word, uint64_t w, V&& v) {
  for_word_span(word, w, [&](uint32_t lo, uint32_t hi, uint64_t bits) { write_span(d, lo, hi, bits, v); });
}
template <class V>
inline void write_threads(uint64_t* d, const ThreadMask& m, uint32_t nthreads, V&& v) {
  for_each_span(m, nthreads, [&](uint32_t lo, uint32_t hi, uint64_t bits) { write_span(d, lo, hi, bits, v); });
}


// Runs ALU kernel f.run over the threads of `m`, a word at a time.
inline void run_fast(const FastInstr& f, CtaState& cta, const ThreadMask& m) {
  const uint32_t words = (cta.threads() + 63) / 64;
  for (uint32_t i = 0; i < words; ++i)
    if (const uint64_t w = m.word(i)) f.run(f, cta, i, w);
}

}  // namespace simt::func
