#define BOOST_TEST_MODULE tbc_branch_unit
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/cfg_program_builder.h"
#include "ptx/cfg_real_ptx.h"
#include "sm/simt_stack.h"
#include "stats/stats.h"
#include "tbc/tbc_branch_unit.h"
#include "tbc/thread_compactor.h"
#include "util/error.h"

namespace simt::func {
std::ostream& operator<<(std::ostream& os, const ThreadMask& m) {
  os << '{';
  m.for_each([&](uint32_t t) { os << ' ' << t; });
  return os << " }";
}
}  // namespace simt::func
namespace simt::sm {
std::ostream& operator<<(std::ostream& os, SlotState s) { return os << static_cast<int>(s); }
}  // namespace simt::sm
namespace simt {
std::ostream& operator<<(std::ostream& os, ExitCode c) { return os << static_cast<int>(c); }
}  // namespace simt

using namespace simt;
using func::ThreadMask;
using ptx::Op;
using sm::SlotState;
using tbc::Scope;
using tbc::TbcBranchUnit;
using B = test::CfgProgramBuilder;

namespace {

ThreadMask mask_of(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}

// Whether thread t takes the branch (or exits, for a guarded exit) at pc on
// its visit-th execution of it (0 = first).
using Takes = std::function<bool(uint32_t pc, uint32_t t, uint32_t visit)>;

struct Issue {
  uint32_t slot, pc;
  ThreadMask mask;
};

// Plays the issue stage and the functional executor for one CTA: executes
// the slot's instruction for its live threads (branch outcomes from
// `takes`), reports it to the unit, and runs every compactor request at
// once through ThreadCompactor. Records issues and per-thread paths.
class Harness {
 public:
  Harness(ptx::Program p, uint32_t threads, uint32_t warp_size, Scope scope, bool compact, bool likely,
          Takes takes)
      : prog(std::move(p)),
        cfg(prog),
        unit((threads + warp_size - 1) / warp_size + 2, warp_size, scope, compact, likely),
        takes_(std::move(takes)),
        threads_(threads),
        trace(threads) {
    unit.register_stats(reg, "sm0.branch");
  }

  // The CTA's warps in slots 2.. (slot numbers need not start at 0).
  void start() {
    std::vector<uint32_t> slots;
    for (uint32_t i = 0; i < (threads_ + unit.warp_size() - 1) / unit.warp_size(); ++i) slots.push_back(i + 2);
    unit.start_cta(0, sm::BranchKernel{&prog, &cfg}, ThreadMask::range(0, threads_), slots);
  }

  // Sends every queued request through a compactor; returns the warps.
  void pump() {
    while (const sm::CompactRequest* q = unit.peek_request()) {
      requests.push_back(*q);
      const sm::CompactRequest r = *q;
      unit.pop_request();
      tbc::ThreadCompactor c(r.compact);
      c.start(r.mask, r.threads, r.warp_size);
      tbc::CompactedWarp cw;
      for (uint32_t i = 0; c.next(cw); ++i) {
        sm::GeneratedWarp g;
        g.cta = r.cta;
        g.pc = r.pc;
        g.mask = cw.mask;
        g.index = i;
        g.last = !c.busy();
        unit.warp_generated(g);
      }
    }
  }

  // Executes slot s's next instruction.
  void exec(uint32_t s) {
    const sm::WarpSlot& w = unit.slot(s);
    BOOST_REQUIRE(w.state == SlotState::Running);
    const uint32_t pc = w.pc;
    BOOST_REQUIRE_LT(pc, prog.code.size());
    const ptx::Instr& in = prog.code[pc];
    const ThreadMask live = w.mask.minus(exited);
    issues.push_back({s, pc, live});
    ThreadMask guard_true;
    live.for_each([&](uint32_t t) {
      if (in.guard.kind == ptx::Operand::Kind::None || takes_(pc, t, visits_[{pc, t}])) guard_true.set(t);
      ++visits_[{pc, t}];
      trace[t].push_back(pc);
    });
    func::StepResult r;
    r.reset();
    if (in.op == Op::Bra) {
      r.control = func::Control::Branch;
      r.taken = guard_true;
      r.target = static_cast<uint32_t>(in.ops[0].imm);
    } else if (in.op == Op::Exit || in.op == Op::Ret) {
      r.control = func::Control::Exit;
      r.taken = guard_true;
      exited |= guard_true;
    } else if (in.op == Op::Bar) {
      r.control = func::Control::Barrier;
      r.taken = live;
    }
    unit.executed(s, in, r, exited);
    pump();
  }

  // Round robin over running slots until none runs; false if it hit `limit`.
  bool run(size_t limit = 10000) {
    uint32_t next = 0;
    for (size_t n = 0; n < limit; ++n) {
      bool found = false;
      for (uint32_t k = 0; k < unit.num_slots() && !found; ++k) {
        const uint32_t s = (next + k) % unit.num_slots();
        if (unit.slot(s).state != SlotState::Running) continue;
        exec(s);
        next = s + 1;
        found = true;
      }
      if (!found) return true;
    }
    return false;
  }

  bool all_retired() const {
    for (uint32_t s = 2; s < unit.num_slots(); ++s)
      if (unit.slot(s).state != SlotState::Retired) return false;
    return true;
  }
  // Issues (warp executions) at pc.
  uint32_t issues_at(uint32_t pc) const {
    uint32_t n = 0;
    for (const Issue& i : issues) n += i.pc == pc;
    return n;
  }
  std::vector<Issue> issues_of(uint32_t s) const {
    std::vector<Issue> v;
    for (const Issue& i : issues)
      if (i.slot == s) v.push_back(i);
    return v;
  }
  uint64_t stat(const std::string& n) const { return reg.value("sm0.branch." + n); }

