#define BOOST_TEST_MODULE exec_control
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "exec_fixture.h"
#include "func/device_heap.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;
using func::Control;

namespace {
uint32_t local_u32(ExecFixture& f, uint32_t t, uint32_t off) {
  uint32_t v;
  std::memcpy(&v, f.cta->local(t) + off, 4);
  return v;
}
void set_local_u32(ExecFixture& f, uint32_t t, uint32_t off, uint32_t v) { std::memcpy(f.cta->local(t) + off, &v, 4); }
void set_local_u64(ExecFixture& f, uint32_t t, uint32_t off, uint64_t v) { std::memcpy(f.cta->local(t) + off, &v, 8); }

// Expects the Executor constructor to refuse the program, naming `where`.
void expect_refused(ExecFixture& f, const std::string& where, const std::string& why) {
  try {
    f.build(1, 0, 64);
    BOOST_FAIL("expected BadInput for " + where);
  } catch (const Error& e) {
    const std::string msg = e.what();
    BOOST_CHECK(e.code() == ExitCode::BadInput);
    BOOST_CHECK_MESSAGE(msg.find(where) == 0, msg);
    BOOST_CHECK_MESSAGE(msg.find(why) != std::string::npos, msg);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(bra_taken_mask_follows_guard) {
  ExecFixture f;
  const uint32_t p = f.reg(Type::Pred);
  const uint32_t br = f.add_guarded(make(Op::Bra, Type::None, {Label(7)}), p);
  const uint32_t nbr = f.add_guarded(make(Op::Bra, Type::None, {Label(9)}), p, /*neg=*/true);
  f.build(40);
  for (uint32_t t = 0; t < 40; ++t) f.r(p, t) = (t % 3 == 0);
  auto& o = f.run(br, ThreadMask::range(0, 20));
  BOOST_CHECK(o.control == Control::Branch);
  BOOST_CHECK_EQUAL(o.target, 7u);
  BOOST_CHECK(o.taken == lanes({0, 3, 6, 9, 12, 15, 18}));
  f.run(nbr, lanes({0, 1, 33, 34}));
  BOOST_CHECK(f.out.taken == lanes({1, 34}));
  BOOST_CHECK_EQUAL(f.out.target, 9u);
}

BOOST_AUTO_TEST_CASE(exit_marks_guarded_threads) {
  ExecFixture f;
  const uint32_t p = f.reg(Type::Pred);
  const uint32_t ex = f.add_guarded(make(Op::Exit, Type::None, {}), p);
  f.build(8);
  f.r(p, 2) = 1;
  f.r(p, 5) = 1;
  f.run(ex);
  BOOST_CHECK(f.out.control == Control::Exit);
  BOOST_CHECK(f.out.taken == lanes({2, 5}));
  BOOST_CHECK(f.cta->exited() == lanes({2, 5}));
}

namespace {
// PC 0: call f; PC 1: ret (entry: behaves as exit); PC 2: f's ret.
struct CallProgram {
  ExecFixture f;
  uint32_t ra;
  CallProgram() {
    ra = f.reg(Type::U32);
    Instr call = make(Op::Call, Type::None, {});
    call.call_info = 0;
    f.add(call, "call f;");
    f.add(make(Op::Ret, Type::None, {}));
    f.add(make(Op::Ret, Type::None, {}));
    f.prog.funcs[0].end = 2;
    ptx::FuncRange fr;
    fr.name = "f";
    fr.begin = 2;
    fr.end = 3;
    fr.retaddr_reg = ra;
    fr.local_base = 16;
    f.prog.funcs.push_back(fr);
    ptx::CallInfo ci;
    ci.callee_pc = 2;
    ci.callee_func = 1;
    ci.args = {{0, 16, 4}, {4, 20, 4}};
    ci.rets = {{24, 8, 4}};
    f.prog.calls.push_back(ci);
    f.build(4, 0, 32);
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(call_copies_arguments_and_ret_copies_results) {
  CallProgram c;
  auto& f = c.f;
  for (uint32_t t = 0; t < 4; ++t) {
    set_local_u32(f, t, 0, 10 + t);
    set_local_u32(f, t, 4, 20 + t);
  }
  f.run(0);
  BOOST_CHECK(f.out.control == Control::Call);
  BOOST_CHECK_EQUAL(f.out.target, 2u);
  for (uint32_t t = 0; t < 4; ++t) {
    BOOST_CHECK_EQUAL(local_u32(f, t, 16), 10 + t);
    BOOST_CHECK_EQUAL(local_u32(f, t, 20), 20 + t);
    BOOST_CHECK_EQUAL(f.r(c.ra, t), 1u);
  }
  for (uint32_t t = 0; t < 4; ++t) set_local_u32(f, t, 24, 300 + t);
  f.run(2);
  BOOST_CHECK(f.out.control == Control::Ret);
  BOOST_CHECK_EQUAL(f.out.target, 1u | ptx::kReturnTag);
  for (uint32_t t = 0; t < 4; ++t) BOOST_CHECK_EQUAL(local_u32(f, t, 8), 300 + t);
  // ret in the entry ends the threads.
  f.run(1, lanes({1, 2}));
  BOOST_CHECK(f.out.control == Control::Exit);
  BOOST_CHECK(f.cta->exited() == lanes({1, 2}));
}

BOOST_AUTO_TEST_CASE(divergent_return_address_faults) {
  CallProgram c;
  auto& f = c.f;
  f.run(0);
  f.r(c.ra, 2) = 0;
  f.run(2);
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 2u);
  // A consistent but bogus return address (not after a call) faults too.
  f.set_all(c.ra, 2);
  f.run(2, lanes({0}));
  BOOST_CHECK(f.out.control == Control::Fault);
}

BOOST_AUTO_TEST_CASE(partially_guarded_call_names_its_callers) {
  ExecFixture f;
  const uint32_t ra = f.reg(Type::U32), p = f.reg(Type::Pred);
  Instr call = make(Op::Call, Type::None, {});
  call.call_info = 0;
  call.guard = R(p);
  f.add(call);
  f.add(make(Op::Exit, Type::None, {}));
  f.add(make(Op::Ret, Type::None, {}));
  f.prog.funcs[0].end = 2;
  ptx::FuncRange g;
  g.name = "g";
  g.begin = 2;
  g.end = 3;
  g.retaddr_reg = ra;
  f.prog.funcs.push_back(g);
  ptx::CallInfo ci;
  ci.callee_pc = 2;
  ci.callee_func = 1;
  f.prog.calls.push_back(ci);
  f.build(4);
  f.r(p, 1) = 1;
  f.run(0);
  BOOST_CHECK(f.out.control == Control::Call);  // the others wait at pc + 1
  BOOST_CHECK(f.out.taken == lanes({1}));
  BOOST_CHECK(!f.out.stay);
  BOOST_CHECK_EQUAL(f.out.target, 2u);
  BOOST_CHECK_EQUAL(f.r(ra, 1), 1u);
  BOOST_CHECK_EQUAL(f.r(ra, 0), 0u);
  // A partly guarded ret names its returning threads.
  Instr ret = make(Op::Ret, Type::None, {});
  ret.guard = R(p);
  f.prog.code[2] = ret;
  f.build(4);
  f.r(p, 2) = 1;
  f.r(ra, 2) = 1;
  f.run(2);
  BOOST_CHECK(f.out.control == Control::Ret);
  BOOST_CHECK(f.out.taken == lanes({2}));
  BOOST_CHECK_EQUAL(f.out.target, 1u | ptx::kReturnTag);
}

BOOST_AUTO_TEST_CASE(barriers_report_id_count_and_arrive) {
  ExecFixture f;
  const uint32_t id = f.reg(Type::U32);
  const uint32_t b1 = f.add(make(Op::Bar, Type::None, {Imm(1), Imm(64)}));
  Instr arr = make(Op::Bar, Type::None, {R(id), Imm(32)});
  arr.flags |= ptx::kArrive;
  const uint32_t b2 = f.add(arr);
  const uint32_t b3 = f.add(make(Op::Barrier, Type::None, {Imm(0)}));
  const uint32_t ws = f.add(make(Op::BarWarp, Type::None, {Imm(-1)}));
  const uint32_t ns = f.add(make(Op::Nanosleep, Type::U32, {Imm(100)}));
  f.build(64);
  f.set_all(id, 3);
  f.run(b1);
  BOOST_CHECK(f.out.control == Control::Barrier);
  BOOST_CHECK_EQUAL(f.out.bar_id, 1u);
  BOOST_CHECK_EQUAL(f.out.bar_count, 64u);
  BOOST_CHECK(!f.out.bar_arrive);
  f.run(b2, ThreadMask::range(32, 32));
  BOOST_CHECK_EQUAL(f.out.bar_id, 3u);
  BOOST_CHECK_EQUAL(f.out.bar_count, 32u);
  BOOST_CHECK(f.out.bar_arrive);
  f.run(b3);
  BOOST_CHECK(f.out.control == Control::Barrier);
  BOOST_CHECK_EQUAL(f.out.bar_id, 0u);
  BOOST_CHECK_EQUAL(f.out.bar_count, 0u);
  f.run(ws);
  BOOST_CHECK(f.out.control == Control::Next);
  f.run(ns);
  BOOST_CHECK(f.out.control == Control::Next);
}

BOOST_AUTO_TEST_CASE(trap_faults_first_thread) {
  ExecFixture f;
  const uint32_t tr = f.add(make(Op::Trap, Type::None, {}));
  f.build(8);
  f.run(tr, lanes({5, 6}));
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 5u);
  BOOST_CHECK_EQUAL(f.out.fault.message, "trap");
}

BOOST_AUTO_TEST_CASE(assertfail_reads_its_strings) {
  ExecFixture f;
  Instr call = make(Op::Call, Type::None, {});
  call.call_info = 0;
  f.add(call);
  ptx::CallInfo ci;
  ci.builtin = ptx::Builtin::AssertFail;
  ci.args = {{0, 0, 8}, {8, 0, 8}, {16, 0, 4}, {24, 0, 8}, {32, 0, 8}};
  f.prog.calls.push_back(ci);
  f.build(2, 0, 40);
  const char text[] = "x > 0\0kern.cu\0void k(int)";
  const uint64_t s = f.alloc(sizeof text);
  f.mem.write(s, text, sizeof text);
  set_local_u64(f, 1, 0, s);
  set_local_u64(f, 1, 8, s + 6);
  set_local_u32(f, 1, 16, 42);
  set_local_u64(f, 1, 24, s + 14);
  f.run(0, lanes({1}));
  BOOST_CHECK(f.out.control == Control::Fault);
  BOOST_CHECK_EQUAL(f.out.fault.tid, 1u);
  BOOST_CHECK_EQUAL(f.out.fault.message, "assertion failed: x > 0 (kern.cu:42 in void k(int))");
}

BOOST_AUTO_TEST_CASE(unsupported_control_refused_with_line) {
  {
    ExecFixture f;
    f.add(make(Op::Exit, Type::None, {}));
    f.add(make(Op::Brx, Type::None, {}), "brx.idx %r1, $tbl;");
    expect_refused(f, "test.ptx:2: unsupported instruction 'brx.idx %r1, $tbl;'", "indirect branch");
  }
  {
    ExecFixture f;
    f.add(make(Op::Tex, Type::F32, {}), "tex.2d.v4.f32.f32 ...;");
    expect_refused(f, "test.ptx:1: unsupported instruction 'tex", "texture");
  }
  {
    ExecFixture f;
    Instr b = make(Op::Bar, Type::None, {Imm(0)});
    b.flags |= ptx::kRedBar;
    f.add(b, "bar.red.popc.u32 %r1, 0, %p1;");
    expect_refused(f, "test.ptx:1:", "bar.red");
  }
  {
    ExecFixture f;
    Instr call = make(Op::Call, Type::None, {});
    call.call_info = 0;
    f.add(call, "call.uni (retval0), malloc, (param0);");
    ptx::CallInfo ci;
    ci.builtin = ptx::Builtin::Malloc;  // without its argument and return value
    f.prog.calls.push_back(ci);
    expect_refused(f, "test.ptx:1: unsupported instruction 'call.uni (retval0), malloc",
                   "malloc takes one argument and returns one value");
  }
  {
    ExecFixture f;
    Instr call = make(Op::Call, Type::None, {});
    f.add(call, "call %rd4, (param0), prototype_1;");  // call_info kNoPc: not linked
    expect_refused(f, "test.ptx:1:", "call without linked call information");
  }
  {
    ExecFixture f;
    const uint32_t r = f.reg(Type::U32);
    f.add(make(Op::Ld, Type::U32, {R(r), Addr(ptx::kNoReg)}, Space::Global));
    f.add(make(Op::Ld, Type::U32, {R(r + 5), Addr(ptx::kNoReg)}, Space::Global), "ld.global.u32 %bad, [0];");
    expect_refused(f, "test.ptx:2:", "register index out of range");
  }
}

namespace {
// PC 0: p = malloc(size) (size in local slot 0, p to slot 8); PC 1: free(slot 8).
struct HeapProgram {
  ExecFixture f;
  func::DeviceHeap heap;
  HeapProgram() {
    Instr call = make(Op::Call, Type::None, {});
    call.call_info = 0;
    f.add(call, "call.uni (retval0), malloc, (param0);");
    call.call_info = 1;
    f.add(call, "call.uni free, (param0);");
    ptx::CallInfo m, fr;
    m.builtin = ptx::Builtin::Malloc;
    m.args = {{0, 0, 8}};
    m.rets = {{0, 8, 8}};
    fr.builtin = ptx::Builtin::Free;
    fr.args = {{8, 0, 8}};
    f.prog.calls = {m, fr};
    f.build(4, 0, 16);
    heap.set_size(4096);
    heap.reserve(f.mem);
    f.env.heap = &heap;
  }
  uint64_t ptr(uint32_t t) {
    uint64_t v;
    std::memcpy(&v, f.cta->local(t) + 8, 8);
    return v;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(malloc_and_free_use_the_device_heap) {
  HeapProgram h;
  auto& f = h.f;
  const uint64_t sizes[] = {40, 0, 16, 5000};  // the last is more than the heap holds
  for (uint32_t t = 0; t < 4; ++t) set_local_u64(f, t, 0, sizes[t]);
  f.run(0);
  BOOST_TEST_REQUIRE((f.out.control == Control::Next));
  BOOST_TEST(h.ptr(0) == h.heap.base());  // lane order, first fit
  BOOST_TEST(h.ptr(1) == h.heap.base() + 48);
  BOOST_TEST(h.ptr(2) == h.heap.base() + 64);
  BOOST_TEST(h.ptr(3) == 0u);  // exhausted: NULL, as CUDA
  BOOST_TEST(h.heap.blocks_in_use() == 3u);
  // The blocks are ordinary global memory to loads and stores.
  BOOST_TEST(f.mem.mapped(h.ptr(0), 40));
  f.run(1);  // thread 3 frees NULL: nothing happens
  BOOST_TEST((f.out.control == Control::Next));
  BOOST_TEST(h.heap.blocks_in_use() == 0u);
  // Guarded-off threads neither allocate nor free.
  f.run(0, lanes({2}));
  BOOST_TEST(h.ptr(2) == h.heap.base());
  BOOST_TEST(h.heap.blocks_in_use() == 1u);
}

BOOST_AUTO_TEST_CASE(free_of_a_pointer_malloc_did_not_return_faults) {
  HeapProgram h;
  auto& f = h.f;
  for (uint32_t t = 0; t < 4; ++t) set_local_u64(f, t, 0, 32);
  f.run(0);
  const uint64_t inside = h.ptr(2) + 16;
  set_local_u64(f, 2, 8, inside);
  f.run(1);
  BOOST_TEST_REQUIRE((f.out.control == Control::Fault));
  BOOST_TEST(f.out.fault.tid == 2u);
  BOOST_TEST(f.out.fault.has_addr);
  BOOST_TEST(f.out.fault.addr == inside);
  BOOST_TEST(f.out.fault.message.find("not a live block from device-side malloc") != std::string::npos,
             f.out.fault.message);
  // Freed twice: the second free faults too.
  set_local_u64(f, 0, 8, h.heap.base());
  f.run(1, lanes({0}));
  BOOST_TEST((f.out.control == Control::Fault));
  BOOST_TEST(f.out.fault.tid == 0u);
  // Without a heap (an executor driven outside runtime::Device) the call is a fault, not a crash.
  f.env.heap = nullptr;
  f.run(0, lanes({3}));
  BOOST_TEST((f.out.control == Control::Fault));
  BOOST_TEST(f.out.fault.tid == 3u);
  BOOST_TEST(f.out.fault.message.find("device heap") != std::string::npos, f.out.fault.message);
}

// A recursive function with no parameters, return values or locals has an
// empty frame, and a program of only such functions an empty local area
// (CtaState::local() is then null): the call still saves and restores the
// callee's registers. (Copying the empty frame from the null area was
// undefined behaviour the sanitizer build reports.)
BOOST_AUTO_TEST_CASE(recursive_call_with_an_empty_frame_saves_the_registers) {
  ExecFixture f;
  const uint32_t x = f.reg(Type::U32), ra = f.reg(Type::U32);
  Instr call = make(Op::Call, Type::None, {});
  call.call_info = 0;
  f.add(call, "call.uni f, ();");  // PC 0, in the entry
  call.call_info = 1;
  f.add(call, "call.uni f, ();");  // PC 1, in f: recursive
  f.add(make(Op::Ret, Type::None, {}));  // PC 2
  f.prog.funcs[0].end = 1;
  ptx::FuncRange g;
  g.name = "f";
  g.begin = 1;
  g.end = 3;
  g.retaddr_reg = ra;
  g.reg_begin = x;
  g.reg_end = ra + 1;
  g.scc = 1;
  g.recursive = true;
  f.prog.funcs.push_back(g);
  ptx::CallInfo outer, inner;
  outer.callee_pc = inner.callee_pc = 1;
  outer.callee_func = inner.callee_func = 1;
  outer.caller_func = 0;
  inner.caller_func = 1;
  f.prog.calls = {outer, inner};
  f.build(2, 0, 0);
  BOOST_TEST_REQUIRE(f.cta->local_bytes() == 0u);
  f.run(0);
  BOOST_TEST_REQUIRE((f.out.control == Control::Call));
  BOOST_TEST(f.cta->call_stack(0).empty());  // from outside the component: nothing saved
  f.set_all(x, 7);
  f.run(1);
  BOOST_TEST_REQUIRE((f.out.control == Control::Call));
  BOOST_TEST(f.cta->call_stack(1).size() == 16u);  // x and the return address, no frame bytes
  BOOST_TEST(f.r(ra, 1) == 2u);
  f.set_all(x, 99);  // the inner activation changes x
  f.run(2);
  BOOST_TEST_REQUIRE((f.out.control == Control::Ret));
  for (uint32_t t = 0; t < 2; ++t) {
    BOOST_TEST(f.r(x, t) == 7u);   // the outer activation's x is back
    BOOST_TEST(f.r(ra, t) == 1u);  // and its return address
    BOOST_TEST(f.cta->call_stack(t).empty());
  }
}
