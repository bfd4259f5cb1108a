// The VGIW compiler pass on small hand-written kernels and on every committed
// workload: block IDs in schedule order (entry 0, joins after both arms,
// loops contiguous with back edges to their head, epilogues after the loop),
// barriers ending blocks, successors, live value IDs (shared only when never
// live together), each block's dataflow graph by unit type, and the errors
// for what it does not map.
#define BOOST_TEST_MODULE vgiw_compiler
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "ptx/cfg_real_ptx.h"
#include "util/error.h"
#include "vgiw/compiled_kernel.h"
#include "vgiw/compiler.h"

using namespace simt;
using vgiw::Unit;

namespace {

// Without if-conversion (test_if_conversion covers it): these kernels are
// about nvcc's block structure.
struct Compiled : test::CompiledKernel {
  explicit Compiled(const std::string& body) : CompiledKernel(body, 0) {}
  const vgiw::CompiledBlock& at(uint32_t pc) const { return c->blocks()[c->id_at(pc)]; }
  uint32_t id(uint32_t pc) const { return c->id_at(pc); }
};

const std::string kDiamond = R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;                    // 0
  setp.lt.u32 %p1, %r1, 16;               // 1
  @%p1 bra THEN;                          // 2
  mul.lo.u32 %r2, %r1, 3;                 // 3  else arm
  bra JOIN;                               // 4
THEN:
  add.u32 %r2, %r1, 7;                    // 5
JOIN:
  ld.param.u64 %rd1, [out];               // 6
  mul.wide.u32 %rd2, %r1, 4;              // 7
  add.u64 %rd3, %rd1, %rd2;               // 8
  st.global.u32 [%rd3], %r2;              // 9
  ret;                                    // 10
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(diamond_ids_successors_and_live_values) {
  Compiled k(kDiamond);
  const auto& b = k.c->blocks();
  BOOST_TEST(b.size() == 4u);
  BOOST_TEST(k.id(0) == 0u);
  BOOST_TEST(k.id(3) == 1u);  // both arms before the join; the lower PC first
  BOOST_TEST(k.id(5) == 2u);
  BOOST_TEST(k.id(6) == 3u);
  BOOST_TEST(b[0].succ_ids == (std::vector<uint32_t>{1, 2}));
  BOOST_TEST(b[0].taken_id == 2u);
  BOOST_TEST(b[1].succ_ids == (std::vector<uint32_t>{3}));
  BOOST_TEST(b[3].succ_ids.empty());
  BOOST_TEST(b[3].exits);
  BOOST_TEST(!b[0].exits);
  // %r1 (tid) crosses from block 0 to every later block; %r2 from each arm to the join.
  const auto& lv = k.c->live_values();
  const uint32_t r1 = b[0].live_out.at(0), r2 = b[1].live_out.back();
  BOOST_TEST(lv.id_of(r1) != vgiw::kNone);
  BOOST_TEST(lv.id_of(r2) != vgiw::kNone);
  BOOST_TEST(lv.id_of(r1) != lv.id_of(r2));  // both live into the join
  BOOST_TEST(lv.count() == 2u);
  // The predicate never leaves block 0: no ID.
  BOOST_TEST(lv.id_of(k.reg("%p1")) == vgiw::kNone);
}

BOOST_AUTO_TEST_CASE(dataflow_graph_units_and_memory_order) {
  Compiled k(kDiamond);
  const vgiw::CompiledBlock& join = k.at(6);
  const vgiw::UnitCounts& n = join.graph.needs();
  // ld.param and st: LDST; mul.wide and add.u64: FP-ALU; %r1 and %r2 come
  // from the LVC (two LVU loads); initiator + terminator: two CVUs.
  BOOST_TEST(n[Unit::Ldst] == 2u);
  BOOST_TEST(n[Unit::FpAlu] == 2u);
  BOOST_TEST(n[Unit::Lvu] == 2u);
  BOOST_TEST(n[Unit::Cvu] == 2u);
  BOOST_TEST(n[Unit::Scu] == 0u);
  BOOST_TEST(n[Unit::Sju] == 0u);
  // The store waits for the earlier load; the terminator for the store.
  const auto& nodes = join.graph.nodes();
  auto node_at = [&](uint32_t pc) {
    for (uint32_t i = 0; i < nodes.size(); ++i)
      if (nodes[i].kind == vgiw::NodeKind::Instr && nodes[i].pc == pc) return i;
    return vgiw::kNone;
  };
  const uint32_t ld = node_at(6), st = node_at(9);
  BOOST_TEST(nodes[st].control == (std::vector<uint32_t>{ld}));
  BOOST_TEST(nodes[join.graph.terminator()].control == (std::vector<uint32_t>{st}));
  // ld -> add -> st (address), plus mul -> add: depth initiator..terminator.
  BOOST_TEST(join.graph.depth() == 6u);  // init, lvu(%r1), mul.wide, add, st, term
  // Block 0: the tid move is the initiator's token (no node); setp on an ALU;
  // the branch guard feeds the terminator; %r1 goes to the LVC.
  const vgiw::CompiledBlock& entry = k.c->blocks()[0];
  BOOST_TEST(entry.graph.needs()[Unit::FpAlu] == 1u);
  BOOST_TEST(entry.graph.needs()[Unit::Lvu] == 1u);  // the store of %r1
  BOOST_TEST(entry.graph.nodes()[entry.graph.terminator()].data.size() == 1u);
  BOOST_TEST(entry.replicas == 16u / 2u);  // CVUs bound it: 8
}

BOOST_AUTO_TEST_CASE(loops_are_contiguous_and_epilogue_follows) {
  Compiled k(R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .f32 %f<4>;
  mov.u32 %r1, %tid.x;                    // 0
  mov.u32 %r2, 0;                         // 1
LOOP:
  add.u32 %r2, %r2, 1;                    // 2  header
  setp.eq.u32 %p1, %r2, 100;              // 3
  @%p1 bra DONE;                          // 4  break
  div.rn.f32 %f1, %f2, %f3;               // 5
  setp.lt.u32 %p2, %r2, %r1;              // 6
  @%p2 bra LOOP;                          // 7  latch
DONE:
  ret;                                    // 8
}
)");
  const auto& b = k.c->blocks();
  BOOST_TEST(b.size() == 4u);
  BOOST_TEST(k.id(0) == 0u);
  BOOST_TEST(k.id(2) == 1u);  // header
  BOOST_TEST(k.id(5) == 2u);  // body, before the epilogue although the break comes first
  BOOST_TEST(k.id(8) == 3u);  // epilogue after the whole loop
  BOOST_TEST(b[2].succ_ids == (std::vector<uint32_t>{1, 3}));  // back edge to the smaller ID
  BOOST_TEST(b[1].loop_head == 1u);
  BOOST_TEST(b[2].loop_head == 1u);
  BOOST_TEST(b[3].loop_head == vgiw::kNone);
  BOOST_TEST(b[2].graph.needs()[Unit::Scu] == 1u);  // div on a special compute unit
}

