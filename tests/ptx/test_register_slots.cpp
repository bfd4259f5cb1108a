#define BOOST_TEST_MODULE register_slots
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cfg_real_ptx.h"
#include "ptx/cfg.h"
#include "ptx/def_use.h"
#include "ptx/link.h"
#include "ptx/liveness.h"
#include "ptx/parser.h"
#include "ptx/register_slots.h"

using namespace simt::ptx;

namespace {

bool reads_other_lanes(Op op) {
  return op == Op::Shfl || op == Op::Vote || op == Op::Match || op == Op::Redux || op == Op::BarWarp ||
         op == Op::Wmma || op == Op::Mma || op == Op::Ldmatrix;
}

// The registers that must not share their slot with any other (see
// ptx/register_slots.h), found here independently of the pass.
std::set<uint32_t> must_be_private(const Program& p, const Cfg& cfg) {
  std::set<uint32_t> out;
  const Liveness live(p, cfg);
  for (uint32_t f = 0; f < cfg.num_funcs(); ++f)
    if (cfg.func_first_block(f) < cfg.func_end_block(f))
      for (uint32_t r : live.live_in_regs(cfg.func_first_block(f))) out.insert(r);
  for (const Instr& in : p.code)
    if (reads_other_lanes(in.op)) {
      const DefUse du = def_use(in);
      out.insert(du.uses.begin(), du.uses.end());
      out.insert(du.defs.begin(), du.defs.end());
    }
  for (const CallInfo& c : p.calls)
    if (c.callee_reg != kNoReg) out.insert(c.callee_reg);
  for (const FuncRange& f : p.funcs)
    if (f.retaddr_reg != kNoReg) out.insert(f.retaddr_reg);
  return out;
}

// Every property the executor relies on, checked on `p` after the pass.
// Returns the number of violations (each one also reported).
int check_slots(const Program& p, const Cfg& cfg) {
  int bad = 0;
  auto fail = [&](const std::string& what) {
    ++bad;
    BOOST_TEST_MESSAGE(p.kernel << ": " << what);
  };
  if (p.reg_slot.size() != p.num_regs()) {
    fail("slot table size");
    return bad;
  }
  std::map<uint32_t, std::vector<uint32_t>> by_slot;
  for (uint32_t r = 0; r < p.num_regs(); ++r) {
    if (p.reg_slot[r] >= p.num_slots()) fail("slot out of range for " + p.regs[r].name);
    by_slot[p.reg_slot[r]].push_back(r);
  }
  // Functions never share a slot.
  std::vector<uint32_t> func_of(p.num_regs(), ~0u);
  for (uint32_t f = 0; f < p.funcs.size(); ++f)
    for (uint32_t r = p.funcs[f].reg_begin; r < p.funcs[f].reg_end; ++r) func_of[r] = f;
  for (const auto& [slot, regs] : by_slot)
    for (uint32_t r : regs)
      if (func_of[r] != func_of[regs.front()]) fail("two functions share slot " + std::to_string(slot));
  // Private registers share with nobody.
  for (uint32_t r : must_be_private(p, cfg))
    if (by_slot[p.reg_slot[r]].size() != 1) fail(p.regs[r].name + " must keep its own slot");
  // No instruction writes a slot whose value is still needed, or one it reads.
  const Liveness live(p, cfg);
  for (const BasicBlock& b : cfg.blocks()) {
    std::set<uint32_t> now;
    for (uint32_t r : live.live_out_regs(b.id)) now.insert(r);
    for (uint32_t pc = b.end; pc-- > b.begin;) {
      const DefUse du = def_use(p.code[pc]);
      for (uint32_t d : du.defs) {
        for (uint32_t l : now)
          if (l != d && p.reg_slot[l] == p.reg_slot[d])
            fail("pc " + std::to_string(pc) + " writes " + p.regs[d].name + " over live " + p.regs[l].name);
        for (uint32_t o : du.defs)
          if (o != d && p.reg_slot[o] == p.reg_slot[d]) fail("pc " + std::to_string(pc) + ": two results in one slot");
        for (uint32_t u : du.uses)
          if (u != d && p.reg_slot[u] == p.reg_slot[d])
            fail("pc " + std::to_string(pc) + " writes " + p.regs[d].name + " over operand " + p.regs[u].name);
      }
      if (!du.partial_defs)
        for (uint32_t d : du.defs) now.erase(d);
      now.insert(du.uses.begin(), du.uses.end());
    }
  }
  return bad;
}

const char* kHead = ".version 8.0\n.target sm_75\n.address_size 64\n";

// Kernel `k` of `body` (after the header), linked, its registers shared and
// the invariants checked.
Program shared_kernel(const std::string& body) {
  const Module m = parse(std::string(kHead) + body, "slots.ptx");
  Program p = link(m, "k", SymbolAddresses(m.globals.size()));
  const Cfg cfg(p);
  share_register_slots(p, cfg);
  BOOST_TEST(check_slots(p, cfg) == 0);
  return p;
}

uint32_t reg_id(const Program& p, const std::string& name) {
  for (uint32_t r = 0; r < p.num_regs(); ++r)
    if (p.regs[r].name == name) return r;
  BOOST_FAIL("no register " << name);
  return 0;
}

}  // namespace

