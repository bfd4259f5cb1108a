// The pre-decoded fast kernels (func/fast_path.h, fast_memory.cpp) against
// the general handlers: the same instruction on twin CTAs with the same
// registers and memory, one executor with fast paths and no access list
// (as the functional runner runs it), one without fast paths and with the
// access list (as the timing model runs it). Registers, memory, control and
// faults must be identical, for full, partial, sparse and guarded masks.
#define BOOST_TEST_MODULE fast_path
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "exec_fixture.h"
#include "func/address_space.h"
#include "func/fast_path.h"

using namespace simt;
using namespace simt::test;
using func::Control;

namespace {

constexpr uint32_t kThreads = 100;  // two 64-thread words, the second partly used

struct Twin {
  ExecFixture fast, slow;
  func::Dim3 block{{kThreads, 1, 1}};
  uint64_t buf = 0;  // a global buffer, at the same address in both
  uint64_t buf_bytes = 0;

  uint32_t reg(Type ty) {
    slow.reg(ty);
    return fast.reg(ty);
  }
  uint32_t add(const Instr& in) {
    slow.add(in);
    return fast.add(in);
  }
  void build(uint32_t shared_bytes = 256, uint32_t local_bytes = 32, uint64_t global_bytes = 512) {
    fast.params.assign(24, 0);
    for (size_t i = 0; i < fast.params.size(); ++i) fast.params[i] = static_cast<uint8_t>(3 * i + 1);
    slow.params = fast.params;
    fast.build(kThreads, shared_bytes, local_bytes);
    slow.build(kThreads, shared_bytes, local_bytes);
    if (block[0] != kThreads) {  // a 2-D or 3-D block of the same kThreads threads
      for (ExecFixture* x : {&fast, &slow}) {
        x->geom.block = block;
        x->geom.grid = {{3, 2, 1}};
        x->cta = std::make_unique<func::CtaState>(x->prog, x->geom, func::Dim3{{2, 1, 0}}, x->params);
      }
    }
    slow.exec = std::make_unique<func::Executor>(slow.prog, false);
    fast.env.record_accesses = false;
    buf_bytes = global_bytes;
    buf = fast.alloc(global_bytes);
    BOOST_REQUIRE_EQUAL(slow.alloc(global_bytes), buf);
    for (uint64_t i = 0; i < global_bytes; ++i) {
      const uint8_t v = static_cast<uint8_t>(i * 37 + 11);
      fast.mem.write(buf + i, &v, 1);
      slow.mem.write(buf + i, &v, 1);
    }
    for (size_t i = 0; i < fast.cta->shared().size(); ++i)
      fast.cta->shared()[i] = slow.cta->shared()[i] = static_cast<uint8_t>(i * 13 + 5);
  }
  void set(uint32_t r, uint32_t t, uint64_t v) { fast.r(r, t) = slow.r(r, t) = v; }
  void set_all(uint32_t r, const std::function<uint64_t(uint32_t)>& f) {
    for (uint32_t t = 0; t < kThreads; ++t) set(r, t, f(t));
  }