  // Each thread alone: the PCs it must execute, in order.
  std::vector<uint32_t> reference_path(uint32_t t) const {
    std::vector<uint32_t> path;
    std::map<uint32_t, uint32_t> visits;
    uint32_t pc = 0;
    while (pc < prog.code.size() && path.size() < 10000) {
      const ptx::Instr& in = prog.code[pc];
      path.push_back(pc);
      const bool g = in.guard.kind == ptx::Operand::Kind::None || takes_(pc, t, visits[pc]);
      ++visits[pc];
      if (in.op == Op::Bra && g) {
        pc = static_cast<uint32_t>(in.ops[0].imm);
      } else if ((in.op == Op::Exit || in.op == Op::Ret) && g) {
        break;
      } else {
        ++pc;
      }
    }
    return path;
  }
  void check_paths() const {
    for (uint32_t t = 0; t < threads_; ++t) {
      BOOST_TEST_CONTEXT("thread " << t) { BOOST_TEST(trace[t] == reference_path(t), boost::test_tools::per_element()); }
    }
  }

  ptx::Program prog;
  ptx::Cfg cfg;
  TbcBranchUnit unit;
  stats::Registry reg;
  ThreadMask exited;
  std::vector<Issue> issues;
  std::vector<sm::CompactRequest> requests;

 private:
  Takes takes_;
  uint32_t threads_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> visits_;

 public:
  std::vector<std::vector<uint32_t>> trace;
};

// The per-warp PDOM stack (sm/simt_stack.h) driven as sm::PdomBranchUnit
// does: the (pc, live threads) it issues for one static warp.
std::vector<std::pair<uint32_t, ThreadMask>> pdom_reference(const Harness& h, const Takes& takes,
                                                            const ThreadMask& warp, uint32_t* max_depth) {
  std::vector<std::pair<uint32_t, ThreadMask>> out;
  sm::SimtStack st;
  st.reset(0, warp);
  ThreadMask exited;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> visits;
  while (st.settle(exited) && out.size() < 10000) {
    const uint32_t pc = st.top().pc;
    const ptx::Instr& in = h.prog.code[pc];
    const ThreadMask live = st.top().mask.minus(exited);
    out.push_back({pc, live});
    ThreadMask g;
    live.for_each([&](uint32_t t) {
      if (in.guard.kind == ptx::Operand::Kind::None || takes(pc, t, visits[{pc, t}])) g.set(t);
      ++visits[{pc, t}];
    });
    if (in.op == Op::Bra) {
      uint32_t rpc = h.cfg.reconv_pc(pc);
      if (rpc == ptx::kNoPc) rpc = st.top().rpc;
      st.branch(g, static_cast<uint32_t>(in.ops[0].imm), pc + 1, rpc);
    } else {
      if (in.op == Op::Exit || in.op == Op::Ret) exited |= g;
      st.top().pc = pc + 1;
    }
  }
  *max_depth = std::max<uint32_t>(*max_depth, static_cast<uint32_t>(st.max_depth()));
  return out;
}

// ---- programs ---------------------------------------------------------------

// Seed 001 Example 1 / Figure 7: A, then @p bra C; B; bra D; C; D; exit.
enum Ex1 : uint32_t { kA = 0, kBr = 2, kB = 3, kC = 5, kD = 6, kExit = 7 };
ptx::Program example1() {
  B b;
  uint32_t r0 = b.reg("%r0"), r1 = b.reg("%r1"), p = b.reg("%p0", ptx::Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(ptx::Sreg::TidX)});  // 0 A
  b.op(Op::Setp, {B::R(p), B::R(r0), B::I(5)});      // 1
  b.bra("C", p);                                     // 2
  b.op(Op::Mov, {B::R(r1), B::I(1)});                // 3 B
  b.bra("D");                                        // 4
  b.label("C");
  b.op(Op::Mov, {B::R(r1), B::I(2)});                // 5 C
  b.label("D");
  b.op(Op::St, {B::A(r0), B::R(r1)}, "st", ptx::Space::Global);  // 6 D
  b.exit();                                          // 7
  return b.build();
}
// Paper threads 1, 6, 7 (0-based 0, 5, 6) execute C.
bool ex1_takes(uint32_t pc, uint32_t t, uint32_t) { return pc == kBr && (t == 0 || t == 5 || t == 6); }

// Seed 001 Example 2 / Figure 10: A->{B,C}, B->E, C->{D,E}, D->F, E->{A,F}.
enum Ex2 : uint32_t { e2A = 0, e2BrA = 1, e2B = 2, e2C = 4, e2BrC = 5, e2D = 6, e2E = 8, e2BrE = 9, e2F = 10 };
ptx::Program example2() {
  B b;
  uint32_t r = b.reg("%r0"), p0 = b.reg("%p0", ptx::Type::Pred), p1 = b.reg("%p1", ptx::Type::Pred),
           p2 = b.reg("%p2", ptx::Type::Pred);
  b.label("A");
  b.op(Op::Mov, {B::R(r), B::I(0)});  // 0 A
  b.bra("C", p0);                     // 1
  b.op(Op::Mov, {B::R(r), B::I(1)});  // 2 B
  b.bra("E");                         // 3
  b.label("C");
  b.op(Op::Mov, {B::R(r), B::I(2)});  // 4 C
  b.bra("E", p1);                     // 5
  b.op(Op::Mov, {B::R(r), B::I(3)});  // 6 D (break)
  b.bra("F");                         // 7
  b.label("E");
  b.op(Op::Mov, {B::R(r), B::I(4)});  // 8 E
  b.bra("A", p2);                     // 9
  b.label("F");
  b.exit();                           // 10 F
  return b.build();
}
// Paper threads 1..4 are 0..3: 0 goes A->B->E, 1 goes A->C->E, 2 and 3 break
// out through D. `iterations`: how often thread 0 and 1 go round the loop.
Takes ex2_takes(uint32_t iterations = 1) {
  return [iterations](uint32_t pc, uint32_t t, uint32_t visit) {
    if (pc == e2BrA) return t != 0;
    if (pc == e2BrC) return t == 1;
    if (pc == e2BrE) return visit + 1 < iterations;
    return false;
  };
}

