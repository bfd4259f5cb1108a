#define BOOST_TEST_MODULE exec_memory
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "exec_fixture.h"
#include "func/address_space.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;
using func::Control;

namespace {
uint32_t f2u(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float u2f(uint64_t u) { uint32_t x = static_cast<uint32_t>(u); float f; std::memcpy(&f, &x, 4); return f; }
uint64_t d2u(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
double u2d(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }
}  // namespace

BOOST_AUTO_TEST_CASE(global_load_store_per_thread) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::U64), v = f.reg(Type::U32);
  const uint32_t ld = f.add(make(Op::Ld, Type::U32, {R(v), Addr(a, 4)}, Space::Global));
  const uint32_t st = f.add(make(Op::St, Type::U32, {Addr(a, 0), R(v)}, Space::Global));
  f.build(40);
  const uint64_t base = f.alloc(4 * 41);
  for (uint32_t i = 0; i < 41; ++i) f.mem.store<uint32_t>(base + 4 * i, 1000 + i);
  for (uint32_t t = 0; t < 40; ++t) f.r(a, t) = base + 4 * t;
  auto& o = f.run(ld);
  BOOST_CHECK(o.control == Control::Next);
  BOOST_CHECK(o.is_load && !o.is_store);
  BOOST_REQUIRE_EQUAL(o.accesses.size(), 40u);
  BOOST_CHECK_EQUAL(o.accesses[7].tid, 7u);
  BOOST_CHECK_EQUAL(o.accesses[7].addr, base + 4 * 8);
  BOOST_CHECK(o.accesses[7].space == Space::Global);
  for (uint32_t t = 0; t < 40; ++t) BOOST_CHECK_EQUAL(f.r(v, t), 1001 + t);
  // Only threads 3 and 5 store: element i takes element i+1's value.
  f.run(st, lanes({3, 5}));
  BOOST_CHECK(f.out.is_store);
  BOOST_CHECK_EQUAL(f.mem.load<uint32_t>(base + 12), 1004u);
  BOOST_CHECK_EQUAL(f.mem.load<uint32_t>(base + 16), 1004u);  // untouched
  BOOST_CHECK_EQUAL(f.mem.load<uint32_t>(base + 20), 1006u);
}

BOOST_AUTO_TEST_CASE(vector_v4_round_trip_with_sink) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::U64);
  const uint32_t x = f.reg(Type::U32), y = f.reg(Type::U32), z = f.reg(Type::U32), w = f.reg(Type::U32);
  const uint32_t p = f.reg(Type::U32), q = f.reg(Type::U32), s = f.reg(Type::U32);
  Instr st = make(Op::St, Type::U32, {Addr(a), Vec({x, y, z, w})}, Space::Global);
  st.vec = 4;
  Instr ld = make(Op::Ld, Type::U32, {Vec({p, ptx::kNoReg, q, s}), Addr(a)}, Space::Global);
  ld.vec = 4;
  const uint32_t pst = f.add(st), pld = f.add(ld);
  f.build(2);
  const uint64_t base = f.alloc(32);
  for (uint32_t t = 0; t < 2; ++t) {
    f.r(a, t) = base + 16 * t;
    f.r(x, t) = 10 + t; f.r(y, t) = 20 + t; f.r(z, t) = 30 + t; f.r(w, t) = 40 + t;
  }
  f.run(pst);
  BOOST_CHECK_EQUAL(f.out.accesses.size(), 8u);
  BOOST_CHECK_EQUAL(f.mem.load<uint32_t>(base + 16 + 12), 41u);
  f.run(pld);
  BOOST_CHECK_EQUAL(f.r(p, 1), 11u);
  BOOST_CHECK_EQUAL(f.r(q, 1), 31u);
  BOOST_CHECK_EQUAL(f.r(s, 0), 40u);
  BOOST_CHECK_EQUAL(f.out.accesses[5].addr, base + 16 + 4);
}