BOOST_AUTO_TEST_CASE(barriers_end_blocks) {
  Compiled k(R"(
.visible .entry k() {
  .reg .b32 %r<4>; .shared .align 4 .b32 s[32];
  mov.u32 %r1, %tid.x;                    // 0
  shl.b32 %r2, %r1, 2;                    // 1
  st.shared.u32 [%r2], %r1;               // 2
  bar.sync 0;                             // 3
  bar.arrive 1, 32;                       // 4  does not wait: no cut
  ld.shared.u32 %r3, [%r2+4];             // 5
  ret;                                    // 6
}
)");
  const auto& b = k.c->blocks();
  BOOST_TEST(b.size() == 2u);
  BOOST_TEST(b[0].barrier);
  BOOST_TEST(b[0].end == 4u);
  BOOST_TEST(b[0].succ_ids == (std::vector<uint32_t>{1}));
  BOOST_TEST(!b[1].barrier);
  BOOST_TEST(b[1].exits);
  // %r2 crosses the barrier through the LVC; %r1 does not (dead after the store).
  BOOST_TEST(b[0].live_out.size() == 1u);
}

BOOST_AUTO_TEST_CASE(live_value_ids_are_shared_only_when_never_live_together) {
  Compiled k(R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;                    // 0
  setp.lt.u32 %p1, %r1, 8;                // 1
  @%p1 bra B;                             // 2
  add.u32 %r3, %r1, 1;                    // 3  A: %r1 dies, %r3 lives on
  bra C;                                  // 4
B:
  add.u32 %r3, %r1, 2;                    // 5
C:
  ld.param.u64 %rd1, [out];               // 6
  st.global.u32 [%rd1], %r3;              // 7
  ret;                                    // 8
}
)");
  const auto& lv = k.c->live_values();
  const auto& b = k.c->blocks();
  // %r1 is live only out of block 0; %r3 only into the join: one row serves both.
  BOOST_TEST(lv.count() == 1u);
  BOOST_TEST(lv.registers() == 2u);
  BOOST_TEST(lv.id_of(b[0].live_out.at(0)) == lv.id_of(b[3].live_in.at(0)));
}