// Early return in divergent code: A; @p bra C; B; exit; C; @q exit; C2; exit.
ptx::Program early_return() {
  B b;
  uint32_t r = b.reg("%r0"), p = b.reg("%p0", ptx::Type::Pred), q = b.reg("%p1", ptx::Type::Pred);
  b.op(Op::Mov, {B::R(r), B::I(0)});  // 0
  b.bra("C", p);                      // 1
  b.op(Op::Mov, {B::R(r), B::I(1)});  // 2 B
  b.exit();                           // 3
  b.label("C");
  b.op(Op::Mov, {B::R(r), B::I(2)});  // 4 C
  b.exit();                           // 5 guarded: some leave early
  b.guard_last(q);
  b.op(Op::Mov, {B::R(r), B::I(3)});  // 6
  b.exit();                           // 7
  return b.build();
}

// Nested diamonds in a loop whose trip count differs per thread.
ptx::Program nested_loop() {
  B b;
  uint32_t r = b.reg("%r0"), p0 = b.reg("%p0", ptx::Type::Pred), p1 = b.reg("%p1", ptx::Type::Pred),
           p2 = b.reg("%p2", ptx::Type::Pred);
  b.label("L");
  b.op(Op::Mov, {B::R(r), B::I(0)});  // 0
  b.bra("X", p0);                     // 1
  b.op(Op::Mov, {B::R(r), B::I(1)});  // 2
  b.bra("Y", p1);                     // 3
  b.op(Op::Mov, {B::R(r), B::I(2)});  // 4
  b.label("Y");
  b.op(Op::Mov, {B::R(r), B::I(3)});  // 5
  b.bra("J");                         // 6
  b.label("X");
  b.op(Op::Mov, {B::R(r), B::I(4)});  // 7
  b.label("J");
  b.op(Op::Mov, {B::R(r), B::I(5)});  // 8
  b.bra("L", p2);                     // 9
  b.exit();                           // 10
  return b.build();
}
Takes nested_takes(uint32_t seed) {
  return [seed](uint32_t pc, uint32_t t, uint32_t visit) {
    const uint32_t h = (t * 2654435761u) ^ (visit * 40503u) ^ (pc * 977u) ^ seed;
    if (pc == 1) return (h >> 7) % 3 == 0;
    if (pc == 3) return (h >> 5) % 2 == 0;
    if (pc == 9) return visit < (t + seed) % 4;  // 1..4 trips
    return false;
  };
}

}  // namespace

// ---- TBC: seed 001 Figure 7 / Figure 9 ---------------------------------------

// 8 threads, warps of 4, paper threads 1, 6, 7 on one side. W2 reaches the
// branch first (Figure 9): nothing is compacted until W1 arrives too.
BOOST_AUTO_TEST_CASE(figure7_tbc_step_by_step) {
  Harness h(example1(), 8, 4, Scope::Cta, true, false, ex1_takes);
  BOOST_TEST(std::string(h.unit.name()) == "tbc");
  h.start();
  const ThreadMask w1 = ThreadMask::range(0, 4), w2 = ThreadMask::range(4, 4);
  BOOST_TEST((h.unit.slot(2).state == SlotState::Running && h.unit.slot(2).mask == w1 && h.unit.slot(2).pc == 0u));
  BOOST_TEST((h.unit.slot(3).state == SlotState::Running && h.unit.slot(3).mask == w2));
  BOOST_TEST(h.unit.slot(3).scope == w2);
  BOOST_TEST(h.unit.slot(2).depth == 1u);
  const uint32_t v2 = h.unit.slot(2).version;

  h.exec(3), h.exec(3), h.exec(2), h.exec(2);  // A's first two instructions
  BOOST_TEST(h.unit.slot(2).version == v2);    // sequential advance: no refetch
  h.exec(3);                                   // W2 at the branch: parks, nothing to compact
  BOOST_TEST(h.unit.slot(3).state == SlotState::Waiting);
  BOOST_TEST(h.requests.empty());
  BOOST_TEST(h.unit.cta_stack(0)->depth() == 3u);
  h.exec(2);  // W1 completes the masks: C {0,5,6} compacted into one warp
  BOOST_REQUIRE_EQUAL(h.requests.size(), 1u);
  BOOST_TEST(h.requests[0].pc == uint32_t{kC});
  BOOST_TEST(h.requests[0].mask == mask_of({0, 5, 6}));
  BOOST_TEST(h.requests[0].threads == 8u);
  BOOST_TEST(h.requests[0].warp_size == 4u);
  BOOST_TEST(h.requests[0].compact);
  BOOST_TEST((h.unit.slot(2).state == SlotState::Running && h.unit.slot(2).pc == uint32_t{kC}));
  BOOST_TEST(h.unit.slot(2).mask == mask_of({0, 5, 6}));
  BOOST_TEST(h.unit.slot(2).scope == mask_of({0, 5, 6}));
  BOOST_TEST(h.unit.slot(2).depth == 3u);
  BOOST_TEST(h.unit.slot(3).state == SlotState::Waiting);

  h.exec(2);  // C's warp reaches D: C pops, B {1,2,3,4,7} needs two warps
  BOOST_REQUIRE_EQUAL(h.requests.size(), 2u);
  BOOST_TEST(h.requests[1].pc == uint32_t{kB});
  BOOST_TEST(h.requests[1].mask == mask_of({1, 2, 3, 4, 7}));
  BOOST_TEST(h.unit.slot(2).mask == mask_of({1, 2, 3, 4}));
  BOOST_TEST(h.unit.slot(3).mask == mask_of({7}));
  BOOST_TEST(h.unit.slot(3).pc == uint32_t{kB});

  BOOST_TEST(h.run());
  BOOST_REQUIRE_EQUAL(h.requests.size(), 3u);
  BOOST_TEST(h.requests[2].pc == uint32_t{kD});
  BOOST_TEST(h.requests[2].mask == ThreadMask::range(0, 8));
  BOOST_TEST(h.all_retired());
  BOOST_TEST(h.unit.queued_requests() == 0u);
  h.check_paths();

  // Warps per block as in Figure 7: A 2, C 1 (compacted), B 2, D 2.
  BOOST_TEST(h.issues_at(kA) == 2u);
  BOOST_TEST(h.issues_at(kC) == 1u);
  BOOST_TEST(h.issues_at(kB) == 2u);
  BOOST_TEST(h.issues_at(kD) == 2u);
  BOOST_TEST(h.stat("compaction_events") == 3u);
  BOOST_TEST(h.stat("generated_warps") == 5u);  // C 1 + B 2 + D 2
  BOOST_TEST(h.stat("static_warps") == 6u);     // C would need 2 static warps
  BOOST_TEST(h.stat("sync_waits") == 5u);       // 2 at the branch, 1 + 2 at D
  BOOST_TEST(h.stat("max_stack_depth") == 3u);
  BOOST_TEST(h.stat("stack_pushes") == 2u);
  BOOST_TEST(h.stat("stack_pops") == 2u);
  BOOST_TEST(h.unit.take_max_depth() == 3u);
  BOOST_TEST(h.unit.take_max_depth() == 0u);
}