BOOST_AUTO_TEST_CASE(narrow_loads_extend_into_register_width) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::U64), r32 = f.reg(Type::S32), u32 = f.reg(Type::U32), r64 = f.reg(Type::S64);
  const uint32_t p1 = f.add(make(Op::Ld, Type::S8, {R(r32), Addr(a)}, Space::Global));
  const uint32_t p2 = f.add(make(Op::Ld, Type::U8, {R(u32), Addr(a)}, Space::Global));
  const uint32_t p3 = f.add(make(Op::Ld, Type::S16, {R(r64), Addr(a)}, Space::Global));
  f.build(1);
  const uint64_t base = f.alloc(8);
  f.mem.store<uint16_t>(base, 0x80f0);
  f.set_all(a, base);
  f.run(p1);
  BOOST_CHECK_EQUAL(f.r(r32, 0), 0xfffffff0u);  // sign-extended, kept to 32 bits
  f.run(p2);
  BOOST_CHECK_EQUAL(f.r(u32, 0), 0xf0u);
  f.run(p3);
  BOOST_CHECK_EQUAL(f.r(r64, 0), 0xffffffffffff80f0ull);
}

BOOST_AUTO_TEST_CASE(shared_local_param_const_and_generic) {
  ExecFixture f;
  f.params.resize(16);
  const uint64_t pval = 0x1122334455667788ull;
  std::memcpy(f.params.data() + 8, &pval, 8);
  const uint32_t off = f.reg(Type::U32), v = f.reg(Type::U32), g = f.reg(Type::U64), w = f.reg(Type::U32);
  const uint32_t pv = f.reg(Type::U64), cv = f.reg(Type::U32), ca = f.reg(Type::U64);
  const uint32_t st_sh = f.add(make(Op::St, Type::U32, {Addr(off), R(v)}, Space::Shared));
  Instr cs = make(Op::Cvta, Type::U64, {R(g), R(off)}, Space::Shared);
  const uint32_t cvta_sh = f.add(cs);
  const uint32_t ld_gen = f.add(make(Op::Ld, Type::U32, {R(w), Addr(g)}, Space::Generic));
  const uint32_t st_loc = f.add(make(Op::St, Type::U32, {Addr(ptx::kNoReg, 8), R(v)}, Space::Local));
  Instr cl = make(Op::Cvta, Type::U64, {R(g), Imm(8)}, Space::Local);
  const uint32_t cvta_loc = f.add(cl);
  const uint32_t ld_par = f.add(make(Op::Ld, Type::U64, {R(pv), Addr(ptx::kNoReg, 8)}, Space::Param));
  const uint32_t st_par = f.add(make(Op::St, Type::U64, {Addr(ptx::kNoReg, 8), R(pv)}, Space::Param));
  const uint32_t ld_c = f.add(make(Op::Ld, Type::U32, {R(cv), Addr(ca)}, Space::Const));
  const uint32_t st_gen = f.add(make(Op::St, Type::U32, {Addr(g), R(off)}, Space::None));
  f.build(8, 64, 16);
  for (uint32_t t = 0; t < 8; ++t) { f.r(off, t) = 4 * (7 - t); f.r(v, t) = 100 + t; }
  f.run(st_sh);
  BOOST_CHECK(f.out.accesses[0].space == Space::Shared);
  uint32_t x;
  std::memcpy(&x, f.cta->shared().data() + 28, 4);
  BOOST_CHECK_EQUAL(x, 100u);
  f.run(cvta_sh);
  BOOST_CHECK_EQUAL(f.r(g, 2), func::kSharedWindow + 20);
  f.run(ld_gen);
  for (uint32_t t = 0; t < 8; ++t) BOOST_CHECK_EQUAL(f.r(w, t), 100 + t);
  BOOST_CHECK(f.out.accesses[3].space == Space::Shared);
  BOOST_CHECK_EQUAL(f.out.accesses[3].addr, 16u);
  // Local memory is per thread: same offset, different values.
  f.run(st_loc);
  f.run(cvta_loc);
  BOOST_CHECK_EQUAL(f.r(g, 0), func::kLocalWindow + 8);
  f.run(ld_gen);
  for (uint32_t t = 0; t < 8; ++t) BOOST_CHECK_EQUAL(f.r(w, t), 100 + t);
  BOOST_CHECK(f.out.accesses[0].space == Space::Local);
  // Generic store into local, then read back through ld.local.
  f.run(st_gen, lanes({5}));
  uint32_t y;
  std::memcpy(&y, f.cta->local(5) + 8, 4);
  BOOST_CHECK_EQUAL(y, 8u);
  f.run(ld_par);
  BOOST_CHECK_EQUAL(f.r(pv, 6), pval);
  BOOST_CHECK(f.out.accesses[0].space == Space::Param);
  f.run(st_par);
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 0u);
  const uint64_t cbase = f.alloc(4);
  f.mem.store<uint32_t>(cbase, 77);
  f.set_all(ca, cbase);
  f.run(ld_c);
  BOOST_CHECK(f.out.control == Control::Next);
  BOOST_CHECK_EQUAL(f.r(cv, 4), 77u);
}