BOOST_AUTO_TEST_CASE(unmapped_instructions_are_refused_with_their_line) {
  auto error_of = [](const std::string& body) -> std::string {
    try {
      Compiled k(body);
    } catch (const Error& e) {
      BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(ExitCode::BadInput));
      return e.what();
    }
    return "";
  };
  const std::string shfl = error_of(R"(
.visible .entry k() {
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  shfl.sync.down.b32 %r2, %r1, 1, 31, -1;
  ret;
}
)");
  BOOST_TEST(shfl.find("kernel 'k' line 8") != std::string::npos, shfl);
  BOOST_TEST(shfl.find("shfl is a warp-level instruction") != std::string::npos, shfl);
  const std::string call = error_of(R"(
.func f() { ret; }
.visible .entry k() {
  call f;
  ret;
}
)");
  BOOST_TEST(call.find("calls are not mapped") != std::string::npos, call);
  BOOST_TEST(call.find("line 7") != std::string::npos, call);
}

// Invariants on nvcc's output for every workload kernel the compiler maps.
BOOST_AUTO_TEST_CASE(workload_kernels_keep_the_schedule_invariants) {
  uint32_t kernels = 0;
  for (const std::string& file : test::workload_ptx_files())
    for (const ptx::Program& p : test::link_all_entries(file)) {
      std::unique_ptr<vgiw::Compilation> c;
      try {
        c = std::make_unique<vgiw::Compilation>(p);
      } catch (const Error& e) {  // warp-level instructions: refused with a message
        BOOST_TEST(std::string(e.what()).find("warp-level") != std::string::npos, e.what());
        continue;
      }
      ++kernels;
      const auto& blocks = c->blocks();
      BOOST_TEST_CONTEXT(p.kernel) {
        BOOST_TEST(blocks.front().begin == 0u);
        // Every loop's IDs are contiguous: a block inside [head, end) has its
        // innermost head inside too.
        for (const vgiw::CompiledBlock& b : blocks)
          if (b.loop_head != vgiw::kNone) {
            BOOST_TEST(b.loop_head <= b.id);
            BOOST_TEST(b.id < blocks[b.loop_head].loop_end);
          }
        for (const vgiw::CompiledBlock& b : blocks) {
          BOOST_TEST(b.succ_ids.size() <= 2u);
          for (uint32_t s : b.succ_ids) {
            // Forward, or back to the head of a loop holding this block.
            const bool back_to_head = s <= b.id && blocks[s].loop_end != vgiw::kNone && b.id < blocks[s].loop_end;
            BOOST_TEST((s > b.id || back_to_head), "edge " << b.id << " -> " << s);
          }
          if (!b.reachable) continue;
          for (const auto* set : {&b.live_in, &b.live_out}) {
            std::set<uint32_t> ids;
            for (uint32_t r : *set) {
              const uint32_t id = c->live_values().id_of(r);
              BOOST_TEST(id != vgiw::kNone);
              BOOST_TEST(ids.insert(id).second, "two registers share live value ID " << id << " in block " << b.id);
            }
          }
        }
      }
    }
  BOOST_TEST(kernels >= 10u);
}

BOOST_AUTO_TEST_CASE(blocks_too_large_for_the_grid_are_split) {
  // 40 dependent adds: more FP-ALU nodes than the grid's 32.
  std::string body = ".visible .entry k(.param .u64 out) {\n  .reg .b32 %r<64>; .reg .b64 %rd<2>;\n"
                     "  mov.u32 %r0, %tid.x;\n";
  for (int i = 1; i <= 40; ++i)
    body += "  add.u32 %r" + std::to_string(i) + ", %r" + std::to_string(i - 1) + ", " + std::to_string(i) + ";\n";
  body += "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r40;\n  ret;\n}\n";
  Compiled k(body);
  BOOST_TEST(k.c->splits() >= 1u);
  BOOST_TEST(k.c->blocks().size() == k.c->splits() + 1u);
  for (const vgiw::CompiledBlock& b : k.c->blocks()) {
    BOOST_TEST(b.replicas >= 1u);
    BOOST_TEST(b.graph.needs()[Unit::FpAlu] <= 32u);
  }
  // The chain crosses each cut through the LVC: one value live out of every piece but the last.
  for (size_t i = 0; i + 1 < k.c->blocks().size(); ++i) {
    BOOST_TEST(k.c->blocks()[i].live_out.size() == 1u);
    BOOST_TEST(k.c->blocks()[i].succ_ids == (std::vector<uint32_t>{static_cast<uint32_t>(i + 1)}));
  }
}

BOOST_AUTO_TEST_CASE(an_instruction_the_grid_cannot_hold_is_an_error) {
  vgiw::CompilerOptions no_ldst;
  no_ldst.grid[Unit::Ldst] = 0;
  no_ldst.if_convert_limit = 0;
  const ptx::Program p = test::linked_kernel(kDiamond);
  try {
    vgiw::Compilation c(p, no_ldst);
    BOOST_FAIL("no error");
  } catch (const Error& e) {
    const std::string w = e.what();
    BOOST_TEST(w.find("needs 1 ldst units and the grid has 0") != std::string::npos, w);
    BOOST_TEST(w.find("kernel 'k' line") != std::string::npos, w);
  }
}