// The baseline per-warp stack on the same example: C runs in two warps.
BOOST_AUTO_TEST_CASE(figure7_per_warp_stack_runs_C_twice) {
  Harness h(example1(), 8, 4, Scope::Warp, true, false, ex1_takes);
  h.start();
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
  BOOST_TEST(h.issues_at(kA) == 2u);
  BOOST_TEST(h.issues_at(kC) == 2u);
  BOOST_TEST(h.issues_at(kB) == 2u);
  BOOST_TEST(h.issues_at(kD) == 2u);
  BOOST_TEST(h.requests.empty());  // no compactor
  BOOST_TEST(h.stat("sync_waits") == 0u);
}

// Compactor off: C's threads stay in their static warps.
BOOST_AUTO_TEST_CASE(figure7_tbc_static_warps) {
  Harness h(example1(), 8, 4, Scope::Cta, false, false, ex1_takes);
  BOOST_TEST(std::string(h.unit.name()) == "tbc-static");
  h.start();
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
  BOOST_TEST(h.issues_at(kC) == 2u);
  BOOST_TEST(h.requests[0].compact == false);
  BOOST_TEST(h.stat("compaction_events") == 0u);
  BOOST_TEST(h.stat("generated_warps") == h.stat("static_warps"));
}

// ---- likely-convergence points (Example 2 / Figure 10) ----------------------

BOOST_AUTO_TEST_CASE(example2_cfg_facts) {
  ptx::Program p = example2();
  ptx::Cfg cfg(p);
  BOOST_REQUIRE(cfg.branch(e2BrA));
  BOOST_TEST(cfg.branch(e2BrA)->reconv_pc == uint32_t{e2F});
  BOOST_TEST(cfg.branch(e2BrA)->likely_pc == uint32_t{e2E});
  BOOST_TEST(cfg.branch(e2BrC)->reconv_pc == uint32_t{e2F});
  BOOST_TEST(cfg.branch(e2BrC)->likely_pc == uint32_t{e2E});
  BOOST_TEST(cfg.branch(3)->uniform);
}

BOOST_AUTO_TEST_CASE(example2_tbc_with_likely_point_runs_E_once) {
  Harness h(example2(), 4, 4, Scope::Cta, true, true, ex2_takes());
  h.start();
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
  BOOST_TEST(h.issues_at(e2E) == 1u);  // threads 0 and 1 together at E
  BOOST_TEST(h.issues_at(e2F) == 1u);
  BOOST_TEST(h.stat("likely_merges") == 2u);
  BOOST_TEST(h.stat("max_stack_depth") == 5u);  // the paper's Figure 10 keeps C's finished entry: 6
  // Requests: C {1,2,3}, D {2,3}, B {0}, E {0,1}, F {0..3}.
  std::vector<uint32_t> pcs;
  for (const auto& q : h.requests) pcs.push_back(q.pc);
  BOOST_TEST(pcs == (std::vector<uint32_t>{e2C, e2D, e2B, e2E, e2F}), boost::test_tools::per_element());
  BOOST_TEST(h.requests[3].mask == mask_of({0, 1}));
}

BOOST_AUTO_TEST_CASE(example2_tbc_without_likely_point_runs_E_twice) {
  Harness h(example2(), 4, 4, Scope::Cta, true, false, ex2_takes());
  h.start();
  BOOST_TEST(h.run());
  h.check_paths();
  BOOST_TEST(h.issues_at(e2E) == 2u);
  BOOST_TEST(h.stat("likely_merges") == 0u);
}