BOOST_AUTO_TEST_CASE(faults_report_thread_and_address_and_commit_nothing) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::U64), v = f.reg(Type::U32), d = f.reg(Type::U64), off = f.reg(Type::U32);
  const uint32_t ld = f.add(make(Op::Ld, Type::U32, {R(v), Addr(a)}, Space::Global));
  const uint32_t st = f.add(make(Op::St, Type::U32, {Addr(a), R(v)}, Space::Global));
  const uint32_t ld64 = f.add(make(Op::Ld, Type::U64, {R(d), Addr(a)}, Space::Global));
  const uint32_t ldsh = f.add(make(Op::Ld, Type::U32, {R(v), Addr(off)}, Space::Shared));
  const uint32_t ldloc = f.add(make(Op::Ld, Type::U32, {R(v), Addr(off)}, Space::Local));
  f.build(8, 32, 8);
  const uint64_t base = f.alloc(8 * 4);
  for (uint32_t t = 0; t < 8; ++t) { f.r(a, t) = base + 4 * t; f.r(v, t) = 5; }
  // Thread 6 points past every allocation.
  const uint64_t bad = base + (uint64_t{1} << 30);
  f.r(a, 6) = bad;
  f.run(st);
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 6u);
  BOOST_CHECK(f.out.fault.has_addr);
  BOOST_CHECK_EQUAL(f.out.fault.addr, bad);
  BOOST_CHECK_EQUAL(f.out.fault.message, "store to unmapped global address");
  BOOST_CHECK_EQUAL(f.mem.load<uint32_t>(base), 0u);  // thread 0 did not commit either
  f.run(ld);
  BOOST_CHECK_EQUAL(f.out.fault.message, "load from unmapped global address");
  // Partially mapped: an 8-byte load at the last 4 bytes of the allocation... aligned to 8.
  const uint64_t small = f.mem.allocate(4);
  f.set_all(a, small);
  f.run(ld64, lanes({2}));
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 2u);
  BOOST_CHECK_EQUAL(f.out.fault.message, "load from unmapped global address");
  // Misaligned.
  f.set_all(a, base + 2);
  f.run(ld, lanes({4, 5}));
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 4u);
  BOOST_CHECK_EQUAL(f.out.fault.addr, base + 2);
  BOOST_CHECK(f.out.fault.message.find("misaligned") == 0);
  // Shared out of range (32 bytes): offset 32 faults, 28 is fine.
  f.set_all(off, 28);
  f.r(off, 3) = 32;
  f.run(ldsh);
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 3u);
  BOOST_CHECK_EQUAL(f.out.fault.addr, 32u);
  f.run(ldsh, lanes({0, 1}));
  BOOST_CHECK(f.out.control == Control::Next);
  // Local out of range (8 bytes per thread).
  f.set_all(off, 8);
  f.run(ldloc, lanes({7}));
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 7u);
}