  // Runs `pc` on both and checks they agree on everything visible.
  void check(uint32_t pc, const ThreadMask& m, const std::string& what) {
    BOOST_TEST_CONTEXT(what) {
      const func::StepResult& a = fast.run(pc, m);
      const func::StepResult& b = slow.run(pc, m);
      BOOST_CHECK(a.control == b.control);
      BOOST_CHECK(a.taken == b.taken);
      BOOST_CHECK_EQUAL(a.target, b.target);
      BOOST_CHECK_EQUAL(a.is_load, b.is_load);
      BOOST_CHECK_EQUAL(a.is_store, b.is_store);
      BOOST_CHECK(a.accesses.empty());
      if (b.control == Control::Fault) {
        BOOST_CHECK_EQUAL(a.fault.message, b.fault.message);
        BOOST_CHECK_EQUAL(a.fault.tid, b.fault.tid);
        BOOST_CHECK_EQUAL(a.fault.addr, b.fault.addr);
        BOOST_CHECK_EQUAL(a.fault.has_addr, b.fault.has_addr);
      }
      for (uint32_t r = 0; r < fast.prog.regs.size(); ++r)
        for (uint32_t t = 0; t < kThreads; ++t)
          if (fast.r(r, t) != slow.r(r, t)) {
            BOOST_ERROR("register " << r << " thread " << t << ": fast " << fast.r(r, t) << ", general "
                                    << slow.r(r, t));
            return;
          }
      BOOST_CHECK(fast.cta->shared() == slow.cta->shared());
      for (uint32_t t = 0; t < kThreads; ++t)
        BOOST_CHECK_EQUAL(std::memcmp(fast.cta->local(t), slow.cta->local(t), fast.cta->local_bytes()), 0);
      std::vector<std::pair<uint64_t, uint64_t>> ranges = extra;
      ranges.emplace_back(buf, buf_bytes);
      for (const auto& [at, bytes] : ranges) {
        std::vector<uint8_t> x(bytes), y(bytes);
        fast.mem.read(at, x.data(), bytes);
        slow.mem.read(at, y.data(), bytes);
        BOOST_CHECK(x == y);
      }
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> extra;  // more global ranges check() compares
};

// Masks that take the fast kernels through one run, several runs, single
// threads, word boundaries and nothing at all.
std::vector<std::pair<std::string, ThreadMask>> masks() {
  ThreadMask sparse, odd;
  for (uint32_t t = 0; t < kThreads; t += 7) sparse.set(t);
  for (uint32_t t = 1; t < kThreads; t += 2) odd.set(t);
  return {{"all", ThreadMask::range(0, kThreads)},
          {"warp", ThreadMask::range(32, 32)},
          {"across words", ThreadMask::range(50, 30)},
          {"sparse", sparse},
          {"odd", odd},
          {"one", lanes({63})},
          {"none", ThreadMask{}}};
}

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// Values with the interesting bits set: signs at 16/32/64 bits, small shift counts, NaN/inf/denormal floats.
uint64_t value(uint32_t seed, uint32_t t) {
  static const uint64_t specials[] = {0,
                                      1,
                                      0xffffffffull,
                                      0x80000000ull,
                                      0x7fffffffull,
                                      0xffffffffffffffffull,
                                      0x8000000000000000ull,
                                      0x8000ull,
                                      0x7fc00000ull,                 // f32 NaN
                                      0xff800001ull,                 // f32 signalling NaN, negative
                                      0x7f800000ull,                 // f32 +inf
                                      0x00000001ull,                 // f32 smallest denormal
                                      0x80000000ull,                 // f32 -0
                                      0x7ff8000000000000ull,         // f64 NaN
                                      0x3ff0000000000000ull,         // f64 1.0
                                      31, 32, 33, 64};
  const uint64_t h = mix(seed * 1000003ull + t);
  if (h % 3 == 0) return specials[(h >> 8) % (sizeof specials / sizeof specials[0])];
  return h % 5 == 0 ? (h >> 3) & 0xffff : h;
}

void randomise(Twin& w, uint32_t seed) {
  for (uint32_t r = 0; r < w.fast.prog.regs.size(); ++r) {
    const bool pred = w.fast.prog.regs[r].type == Type::Pred;
    w.set_all(r, [&](uint32_t t) { return pred ? value(seed + r, t) & 1 : value(seed + r, t); });
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(alu_fast_kernels_match_general_handlers) {
  Twin w;
  const uint32_t s32 = w.reg(Type::S32), u32 = w.reg(Type::U32), b32 = w.reg(Type::B32);
  const uint32_t s64 = w.reg(Type::S64), u64 = w.reg(Type::U64), b64 = w.reg(Type::B64);
  const uint32_t u16 = w.reg(Type::U16), s16 = w.reg(Type::S16);
  const uint32_t f32 = w.reg(Type::F32), g32 = w.reg(Type::F32), f64 = w.reg(Type::F64), g64 = w.reg(Type::F64);
  const uint32_t p = w.reg(Type::Pred), q = w.reg(Type::Pred), d = w.reg(Type::B64), e = w.reg(Type::U32);

  auto with_flags = [](Instr in, uint32_t flags) { in.flags = flags; return in; };
  auto cmp = [](Instr in, ptx::CmpOp c) { in.cmp = c; return in; };
  auto cvt = [](Instr in, Type from) { in.type2 = from; return in; };
  auto space = [](Instr in, Space s, uint32_t flags) { in.space = s; in.flags = flags; return in; };
  Instr setp_q = cmp(make(Op::Setp, Type::S32, {R(p), R(s32), R(u32)}), ptx::CmpOp::Lt);
  setp_q.pout = R(q);
  Instr setp_b = cmp(make(Op::Setp, Type::U32, {R(d), R(u32), Imm(7)}), ptx::CmpOp::Hi);  // into a B64 register

  const std::vector<std::pair<std::string, Instr>> cases = {
      {"add.s32 into b64", make(Op::Add, Type::S32, {R(d), R(s32), R(u32)})},
      {"add.u16 imm", make(Op::Add, Type::U16, {R(u16), R(u16), Imm(40000)})},
      {"add.s16 into s32", make(Op::Add, Type::S16, {R(s32), R(s16), R(u16)})},
      {"sub.s64", make(Op::Sub, Type::S64, {R(s64), R(s64), R(u64)})},
      {"sub.s32 imm first", make(Op::Sub, Type::S32, {R(e), Imm(5), R(s32)})},
      {"mul.lo.s32", with_flags(make(Op::Mul, Type::S32, {R(d), R(s32), R(u32)}), ptx::kLo)},
      {"mul.wide.s32", with_flags(make(Op::Mul, Type::S32, {R(s64), R(s32), Imm(-4)}), ptx::kWide)},
      {"mul.wide.u16", with_flags(make(Op::Mul, Type::U16, {R(u32), R(u16), R(s16)}), ptx::kWide)},
      {"mad.lo.u32", with_flags(make(Op::Mad, Type::U32, {R(u32), R(u32), R(s32), R(b32)}), ptx::kLo)},
      {"mad.wide.s32", with_flags(make(Op::Mad, Type::S32, {R(d), R(s32), R(u32), R(s64)}), ptx::kWide)},
      {"shl.b32", make(Op::Shl, Type::B32, {R(b32), R(b32), R(u32)})},
      {"shr.s32", make(Op::Shr, Type::S32, {R(s32), R(s32), R(u32)})},
      {"shr.u64", make(Op::Shr, Type::U64, {R(u64), R(b64), Imm(3)})},
      {"and.b32", make(Op::And, Type::B32, {R(b32), R(b32), R(u64)})},
      {"xor.b64", make(Op::Xor, Type::B64, {R(b64), R(b64), R(s64)})},
      {"not.b32", make(Op::Not, Type::B32, {R(b32), R(u64)})},
      {"not.b16 into u32", make(Op::Not, Type::B16, {R(e), R(u16)})},
      {"cnot.b64", make(Op::Cnot, Type::B64, {R(b64), R(b64)})},
      {"neg.s32", make(Op::Neg, Type::S32, {R(s32), R(s32)})},
      {"abs.s16", make(Op::Abs, Type::S16, {R(s16), R(u16)})},
      {"abs.s64 into b64", make(Op::Abs, Type::S64, {R(d), R(s64)})},
      {"popc.b64", make(Op::Popc, Type::B64, {R(u32), R(b64)})},
      {"clz.b32", make(Op::Clz, Type::B32, {R(e), R(s32)})},
      {"brev.b64", make(Op::Brev, Type::B64, {R(b64), R(u64)})},
      {"min.s32", make(Op::Min, Type::S32, {R(s32), R(s32), R(u32)})},
      {"max.u32", make(Op::Max, Type::U32, {R(e), R(u32), R(s32)})},
      {"mov.u32 imm", make(Op::Mov, Type::U32, {R(u32), Imm(-1)})},
      {"mov.b64 reg", make(Op::Mov, Type::B64, {R(b64), R(f64)})},
      {"mov.u32 %tid.x", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::TidX)})},
      {"mov.u32 %laneid", make(Op::Mov, Type::U32, {R(e), Sreg(ptx::Sreg::Laneid)})},
      {"mov.u16 %ntid.x", make(Op::Mov, Type::U16, {R(u16), Sreg(ptx::Sreg::NtidX)})},
      {"mov.u32 absolute address", make(Op::Mov, Type::U32, {R(u32), Addr(ptx::kNoReg, 0x1234)})},
      {"cvt.s64.s32", cvt(make(Op::Cvt, Type::S64, {R(s64), R(s32)}), Type::S32)},
      {"cvt.u8.u32", cvt(make(Op::Cvt, Type::U8, {R(u32), R(u32)}), Type::U32)},
      {"cvt.s32.s16", cvt(make(Op::Cvt, Type::S32, {R(d), R(u16)}), Type::S16)},
      {"cvta.to.global", space(make(Op::Cvta, Type::U64, {R(u64), R(u64)}), Space::Global, ptx::kToSpace)},
      {"cvta.shared.u64", space(make(Op::Cvta, Type::U64, {R(u64), R(b64)}), Space::Shared, 0)},
      {"cvta.to.shared.u32", space(make(Op::Cvta, Type::U32, {R(u32), R(u64)}), Space::Shared, ptx::kToSpace)},
      {"setp.lt.s32 p|q", setp_q},
      {"setp.hi.u32 into b64", setp_b},
      {"setp.gtu.f32", cmp(make(Op::Setp, Type::F32, {R(p), R(f32), R(g32)}), ptx::CmpOp::Gtu)},
      {"setp.le.f64", cmp(make(Op::Setp, Type::F64, {R(q), R(f64), ImmF64(1.0)}), ptx::CmpOp::Le)},
      {"setp.ge.s16", cmp(make(Op::Setp, Type::S16, {R(p), R(s16), R(u16)}), ptx::CmpOp::Ge)},
      {"selp.b32 !p", make(Op::Selp, Type::B32, {R(b32), R(s32), R(u32), R(p, true)})},
      {"selp.f32 imm", make(Op::Selp, Type::F32, {R(f32), ImmF32(2.5f), R(g32), R(q)})},
      {"and.pred", make(Op::And, Type::Pred, {R(p), R(p), R(q, true)})},
      {"or.pred imm", make(Op::Or, Type::Pred, {R(q), R(p), Imm(0)})},
      {"xor.pred", make(Op::Xor, Type::Pred, {R(p), R(q), R(p)})},
      {"not.pred", make(Op::Not, Type::Pred, {R(q), R(p, true)})},
      {"add.f32", make(Op::Add, Type::F32, {R(f32), R(f32), R(g32)})},
      {"sub.rn.f32 imm", make(Op::Sub, Type::F32, {R(g32), R(f32), ImmF32(1.5f)})},
      {"mul.f64", make(Op::Mul, Type::F64, {R(f64), R(f64), R(g64)})},
      {"fma.rn.f32", make(Op::Fma, Type::F32, {R(f32), R(f32), R(g32), R(f32)})},
      {"fma.rn.f64 imm", make(Op::Fma, Type::F64, {R(g64), R(f64), ImmF64(-0.5), R(g64)})},
      {"div.rn.f64", make(Op::Div, Type::F64, {R(f64), R(g64), R(f64)})},
      {"div.full.f32", with_flags(make(Op::Div, Type::F32, {R(f32), R(g32), R(f32)}), ptx::kFull)},
      {"min.f32", make(Op::Min, Type::F32, {R(g32), R(f32), R(g32)})},
      {"max.NaN.f64", with_flags(make(Op::Max, Type::F64, {R(f64), R(f64), R(g64)}), ptx::kNaN)},
      {"neg.f32", make(Op::Neg, Type::F32, {R(f32), R(g32)})},
      {"abs.f64", make(Op::Abs, Type::F64, {R(g64), R(f64)})},
      {"bra", make(Op::Bra, Type::None, {Label(0)})},
  };
  // Each case three times: unguarded, @p, @!q.
  for (const auto& c : cases) {
    Instr in = c.second;
    if ((in.op == Op::Fma || in.op == Op::Div) && !(in.flags & ptx::kFull)) in.rnd = ptx::Rnd::Rn;
    w.add(in);
    in.guard = R(p);
    w.add(in);
    in.guard = R(q, true);
    w.add(in);
  }
  w.build();
  // Every case here has a fast kernel, or the test would compare the general handler with itself.
  const func::FastProgram* fp = w.fast.exec->fast_program();
  BOOST_REQUIRE(fp);
  for (uint32_t pc = 0; pc < w.fast.prog.code.size(); ++pc)
    BOOST_TEST((fp->code[pc].run || fp->code[pc].branch), cases[pc / 3].first << " has no fast kernel");
  uint32_t seed = 1;
  for (uint32_t pc = 0; pc < w.fast.prog.code.size(); ++pc) {
    const std::string name = cases[pc / 3].first + (pc % 3 == 1 ? " @p" : pc % 3 == 2 ? " @!q" : "");
    for (const auto& [mname, m] : masks()) {
      randomise(w, seed++);
      w.check(pc, m, name + ", mask " + mname);
    }
  }
}

BOOST_AUTO_TEST_CASE(memory_fast_kernels_match_general_handlers_and_faults) {
  Twin w;
  const uint32_t a64 = w.reg(Type::U64), a32 = w.reg(Type::U32), v32 = w.reg(Type::U32);
  const uint32_t v16 = w.reg(Type::S16), v64 = w.reg(Type::B64), vf = w.reg(Type::F32), p = w.reg(Type::Pred);
  struct Case {
    std::string name;
    Instr in;
  };
  const std::vector<Case> cases = {
      {"ld.global.u32", make(Op::Ld, Type::U32, {R(v32), Addr(a64, 4)}, Space::Global)},
      {"ld.global.s16 into s16", make(Op::Ld, Type::S16, {R(v16), Addr(a64)}, Space::Global)},
      {"ld.global.s8 into b64", make(Op::Ld, Type::S8, {R(v64), R(a64)}, Space::Global)},
      {"ld.const.f32", make(Op::Ld, Type::F32, {R(vf), Addr(a64, 8)}, Space::Const)},
      {"ld.global.u32 into its address", make(Op::Ld, Type::U64, {R(a64), Addr(a64)}, Space::Global)},
      {"st.global.u16", make(Op::St, Type::U16, {Addr(a64, 2), R(v32)}, Space::Global)},
      {"st.global.b64 imm", make(Op::St, Type::B64, {Addr(a64), Imm(-7)}, Space::Global)},
      {"ld.shared.u32", make(Op::Ld, Type::U32, {R(v32), Addr(a32, 4)}, Space::Shared)},
      {"ld.shared.b64", make(Op::Ld, Type::B64, {R(v64), Addr(a32)}, Space::Shared)},
      {"st.shared.f32", make(Op::St, Type::F32, {Addr(a32, -4), R(vf)}, Space::Shared)},
      {"st.shared.u8", make(Op::St, Type::U8, {Addr(a32), R(v64)}, Space::Shared)},
      {"ld.local.u32", make(Op::Ld, Type::U32, {R(v32), Addr(a32)}, Space::Local)},
      {"st.local.u32", make(Op::St, Type::U32, {Addr(a32, 4), R(v32)}, Space::Local)},
      {"ld.param.u64 absolute", make(Op::Ld, Type::U64, {R(v64), Addr(ptx::kNoReg, 8)}, Space::Param)},
      {"ld.param.u32", make(Op::Ld, Type::U32, {R(v32), Addr(a32)}, Space::Param)},
  };
  for (const Case& c : cases) {
    w.add(c.in);
    Instr g = c.in;
    g.guard = R(p);
    w.add(g);
  }
  w.build(256, 32, 512);
  const uint64_t buf = w.buf;
  // Address patterns (window spaces stay within the 24-byte parameters when
  // in range): in range, a misaligned thread, past the end, unmapped, 32-bit wrap.
  const std::vector<std::pair<std::string, std::function<uint64_t(uint32_t, bool)>>> patterns = {
      {"in range", [&](uint32_t t, bool global) { return global ? buf + (t * 8) % 256 : 8 * (t % 2) + 8; }},
      {"same address", [&](uint32_t, bool global) { return global ? buf + 16 : 16; }},
      {"misaligned thread 70",
       [&](uint32_t t, bool global) { return (global ? buf : 0) + 8 * (t % 2) + 8 + (t == 70 ? 1 : 0); }},
      {"thread 90 past the end",
       [&](uint32_t t, bool global) {
         const uint64_t off = t == 90 ? (global ? 512 : 256) : 8 * (t % 2) + 8;
         return (global ? buf : 0) + off;
       }},
      {"unmapped thread 40", [&](uint32_t t, bool global) { return global ? (t == 40 ? buf + 4096 : buf + 8) : 8; }},
      {"32-bit wrap", [&](uint32_t t, bool global) { return global ? buf + 8 : (uint64_t{1} << 32) + 8 + 8 * (t % 2); }},
  };
  for (uint32_t pc = 0; pc < w.fast.prog.code.size(); ++pc) {
    const Instr& in = w.fast.prog.code[pc];
    const bool global = in.space == Space::Global || in.space == Space::Const;
    for (const auto& [pname, addr] : patterns)
      for (const auto& [mname, m] : masks()) {
        randomise(w, pc * 97 + static_cast<uint32_t>(pname.size()));
        w.set_all(a64, [&](uint32_t t) { return addr(t, global); });
        w.set_all(a32, [&](uint32_t t) { return addr(t, global) & 0xffffffffffull; });
        w.check(pc, m, cases[pc / 2].name + (pc % 2 ? " @p" : "") + ", " + pname + ", mask " + mname);
      }
  }
}

// The window kernels check bounds by sign (fast_memory.cpp, addresses()):
// an access that ends on the window's last byte fits, one more element does
// not, and a window smaller than one access (no shared memory, or 2 bytes)
// refuses every access. Each answer must be the general handler's.
BOOST_AUTO_TEST_CASE(window_accesses_at_the_window_end) {
  for (const uint32_t shared_bytes : {0u, 2u, 256u}) {
    Twin w;
    const uint32_t a32 = w.reg(Type::U32), v64 = w.reg(Type::B64);
    const std::vector<Instr> code = {
        make(Op::Ld, Type::U8, {R(v64), Addr(a32)}, Space::Shared),
        make(Op::Ld, Type::U16, {R(v64), Addr(a32)}, Space::Shared),
        make(Op::Ld, Type::U32, {R(v64), Addr(a32)}, Space::Shared),
        make(Op::Ld, Type::B64, {R(v64), Addr(a32)}, Space::Shared),
        make(Op::St, Type::B64, {Addr(a32), R(v64)}, Space::Shared),
        make(Op::Ld, Type::U32, {R(v64), Addr(a32)}, Space::Local),
        make(Op::St, Type::U16, {Addr(a32), R(v64)}, Space::Local),
        make(Op::Ld, Type::B64, {R(v64), Addr(a32)}, Space::Param),
    };
    for (const Instr& in : code) w.add(in);
    w.build(shared_bytes, 32, 512);
    for (uint32_t pc = 0; pc < code.size(); ++pc) {
      const Instr& in = code[pc];
      const int64_t size = ptx::type_bytes(in.type);
      const int64_t limit = in.space == Space::Shared ? shared_bytes : in.space == Space::Local ? 32 : 24;
      for (const int64_t step : {-1, 0, 1}) {
        // Thread 37 at the last fitting place (+ one element either way), the others at 0.
        const uint64_t at = static_cast<uint64_t>(limit - size + step * size) & 0xffffffffull;
        randomise(w, pc * 31 + static_cast<uint32_t>(step + 1));
        w.set_all(a32, [&](uint32_t t) { return t == 37 ? at : 0; });
        w.check(pc, ThreadMask::range(0, kThreads),
                std::string(ptx::space_name(in.space)) + " window of " + std::to_string(limit) + " bytes, " +
                    std::to_string(size) + "-byte access at " + std::to_string(at));
      }
    }
  }
}

// The global kernels check a warp's whole address range at once when one
// allocation holds it, and use one page pointer when one page does; a range
// over several pages or allocations, or (with a fault granule) reaching a
// gap between allocations, goes thread by thread. Same results either way.
BOOST_AUTO_TEST_CASE(global_fast_kernels_across_pages_and_allocations) {
  constexpr uint64_t kPage = func::GlobalMemory::kPageSize;
  for (const uint64_t granule : {uint64_t{0}, kPage}) {
    Twin w;
    const uint32_t a64 = w.reg(Type::U64), v32 = w.reg(Type::U32), v64 = w.reg(Type::B64), p = w.reg(Type::Pred);
    const std::vector<std::pair<std::string, Instr>> cases = {
        {"ld.global.u32", make(Op::Ld, Type::U32, {R(v32), Addr(a64, 4)}, Space::Global)},
        {"ld.global.s8 into b64", make(Op::Ld, Type::S8, {R(v64), R(a64)}, Space::Global)},
        {"st.global.u16", make(Op::St, Type::U16, {Addr(a64, 2), R(v32)}, Space::Global)},
        {"st.global.b64 imm", make(Op::St, Type::B64, {Addr(a64), Imm(-7)}, Space::Global)},
    };
    for (const auto& [name, in] : cases) {
      w.add(in);
      Instr g = in;
      g.guard = R(p);
      w.add(g);
    }
    w.fast.mem.set_fault_granule(granule);
    w.slow.mem.set_fault_granule(granule);
    w.build(256, 32, 2 * kPage + 512);  // buf reaches into a third page
    const uint64_t buf = w.buf, end = buf + 2 * kPage + 512;
    // A second allocation past three unmapped pages (a spacer, released).
    const uint64_t spacer = w.fast.mem.allocate(3 * kPage);
    BOOST_REQUIRE_EQUAL(w.slow.mem.allocate(3 * kPage), spacer);
    const uint64_t far = w.fast.alloc(512, 0x5c);
    BOOST_REQUIRE_EQUAL(w.slow.alloc(512, 0x5c), far);
    BOOST_REQUIRE(w.fast.mem.release(spacer) && w.slow.mem.release(spacer));
    w.extra = {{far, 512}};
    const std::vector<std::pair<std::string, std::function<uint64_t(uint32_t)>>> patterns = {
        {"one page", [&](uint32_t t) { return buf + (t * 8) % 4096; }},
        {"two pages", [&](uint32_t t) { return buf + kPage - 400 + t * 8; }},
        {"three pages", [&](uint32_t t) { return buf + t * 1304; }},
        {"two allocations", [&](uint32_t t) { return t % 2 ? far + 8 * (t % 32) : buf + 8 * t; }},
        {"thread 40 between them", [&](uint32_t t) { return t == 40 ? spacer + kPage + 64 : buf + 8 * t; }},
        {"thread 90 just past the first", [&](uint32_t t) { return t == 90 ? end + 8 : buf + 8 * t; }},
    };
    for (uint32_t pc = 0; pc < w.fast.prog.code.size(); ++pc)
      for (const auto& [pname, addr] : patterns)
        for (const auto& [mname, m] : masks()) {
          randomise(w, pc * 31 + static_cast<uint32_t>(pname.size()));
          w.set_all(a64, addr);
          w.check(pc, m,
                  cases[pc / 2].first + (pc % 2 ? " @p" : "") + ", " + pname + ", mask " + mname + ", granule " +
                      std::to_string(granule));
        }
  }
}

BOOST_AUTO_TEST_CASE(access_list_is_recorded_only_when_asked) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::U32), v = f.reg(Type::U32);
  const uint32_t ld = f.add(make(Op::Ld, Type::U32, {R(v), Addr(a)}, Space::Shared));
  f.build(8, 64);
  for (uint32_t t = 0; t < 8; ++t) f.r(a, t) = 4 * (7 - t);
  BOOST_REQUIRE_EQUAL(f.run(ld).accesses.size(), 8u);
  BOOST_CHECK_EQUAL(f.out.accesses[2].addr, 20u);
  f.env.record_accesses = false;
  BOOST_CHECK(f.run(ld).accesses.empty());
  BOOST_CHECK(f.out.is_load);
}