// PDOM with likely-convergence points: the same merge on a per-warp stack,
// also when the loop goes round several times.
BOOST_AUTO_TEST_CASE(example2_pdom_lcp_reconverges_at_E) {
  for (uint32_t iterations : {1u, 3u}) {
    BOOST_TEST_CONTEXT("iterations " << iterations) {
      Harness h(example2(), 4, 4, Scope::Warp, true, true, ex2_takes(iterations));
      BOOST_TEST(std::string(h.unit.name()) == "pdom-lcp");
      h.start();
      BOOST_TEST(h.run());
      BOOST_TEST(h.all_retired());
      h.check_paths();
      BOOST_TEST(h.issues_at(e2E) == iterations);  // one merged warp per iteration
      Harness plain(example2(), 4, 4, Scope::Warp, true, false, ex2_takes(iterations));
      plain.start();
      BOOST_TEST(plain.run());
      // Without it threads 0 and 1 stay apart until F: each runs E alone every time.
      BOOST_TEST(plain.issues_at(e2E) == 2 * iterations);
    }
  }
}

// ---- Scope::Warp without likely points follows the PDOM stack --------------

BOOST_AUTO_TEST_CASE(per_warp_scope_matches_pdom_issue_for_issue) {
  struct Case {
    const char* name;
    ptx::Program (*prog)();
    Takes takes;
    uint32_t threads, warp;
  };
  std::vector<Case> cases = {
      {"example1", example1, ex1_takes, 8, 4},
      {"example2", example2, ex2_takes(2), 8, 4},
      {"early_return", early_return, [](uint32_t pc, uint32_t t, uint32_t) { return pc == 1 ? t % 3 != 0 : t % 2 == 0; }, 12, 4},
  };
  for (uint32_t seed = 0; seed < 6; ++seed) cases.push_back({"nested_loop", nested_loop, nested_takes(seed), 16, 8});
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      Harness h(c.prog(), c.threads, c.warp, Scope::Warp, true, false, c.takes);
      h.start();
      BOOST_TEST(h.run());
      BOOST_TEST(h.all_retired());
      h.check_paths();
      uint32_t max_depth = 0;
      for (uint32_t w = 0; w * c.warp < c.threads; ++w) {
        const ThreadMask warp = ThreadMask::range(w * c.warp, c.warp);
        std::vector<std::pair<uint32_t, ThreadMask>> got, want = pdom_reference(h, c.takes, warp, &max_depth);
        for (const Issue& i : h.issues_of(w + 2)) got.push_back({i.pc, i.mask});
        BOOST_TEST_CONTEXT("warp " << w) {
          BOOST_REQUIRE_EQUAL(got.size(), want.size());
          for (size_t k = 0; k < got.size(); ++k) {
            BOOST_TEST(got[k].first == want[k].first);
            BOOST_TEST(got[k].second == want[k].second);
          }
        }
      }
      // Pushes only on real divergence, as PDOM: the same deepest stack.
      BOOST_TEST(h.unit.take_max_depth() == max_depth);
      BOOST_TEST(h.stat("max_stack_depth") == max_depth);
    }
  }
}

// TBC on the same programs: every thread still follows its own path.
BOOST_AUTO_TEST_CASE(tbc_keeps_every_thread_on_its_path) {
  for (uint32_t seed = 0; seed < 8; ++seed) {
    for (bool likely : {false, true}) {
      for (bool compact : {false, true}) {
        BOOST_TEST_CONTEXT("seed " << seed << " likely " << likely << " compact " << compact) {
          Harness h(nested_loop(), 24, 8, Scope::Cta, compact, likely, nested_takes(seed));
          h.start();
          BOOST_TEST(h.run());
          BOOST_TEST(h.all_retired());
          h.check_paths();
          // Never more warps than the static warps would take.
          BOOST_TEST(h.stat("generated_warps") <= h.stat("static_warps"));
          for (const auto& q : h.requests) BOOST_TEST(q.compact == compact);
        }
      }
    }
  }
}

// Every kernel of the built-in workloads (nvcc's control flow: loops with
// breaks, early returns, guarded exits) with pseudo-random branch outcomes:
// TBC keeps every thread on its own path and finishes the CTA; the per-warp
// scope without likely points issues exactly what the PDOM stack does.
BOOST_AUTO_TEST_CASE(workload_kernels_with_random_outcomes) {
  uint32_t kernels = 0, warp_sync_faults = 0;
  for (const std::string& file : test::workload_ptx_files()) {
    for (const ptx::Program& prog : test::link_all_entries(file)) {
      ++kernels;
      auto hash = [](uint32_t a, uint32_t b, uint32_t c) {
        uint32_t h = a * 2654435761u ^ (b + 0x9e3779b9u) * 40503u ^ c * 2246822519u;
        return h ^ (h >> 15);
      };
      const Takes takes = [&prog, hash](uint32_t pc, uint32_t t, uint32_t visit) {
        const ptx::Instr& in = prog.code[pc];
        if (in.op == Op::Bra) {
          if (in.ops[0].imm <= pc) return visit < hash(t, pc, 7) % 3;  // loops end
          return (hash(t, pc, visit) & 1) != 0;
        }
        return hash(t, pc, visit) % 4 == 0;  // guarded exit / ret
      };
      struct Config {
        Scope scope;
        bool compact, likely;
        uint32_t threads, warp;
      };
      for (const Config& c : {Config{Scope::Cta, true, true, 40, 8}, Config{Scope::Cta, true, false, 96, 32},
                              Config{Scope::Cta, false, true, 40, 8}, Config{Scope::Warp, true, true, 40, 8},
                              Config{Scope::Warp, true, false, 40, 8}}) {
        BOOST_TEST_CONTEXT(file << " " << prog.kernel << " scope " << int(c.scope) << " compact " << c.compact
                                << " likely " << c.likely << " W " << c.warp) {
          Harness h(prog, c.threads, c.warp, c.scope, c.compact, c.likely, takes);
          h.start();
          try {
            BOOST_TEST(h.run(200000));
          } catch (const Error& e) {
            // shfl / vote after compaction mixed PTX warps: the expected refusal.
            const bool warp_sync = std::string(e.what()).find("warp-synchronous") != std::string::npos;
            BOOST_TEST((warp_sync && c.scope == Scope::Cta && c.compact), e.what());
            ++warp_sync_faults;
            continue;
          }
          BOOST_TEST(h.all_retired());
          h.check_paths();
          if (c.scope == Scope::Warp && !c.likely) {
            for (uint32_t w = 0; w * c.warp < c.threads; ++w) {
              uint32_t depth = 0;
              const auto want = pdom_reference(h, takes, ThreadMask::range(w * c.warp, c.warp) &
                                                             ThreadMask::range(0, c.threads), &depth);
              const auto got = h.issues_of(w + 2);
              BOOST_REQUIRE_EQUAL(got.size(), want.size());
              for (size_t k = 0; k < got.size(); ++k) {
                BOOST_TEST(got[k].pc == want[k].first);
                BOOST_TEST(got[k].mask == want[k].second);
              }
            }
          }
        }
      }
    }
  }
  BOOST_TEST(kernels >= 13u);
  BOOST_TEST_MESSAGE(kernels << " kernels, " << warp_sync_faults << " refused for warp-synchronous code");
}