// nvcc names a register per value: the data-dependent loop's 70 fit in a few rows.
BOOST_AUTO_TEST_CASE(bench_kernel_shares_rows) {
  const Module m = parse_file(std::string(SIMT_SOURCE_DIR) + "/tools/bench-cases/data_loop.ptx");
  Program p = link(m, "data_loop", SymbolAddresses(m.globals.size()));
  const Cfg cfg(p);
  BOOST_TEST(p.reg_slot.empty());
  BOOST_TEST(p.num_slots() == p.num_regs());  // before the pass: one row each
  share_register_slots(p, cfg);
  BOOST_TEST(p.num_regs() == 70u);
  BOOST_TEST(p.num_slots() < 20u);
  BOOST_TEST(p.num_slots() > 0u);
  BOOST_TEST(check_slots(p, cfg) == 0);
}

BOOST_AUTO_TEST_CASE(every_workload_kernel_keeps_the_invariants) {
  size_t kernels = 0;
  for (const std::string& file : simt::test::workload_ptx_files())
    for (Program& p : simt::test::link_all_entries(file)) {
      const Cfg cfg(p);
      share_register_slots(p, cfg);
      BOOST_TEST_CONTEXT(file << " " << p.kernel) {
        BOOST_TEST(check_slots(p, cfg) == 0);
        BOOST_TEST(p.num_slots() <= p.num_regs());
      }
      ++kernels;
    }
  BOOST_TEST(kernels >= 13u);
}

// Calls, recursion, function pointers and a local frame across recursion.
BOOST_AUTO_TEST_CASE(call_kernels_keep_the_invariants) {
  for (const char* file : {"/tests/runtime/data/calls_kernel.ptx", "/tests/ptx/data/calls.ptx",
                           "/tests/e2e/data/split_shuffle.ptx"})
    for (Program& p : simt::test::link_all_entries(std::string(SIMT_SOURCE_DIR) + file)) {
      const Cfg cfg(p);
      share_register_slots(p, cfg);
      BOOST_TEST_CONTEXT(file << " " << p.kernel) { BOOST_TEST(check_slots(p, cfg) == 0); }
    }
}

BOOST_AUTO_TEST_CASE(uninitialised_and_shuffled_registers_keep_their_own_rows) {
  // %r1 is read before any write (it must read 0); %r2 is a shuffle's source,
  // which another lane may read from anywhere on its path; %r5 is written
  // and never read, yet must not land on the live %r3.
  const Program p = shared_kernel(".visible .entry k(.param .u64 out)\n{\n"
                                 "  .reg .b32 %r<8>;\n  .reg .b64 %rd<3>;\n"
                                 "  ld.param.u64 %rd1, [out];\n"
                                 "  add.s32 %r3, %r1, 1;\n"
                                 "  mov.u32 %r2, %tid.x;\n"
                                 "  shfl.sync.bfly.b32 %r4, %r2, 1, 31, -1;\n"
                                 "  mov.u32 %r5, 9;\n"
                                 "  add.s32 %r6, %r3, %r4;\n"
                                 "  st.global.u32 [%rd1], %r6;\n"
                                 "  ret;\n}\n");
  auto id = [&](const std::string& name) { return reg_id(p, name); };
  auto alone = [&](uint32_t r) {
    return std::count(p.reg_slot.begin(), p.reg_slot.end(), p.reg_slot[r]) == 1;
  };
  BOOST_TEST(alone(id("%r1")));
  BOOST_TEST(alone(id("%r2")));
  BOOST_TEST(alone(id("%r4")));
  BOOST_TEST(p.reg_slot[id("%r5")] != p.reg_slot[id("%r3")]);
  // Not everything is private: the unused registers and the short-lived ones share.
  BOOST_TEST(p.num_slots() < p.num_regs());
}

// A guarded write keeps the old value in the threads whose guard fails, so
// the register stays live above it and nothing written in between may take its row.
BOOST_AUTO_TEST_CASE(guarded_write_keeps_the_register_live_above_it) {
  const Program p = shared_kernel(".visible .entry k(.param .u64 out)\n{\n"
                                 "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
                                 "  ld.param.u64 %rd1, [out];\n"
                                 "  mov.u32 %r1, 5;\n"
                                 "  mov.u32 %r2, %tid.x;\n"
                                 "  setp.eq.u32 %p1, %r2, 0;\n"
                                 "  mov.u32 %r3, 7;\n"
                                 "  @%p1 mov.u32 %r1, %r3;\n"
                                 "  st.global.u32 [%rd1], %r1;\n"
                                 "  ret;\n}\n");
  BOOST_TEST(p.reg_slot[reg_id(p, "%r1")] != p.reg_slot[reg_id(p, "%r2")]);
  BOOST_TEST(p.reg_slot[reg_id(p, "%r1")] != p.reg_slot[reg_id(p, "%r3")]);
}