BOOST_AUTO_TEST_CASE(special_register_moves_match_on_a_2d_block) {
  Twin w;
  w.block = {{10, 5, 2}};
  const uint32_t u32 = w.reg(Type::U32), u16 = w.reg(Type::U16), u64 = w.reg(Type::U64);
  const std::vector<std::pair<std::string, Instr>> cases = {
      {"%tid.x", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::TidX)})},
      {"%tid.y", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::TidY)})},
      {"%tid.z into u64", make(Op::Mov, Type::U32, {R(u64), Sreg(ptx::Sreg::TidZ)})},
      {"%ntid.y", make(Op::Mov, Type::U16, {R(u16), Sreg(ptx::Sreg::NtidY)})},
      {"%ctaid.x", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::CtaidX)})},
      {"%nctaid.y", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::NctaidY)})},
      {"%warpid", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::Warpid)})},
      {"%lanemask_lt", make(Op::Mov, Type::U32, {R(u32), Sreg(ptx::Sreg::LanemaskLt)})},
  };
  for (const auto& c : cases) w.add(c.second);
  w.build();
  for (uint32_t pc = 0; pc < cases.size(); ++pc)
    for (const auto& [mname, m] : masks()) {
      randomise(w, pc + 7);
      w.check(pc, m, cases[pc].first + ", mask " + mname);
    }
}