// ---- exits --------------------------------------------------------------------

// Early return inside divergent code: both sides exit on their own (the
// branch's IPDOM is the function exit); the CTA finishes, every slot retires.
BOOST_AUTO_TEST_CASE(early_return_finishes_the_cta) {
  auto takes = [](uint32_t pc, uint32_t t, uint32_t) { return pc == 1 ? t >= 4 : t == 5 || t == 6; };
  Harness h(early_return(), 8, 4, Scope::Cta, true, false, takes);
  h.start();
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
  BOOST_TEST(h.exited == ThreadMask::range(0, 8));
  BOOST_TEST(h.unit.cta_stack(0) == nullptr);  // dropped once the CTA finished
  BOOST_TEST(h.unit.barrier_participants(0, h.exited, 0) == 0u);
}

// A guarded exit: some threads of a compacted warp leave, the rest go on
// without a new compaction; exits also complete a branch synchronisation.
BOOST_AUTO_TEST_CASE(partial_exit_goes_on_without_resync) {
  // Threads 4..7 take C; of those 5 and 6 exit at pc 5, 4 and 7 go on.
  auto takes = [](uint32_t pc, uint32_t t, uint32_t) { return pc == 1 ? t >= 4 : t == 5 || t == 6; };
  Harness h(early_return(), 8, 4, Scope::Cta, true, false, takes);
  h.start();
  h.exec(2), h.exec(3), h.exec(2), h.exec(3);  // both at the branch: C {4..7} first
  BOOST_REQUIRE_EQUAL(h.requests.size(), 1u);
  BOOST_TEST(h.requests[0].mask == ThreadMask::range(4, 4));
  h.exec(2);  // mov at C
  const uint32_t v = h.unit.slot(2).version;
  h.exec(2);  // @q exit: 5 and 6 leave
  BOOST_TEST(h.unit.slot(2).state == SlotState::Running);
  BOOST_TEST(h.unit.slot(2).pc == 6u);
  BOOST_TEST(h.unit.slot(2).version == v);  // a plain advance
  BOOST_TEST(h.requests.size() == 1u);
  BOOST_TEST(h.unit.cta_stack(0)->executing().mask == mask_of({4, 7}));
  BOOST_TEST(h.unit.barrier_participants(0, h.exited, 6) == 2u);
  BOOST_TEST(h.unit.barrier_weight(2, h.exited) == 2u);
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
}

// A warp whose every thread exits while the others synchronise at a branch
// counts as arrived there.
BOOST_AUTO_TEST_CASE(exit_completes_a_branch_sync) {
  // Warp 2 (threads 4..7) all take C and all exit at pc 5, before warp 1 reaches the branch.
  auto takes = [](uint32_t pc, uint32_t t, uint32_t) { return pc == 1 ? t >= 2 : t >= 4; };
  Harness h(early_return(), 8, 4, Scope::Cta, true, false, takes);
  h.start();
  h.exec(3), h.exec(3);  // warp 2 branches: C = {4..7} + {2,3} later
  h.exec(2), h.exec(2);  // warp 1 branches: C {2,3,4,5,6,7} needs 2 warps
  BOOST_REQUIRE_EQUAL(h.requests.size(), 1u);
  BOOST_TEST(h.requests[0].mask == ThreadMask::range(2, 6));
  BOOST_TEST(h.unit.slot(2).mask == mask_of({4, 5, 2, 3}));
  BOOST_TEST(h.unit.slot(3).mask == mask_of({6, 7}));
  h.exec(2), h.exec(2);  // {4,5} exit, {2,3} go on
  h.exec(3), h.exec(3);  // {6,7} all exit: the slot parks, nothing to compact yet
  BOOST_TEST(h.unit.slot(3).state == SlotState::Waiting);
  BOOST_TEST(h.requests.size() == 1u);
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
  h.check_paths();
  BOOST_TEST(h.stat("sync_waits") == 2u);  // exits are not sync waits
}