namespace {
// One atomic instruction on a single contended global word.
struct AtomCase {
  ExecFixture f;
  uint32_t a, b, c, d, pc;
  uint64_t base;
  AtomCase(ptx::AtomOp op, Type ty, uint32_t threads, bool red = false, Space sp = Space::Global) {
    const Type rt = ptx::type_bytes(ty) == 8 ? Type::B64 : Type::B32;
    a = f.reg(Type::U64);
    b = f.reg(rt);
    c = f.reg(rt);
    d = f.reg(rt);
    Instr in = red ? make(Op::Red, ty, {Addr(a), R(b)}, sp)
                   : op == ptx::AtomOp::Cas ? make(Op::Atom, ty, {R(d), Addr(a), R(b), R(c)}, sp)
                                            : make(Op::Atom, ty, {R(d), Addr(a), R(b)}, sp);
    in.mode = static_cast<uint8_t>(op);
    pc = f.add(in);
    f.build(threads, 64);
    base = f.alloc(64);
    f.set_all(a, base);
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(atom_add_contended_is_sequential_in_thread_order) {
  AtomCase k(ptx::AtomOp::Add, Type::U32, 64);
  for (uint32_t t = 0; t < 64; ++t) k.f.r(k.b, t) = t + 1;
  k.f.mem.store<uint32_t>(k.base, 10);
  k.f.run(k.pc);
  BOOST_CHECK(k.f.out.is_atomic);
  BOOST_CHECK_EQUAL(k.f.out.accesses.size(), 64u);
  BOOST_CHECK_EQUAL(k.f.mem.load<uint32_t>(k.base), 10u + 64 * 65 / 2);
  for (uint32_t t = 0; t < 64; ++t) BOOST_CHECK_EQUAL(k.f.r(k.d, t), 10u + t * (t + 1) / 2);
}

BOOST_AUTO_TEST_CASE(atom_commutative_results_independent_of_thread_subset_order) {
  // and/or/xor/min/max over a subset give the same final value whichever threads.
  for (auto op : {ptx::AtomOp::And, ptx::AtomOp::Or, ptx::AtomOp::Xor, ptx::AtomOp::Min, ptx::AtomOp::Max}) {
    AtomCase k(op, op == ptx::AtomOp::Min || op == ptx::AtomOp::Max ? Type::S32 : Type::B32, 16);
    uint32_t expect = op == ptx::AtomOp::And ? 0xffffffffu : op == ptx::AtomOp::Min ? 0x7fffffffu
                      : op == ptx::AtomOp::Max ? 0x80000000u : 0u;
    k.f.mem.store<uint32_t>(k.base, expect);
    for (uint32_t t = 0; t < 16; ++t) {
      const uint32_t val = (t * 0x9e3779b9u) ^ (t << 3);
      k.f.r(k.b, t) = val;
      const int32_t sv = static_cast<int32_t>(val), se = static_cast<int32_t>(expect);
      switch (op) {
        case ptx::AtomOp::And: expect &= val; break;
        case ptx::AtomOp::Or: expect |= val; break;
        case ptx::AtomOp::Xor: expect ^= val; break;
        case ptx::AtomOp::Min: expect = static_cast<uint32_t>(sv < se ? sv : se); break;
        default: expect = static_cast<uint32_t>(sv > se ? sv : se); break;
      }
    }
    k.f.run(k.pc);
    BOOST_CHECK_EQUAL(k.f.mem.load<uint32_t>(k.base), expect);
  }
}

BOOST_AUTO_TEST_CASE(atom_min_max_signed_vs_unsigned) {
  AtomCase s(ptx::AtomOp::Min, Type::S32, 2);
  s.f.r(s.b, 0) = static_cast<uint32_t>(-5);
  s.f.r(s.b, 1) = 3;
  s.f.run(s.pc);
  BOOST_CHECK_EQUAL(s.f.mem.load<int32_t>(s.base), -5);
  AtomCase u(ptx::AtomOp::Max, Type::U32, 2);
  u.f.r(u.b, 0) = static_cast<uint32_t>(-5);
  u.f.r(u.b, 1) = 3;
  u.f.run(u.pc);
  BOOST_CHECK_EQUAL(u.f.mem.load<uint32_t>(u.base), 0xfffffffbu);
  AtomCase w(ptx::AtomOp::Min, Type::S64, 1);
  w.f.mem.store<int64_t>(w.base, 7);
  w.f.r(w.b, 0) = static_cast<uint64_t>(-(int64_t{1} << 40));
  w.f.run(w.pc);
  BOOST_CHECK_EQUAL(w.f.mem.load<int64_t>(w.base), -(int64_t{1} << 40));
  BOOST_CHECK_EQUAL(w.f.r(w.d, 0), 7u);
}

BOOST_AUTO_TEST_CASE(atom_inc_dec_wrap) {
  AtomCase k(ptx::AtomOp::Inc, Type::U32, 5);
  k.f.set_all(k.b, 2);  // counts 0,1,2,0,1
  k.f.run(k.pc);
  BOOST_CHECK_EQUAL(k.f.mem.load<uint32_t>(k.base), 2u);
  BOOST_CHECK_EQUAL(k.f.r(k.d, 3), 0u);
  BOOST_CHECK_EQUAL(k.f.r(k.d, 2), 2u);
  AtomCase d(ptx::AtomOp::Dec, Type::U32, 3);
  d.f.mem.store<uint32_t>(d.base, 1);
  d.f.set_all(d.b, 5);  // 1 -> 0 -> 5 (wraps to b) -> 4
  d.f.run(d.pc);
  BOOST_CHECK_EQUAL(d.f.mem.load<uint32_t>(d.base), 4u);
  BOOST_CHECK_EQUAL(d.f.r(d.d, 2), 5u);
}

BOOST_AUTO_TEST_CASE(atom_cas_exch_and_64_bit_add) {
  // CAS: only the first thread expecting the current value wins.
  AtomCase k(ptx::AtomOp::Cas, Type::B32, 4);
  k.f.set_all(k.b, 0);
  for (uint32_t t = 0; t < 4; ++t) k.f.r(k.c, t) = 100 + t;
  k.f.run(k.pc);
  BOOST_CHECK_EQUAL(k.f.mem.load<uint32_t>(k.base), 100u);
  BOOST_CHECK_EQUAL(k.f.r(k.d, 0), 0u);
  BOOST_CHECK_EQUAL(k.f.r(k.d, 3), 100u);
  AtomCase x(ptx::AtomOp::Exch, Type::B64, 3);
  for (uint32_t t = 0; t < 3; ++t) x.f.r(x.b, t) = (uint64_t{1} << 40) + t;
  x.f.run(x.pc);
  BOOST_CHECK_EQUAL(x.f.mem.load<uint64_t>(x.base), (uint64_t{1} << 40) + 2);
  BOOST_CHECK_EQUAL(x.f.r(x.d, 2), (uint64_t{1} << 40) + 1);
  AtomCase a(ptx::AtomOp::Add, Type::U64, 3);
  a.f.mem.store<uint64_t>(a.base, 0xffffffffull);
  a.f.set_all(a.b, 1);
  a.f.run(a.pc);
  BOOST_CHECK_EQUAL(a.f.mem.load<uint64_t>(a.base), 0x100000002ull);
}

BOOST_AUTO_TEST_CASE(atom_float_add) {
  AtomCase k(ptx::AtomOp::Add, Type::F32, 32);
  k.f.mem.store<uint32_t>(k.base, f2u(0.5f));
  k.f.set_all(k.b, f2u(0.25f));
  k.f.run(k.pc);
  BOOST_CHECK_EQUAL(u2f(k.f.mem.load<uint32_t>(k.base)), 8.5f);
  BOOST_CHECK_EQUAL(u2f(k.f.r(k.d, 2)), 1.0f);
  AtomCase d(ptx::AtomOp::Add, Type::F64, 4);
  d.f.set_all(d.b, d2u(1.5));
  d.f.run(d.pc);
  BOOST_CHECK_EQUAL(u2d(d.f.mem.load<uint64_t>(d.base)), 6.0);
  BOOST_CHECK_EQUAL(u2d(d.f.r(d.d, 3)), 4.5);
}

BOOST_AUTO_TEST_CASE(red_on_shared_and_generic_atom) {
  AtomCase k(ptx::AtomOp::Add, Type::U32, 8, /*red=*/true, Space::Shared);
  k.f.set_all(k.a, 12);
  k.f.set_all(k.b, 3);
  k.f.run(k.pc);
  uint32_t v;
  std::memcpy(&v, k.f.cta->shared().data() + 12, 4);
  BOOST_CHECK_EQUAL(v, 24u);
  BOOST_CHECK(k.f.out.accesses[0].space == Space::Shared);
  AtomCase g(ptx::AtomOp::Add, Type::U32, 4, false, Space::None);
  g.f.set_all(g.a, func::kSharedWindow + 4);
  g.f.set_all(g.b, 1);
  g.f.run(g.pc);
  std::memcpy(&v, g.f.cta->shared().data() + 4, 4);
  BOOST_CHECK_EQUAL(v, 4u);
  BOOST_CHECK_EQUAL(g.f.r(g.d, 3), 3u);
  g.f.set_all(g.a, g.base + 2);  // misaligned global
  g.f.run(g.pc);
  BOOST_CHECK(g.f.out.control == Control::Fault);
}

BOOST_AUTO_TEST_CASE(cvta_round_trips_and_isspacep) {
  ExecFixture f;
  const uint32_t o = f.reg(Type::U64), g = f.reg(Type::U64), back = f.reg(Type::U64), p = f.reg(Type::Pred);
  std::vector<uint32_t> pcs;
  for (Space s : {Space::Shared, Space::Local, Space::Global, Space::Param, Space::Const}) {
    Instr to_gen = make(Op::Cvta, Type::U64, {R(g), R(o)}, s);
    Instr to_sp = make(Op::Cvta, Type::U64, {R(back), R(g)}, s);
    to_sp.flags |= ptx::kToSpace;
    Instr is = make(Op::Isspacep, Type::None, {R(p), R(g)}, s);
    pcs.push_back(f.add(to_gen));
    pcs.push_back(f.add(to_sp));
    pcs.push_back(f.add(is));
  }
  Instr is_sh = make(Op::Isspacep, Type::None, {R(p), R(g)}, Space::Shared);
  const uint32_t check_shared = f.add(is_sh);
  f.build(1);
  f.set_all(o, 0x1234);
  for (size_t i = 0; i < pcs.size(); i += 3) {
    f.run(pcs[i]);
    f.run(pcs[i + 1]);
    BOOST_CHECK_EQUAL(f.r(back, 0), 0x1234u);
    f.run(pcs[i + 2]);
    BOOST_CHECK_EQUAL(f.r(p, 0), 1u);
    f.run(check_shared);
    BOOST_CHECK_EQUAL(f.r(p, 0), i == 0 ? 1u : 0u);
  }
}

BOOST_AUTO_TEST_CASE(unsupported_memory_forms_rejected_at_construction) {
  ExecFixture f;
  const uint32_t d = f.reg(Type::U32), a = f.reg(Type::U64);
  f.add(make(Op::Ld, Type::U32, {R(d), Addr(a)}, Space::Global));
  Instr bad = make(Op::Atom, Type::F32, {R(d), Addr(a), R(d)}, Space::Global);
  bad.mode = static_cast<uint8_t>(ptx::AtomOp::Max);
  f.add(bad, "atom.global.max.f32 %r0, [%r1], %r0;");
  try {
    f.build(1);
    BOOST_FAIL("expected BadInput");
  } catch (const Error& e) {
    BOOST_CHECK(e.code() == ExitCode::BadInput);
    BOOST_CHECK(std::string(e.what()).find("test.ptx:2: unsupported instruction 'atom.global.max.f32") == 0);
  }
}

// Shared, local and param addresses wrap modulo 2^32 (Rodinia nw: base = buf - 68
// in a 32-bit register, then ld.shared [base+72]); global addresses do not.
BOOST_AUTO_TEST_CASE(window_addresses_wrap_modulo_2_pow_32) {
  ExecFixture f;
  f.params.resize(16);
  const uint32_t pval = 0xabcd1234u;
  std::memcpy(f.params.data() + 4, &pval, 4);
  const uint32_t base = f.reg(Type::U32), base64 = f.reg(Type::U64), v = f.reg(Type::U32);
  const uint32_t g = f.reg(Type::U64), back = f.reg(Type::U32);
  const uint32_t ld_sh = f.add(make(Op::Ld, Type::U32, {R(v), Addr(base, 72)}, Space::Shared));
  const uint32_t ld_sh64 = f.add(make(Op::Ld, Type::U32, {R(v), Addr(base64, 72)}, Space::Shared));
  const uint32_t st_loc = f.add(make(Op::St, Type::U32, {Addr(base, 72), R(back)}, Space::Local));
  const uint32_t ld_loc = f.add(make(Op::Ld, Type::U32, {R(v), Addr(ptx::kNoReg, 4)}, Space::Local));
  const uint32_t ld_par = f.add(make(Op::Ld, Type::U32, {R(v), Addr(base, 72)}, Space::Param));
  const uint32_t ld_far = f.add(make(Op::Ld, Type::U32, {R(v), Addr(base, 200)}, Space::Shared));
  const uint32_t cvta = f.add(make(Op::Cvta, Type::U64, {R(g), R(base64)}, Space::Shared));
  const uint32_t ld_gen = f.add(make(Op::Ld, Type::U32, {R(v), Addr(g, 72)}, Space::Generic));
  Instr to_sh = make(Op::Cvta, Type::U64, {R(base64), R(g)}, Space::Shared);
  to_sh.flags |= ptx::kToSpace;
  const uint32_t cvta_to = f.add(to_sh);
  const uint32_t ld_glob = f.add(make(Op::Ld, Type::U32, {R(v), Addr(base64, 72)}, Space::Global));
  f.build(2, 64, 16);
  const uint32_t w = 0x5eed0004u;
  std::memcpy(f.cta->shared().data() + 4, &w, 4);
  f.set_all(base, 0xFFFFFFBCull);    // 4 - 72 modulo 2^32
  f.set_all(base64, 0xFFFFFFBCull);  // the same offset zero-extended into a 64-bit register
  f.run(ld_sh);
  BOOST_REQUIRE(f.out.control == Control::Next);
  BOOST_CHECK_EQUAL(f.r(v, 1), w);
  BOOST_CHECK_EQUAL(f.out.accesses[1].addr, 4u);
  f.run(ld_sh64);
  BOOST_REQUIRE(f.out.control == Control::Next);
  BOOST_CHECK_EQUAL(f.r(v, 0), w);
  f.set_all(back, 99);
  f.run(st_loc);
  BOOST_REQUIRE(f.out.control == Control::Next);
  f.run(ld_loc);
  BOOST_CHECK_EQUAL(f.r(v, 1), 99u);
  f.run(ld_par);
  BOOST_REQUIRE(f.out.control == Control::Next);
  BOOST_CHECK_EQUAL(f.r(v, 0), pval);
  // Wrapping does not hide a real overrun: 4 - 72 + 200 = 132 is past 64 bytes.
  f.run(ld_far);
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.addr, 132u);
  // cvta keeps the window's offset 32-bit: generic + 72 reaches offset 4 as well.
  f.run(cvta);
  BOOST_CHECK_EQUAL(f.r(g, 0), func::kSharedWindow + 0xFFFFFFBCull);
  f.set_all(base64, 0x1'FFFF'FFBCull);  // a 64-bit offset above 2^32 wraps too
  f.run(cvta);
  BOOST_CHECK_EQUAL(f.r(g, 0), func::kSharedWindow + 0xFFFFFFBCull);
  // A generic pointer just below the window plus an offset lands inside it (64-bit arithmetic).
  f.set_all(g, func::kSharedWindow - 68);
  f.run(ld_gen);
  BOOST_REQUIRE(f.out.control == Control::Next);
  BOOST_CHECK_EQUAL(f.r(v, 1), w);
  f.run(cvta_to);
  BOOST_CHECK_EQUAL(f.r(base64, 0), 0xFFFFFFBCull);
  // Global addresses are 64-bit: no wrap, so this is unmapped.
  f.run(ld_glob);
  BOOST_CHECK(f.out.control == Control::Fault);
}