// ---- barriers -------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(barrier_counts_by_scope) {
  const ThreadMask none;
  {
    Harness h(example1(), 8, 4, Scope::Cta, true, false, ex1_takes);
    h.start();
    BOOST_TEST(h.unit.barrier_participants(0, none, 8) == 8u);
    for (int i = 0; i < 3; ++i) h.exec(2), h.exec(3);  // C {0,5,6} runs
    BOOST_TEST(h.unit.barrier_participants(0, none, 8) == 3u);  // the others wait in B's entry
    BOOST_TEST(h.unit.barrier_weight(2, none) == 3u);
    BOOST_TEST(h.unit.barrier_participants(0, mask_of({5}), 7) == 2u);
  }
  {
    Harness h(example1(), 8, 4, Scope::Warp, true, false, ex1_takes);
    h.start();
    for (int i = 0; i < 3; ++i) h.exec(2);  // warp 1 diverged: {0} at C
    BOOST_TEST(h.unit.slot(2).mask == mask_of({0}));
    BOOST_TEST(h.unit.slot(2).scope == ThreadMask::range(0, 4));
    BOOST_TEST(h.unit.barrier_weight(2, none) == 4u);  // whole static warp, like PDOM
    BOOST_TEST(h.unit.barrier_weight(2, mask_of({1})) == 3u);
    BOOST_TEST(h.unit.barrier_participants(0, none, 8) == 8u);
  }
}

// A barrier instruction moves on like any other; reaching a sync point right
// after it parks the warp.
BOOST_AUTO_TEST_CASE(barrier_then_reconvergence_point_parks) {
  B b;
  uint32_t r = b.reg("%r0"), p = b.reg("%p0", ptx::Type::Pred);
  b.op(Op::Mov, {B::R(r), B::I(0)});  // 0
  b.bra("J", p);                      // 1
  b.op(Op::Bar, {B::I(0)}, "bar.sync", ptx::Space::None, ptx::InstrClass::Barrier);  // 2
  b.label("J");
  b.exit();  // 3
  Harness h(b.build(), 4, 4, Scope::Cta, true, false, [](uint32_t, uint32_t t, uint32_t) { return t < 2; });
  h.start();
  h.exec(2), h.exec(2);  // the taken side {0,1} is at J = the IPDOM: popped at once; {2,3} at 2
  BOOST_TEST(h.unit.slot(2).pc == 2u);
  h.exec(2);
  BOOST_TEST(h.unit.slot(2).pc == 3u);
  BOOST_TEST(h.unit.slot(2).mask == ThreadMask::range(0, 4));
  BOOST_TEST(h.run());
  BOOST_TEST(h.all_retired());
}

// ---- several CTAs -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(requests_are_fifo_across_ctas) {
  ptx::Program p = example1();
  ptx::Cfg cfg(p);
  TbcBranchUnit u(4, 4, Scope::Cta, true, false);
  u.start_cta(0, {&p, &cfg}, ThreadMask::range(0, 8), {0, 1});
  u.start_cta(1, {&p, &cfg}, ThreadMask::range(0, 4), {3});
  BOOST_TEST(u.slot(3).cta == 1u);
  auto step = [&](uint32_t s, const ThreadMask& taken) {
    func::StepResult r;
    r.reset();
    const uint32_t pc = u.slot(s).pc;
    if (p.code[pc].op == Op::Bra) {
      r.control = func::Control::Branch;
      r.taken = taken;
      r.target = static_cast<uint32_t>(p.code[pc].ops[0].imm);
    }
    u.executed(s, p.code[pc], r, ThreadMask{});
  };
  for (int i = 0; i < 2; ++i) step(3, {}), step(0, {}), step(1, {});
  step(3, mask_of({1}));  // CTA 1 first
  step(0, mask_of({0}));
  step(1, mask_of({5, 6}));
  BOOST_REQUIRE(u.peek_request());
  BOOST_TEST(u.peek_request()->cta == 1u);
  BOOST_TEST(u.peek_request()->mask == mask_of({1}));
  BOOST_TEST(u.peek_request()->threads == 4u);
  u.pop_request();
  BOOST_REQUIRE(u.peek_request());
  BOOST_TEST(u.peek_request()->cta == 0u);
  BOOST_TEST(u.peek_request()->mask == mask_of({0, 5, 6}));
  u.pop_request();
  BOOST_TEST(!u.peek_request());
  BOOST_CHECK_THROW(u.pop_request(), std::logic_error);
  // CTA 1's warp goes back to its only slot.
  sm::GeneratedWarp g;
  g.cta = 1;
  g.pc = kC;
  g.mask = mask_of({1});
  g.last = true;
  u.warp_generated(g);
  BOOST_TEST((u.slot(3).state == SlotState::Running && u.slot(3).pc == uint32_t{kC}));
  BOOST_CHECK_THROW(u.warp_generated(g), std::logic_error);  // its slot is running now
  g.cta = 0;
  g.index = 2;
  BOOST_CHECK_THROW(u.warp_generated(g), std::logic_error);  // CTA 0 has two slots
}

// ---- what the unit refuses ----------------------------------------------------------

// Before the launch (sm/core.h check_kernel), so no CTA ever starts.
BOOST_AUTO_TEST_CASE(calls_are_refused_before_launch) {
  B b;
  b.func("k");
  b.call("f");
  b.exit();
  b.func("f");
  b.ret();
  ptx::Program p = b.build();
  p.code[0].line = 42;
  ptx::Cfg cfg(p);
  TbcBranchUnit u(2, 4, Scope::Cta, true, true);
  try {
    u.check_kernel({&p, &cfg});
    BOOST_FAIL("calls accepted");
  } catch (const Error& e) {
    BOOST_TEST(e.code() == ExitCode::BadInput);
    BOOST_TEST(std::string(e.what()) ==
               "kernel 'k' uses calls (line 42), which the tbc branch unit does not model; use sm.reconvergence = pdom");
  }
  BOOST_TEST(u.slot(0).state == SlotState::Free);
  // A builtin (vprintf) is an ordinary instruction.
  p.calls[0].builtin = ptx::Builtin::Vprintf;
  BOOST_CHECK_NO_THROW(u.check_kernel({&p, &cfg}));
}

BOOST_AUTO_TEST_CASE(uniform_branch_that_splits_a_warp_is_a_fault) {
  B b;
  uint32_t p0 = b.reg("%p0", ptx::Type::Pred);
  b.label("L");
  b.bra("L", p0, false, true);  // 0: @p bra.uni L
  b.exit();
  auto takes = [](uint32_t, uint32_t t, uint32_t visit) { return t == 0 && visit == 0; };
  Harness h(b.build(), 4, 4, Scope::Cta, true, false, takes);
  h.start();
  try {
    h.exec(2);
    BOOST_FAIL("no fault");
  } catch (const Error& e) {
    BOOST_TEST(e.code() == ExitCode::KernelFault);
    BOOST_TEST(std::string(e.what()) == "kernel 'k' CTA 0 pc 0: bra.uni diverged inside a compacted warp");
  }
  // The per-warp stack treats it as a divergent branch, as PDOM does.
  Harness w(h.prog, 4, 4, Scope::Warp, true, false, takes);
  w.start();
  BOOST_TEST(w.run());
  w.check_paths();
}

// Warps of one entry that part ways on a bra.uni reach different sync points.
BOOST_AUTO_TEST_CASE(warps_gathering_at_different_points_is_a_fault) {
  B b;
  uint32_t p0 = b.reg("%p0", ptx::Type::Pred), p1 = b.reg("%p1", ptx::Type::Pred);
  b.bra("X", p0, false, true);  // 0: @p bra.uni X: warp 1 goes, warp 2 does not
  b.bra("Y", p1);               // 1
  b.label("X");
  b.bra("Y", p1);               // 2
  b.label("Y");
  b.exit();                     // 3
  auto takes = [](uint32_t pc, uint32_t t, uint32_t) { return pc == 0 ? t < 4 : t % 2 == 0; };
  Harness h(b.build(), 8, 4, Scope::Cta, true, false, takes);
  h.start();
  h.exec(2), h.exec(2);  // warp 1 at X, branches: parks
  h.exec(3);             // warp 2 falls through to pc 1
  BOOST_CHECK_EXCEPTION(h.exec(3), Error, [](const Error& e) {
    const std::string w = e.what();
    return e.code() == ExitCode::KernelFault && w.find("kernel 'k' CTA 0 pc 1: ") == 0 &&
           w.find("different sync points") != std::string::npos;
  });
}

// shfl in a compacted warp that holds only part of a 32-thread PTX warp.
BOOST_AUTO_TEST_CASE(warp_synchronous_op_in_a_split_warp_is_a_fault) {
  auto build = [] {
    B b;
    uint32_t r = b.reg("%r0"), p0 = b.reg("%p0", ptx::Type::Pred);
    b.op(Op::Shfl, {B::R(r), B::R(r), B::I(1), B::I(31)});  // 0: converged: fine
    b.bra("J", p0);                                            // 1
    b.op(Op::Shfl, {B::R(r), B::R(r), B::I(1), B::I(31)});  // 2: only part of the side's threads
    b.label("J");
    b.exit();                                                  // 3
    return b.build();
  };
  // 64 threads, warps of 32: threads 1 and 32 branch away, so the fall-through
  // side compacts into warp {0, 33, 2..31} and warp {34..63}: the first holds
  // one thread of the second PTX warp.
  auto takes = [](uint32_t, uint32_t t, uint32_t) { return t == 1 || t == 32; };
  Harness h(build(), 64, 32, Scope::Cta, true, false, takes);
  h.start();
  h.exec(2), h.exec(3);
  h.exec(2), h.exec(3);
  BOOST_TEST(h.unit.slot(2).pc == 2u);
  BOOST_TEST(h.unit.slot(2).mask == (ThreadMask::range(2, 30) | mask_of({0, 33})));
  BOOST_CHECK_EXCEPTION(h.exec(2), Error, [](const Error& e) {
    return e.code() == ExitCode::KernelFault &&
           std::string(e.what()) ==
               "kernel 'k' CTA 0 pc 2: warp-synchronous 'shfl' ran in a compacted warp that splits a 32-thread "
               "warp; run it with tbc.compaction = false (seed 001 §3.2)";
  });
  // Compaction off keeps the static warps: no fault.
  Harness s(build(), 64, 32, Scope::Cta, false, false, takes);
  s.start();
  BOOST_TEST(s.run());
  BOOST_TEST(s.all_retired());
  s.check_paths();
}

BOOST_AUTO_TEST_CASE(misuse_is_rejected) {
  ptx::Program p = example1();
  ptx::Cfg cfg(p);
  TbcBranchUnit u(4, 4, Scope::Cta, true, false);
  BOOST_CHECK_THROW(u.start_cta(0, {&p, &cfg}, ThreadMask::range(0, 8), {0}), std::logic_error);  // 2 slots needed
  u.start_cta(0, {&p, &cfg}, ThreadMask::range(0, 8), {0, 1});
  BOOST_CHECK_THROW(u.start_cta(1, {&p, &cfg}, ThreadMask::range(0, 4), {1}), std::logic_error);  // slot in use
  BOOST_CHECK_THROW(u.start_cta(0, {&p, &cfg}, ThreadMask::range(0, 4), {2}), std::logic_error);  // CTA running
  func::StepResult r;
  r.reset();
  BOOST_CHECK_THROW(u.executed(2, p.code[0], r, ThreadMask{}), std::logic_error);  // not running
  sm::GeneratedWarp g;
  g.mask = mask_of({0});
  BOOST_CHECK_THROW(u.warp_generated(g), std::logic_error);  // no dispatch pending: slot 0 runs
  BOOST_CHECK_THROW(TbcBranchUnit(4, 65, Scope::Cta, true, false), std::invalid_argument);
  TbcBranchUnit w(4, 4, Scope::Warp, true, false);
  BOOST_CHECK_THROW(w.warp_generated(g), std::logic_error);
}
