#include "vgiw/dataflow_graph.h"

#include <algorithm>

#include "ptx/def_use.h"

namespace simt::vgiw {

namespace {

using ptx::Op;

bool is_load(Op op) {
  return op == Op::Ld || op == Op::Ldu || op == Op::Prefetch || op == Op::Prefetchu || op == Op::Tex ||
         op == Op::Tld4 || op == Op::Txq || op == Op::Suld;
}
bool is_store(Op op) { return op == Op::St || op == Op::Atom || op == Op::Red || op == Op::Sust; }
bool non_pipelined(Op op) {
  switch (op) {
    case Op::Div:
    case Op::Rem:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Rcp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh: return true;
    default: return false;
  }
}
// Instructions that occupy no unit.
bool no_unit(const ptx::Instr& in) {
  return ((in.op == Op::Bar || in.op == Op::Barrier) && (in.flags & ptx::kArrive)) || in.op == Op::Nanosleep ||
         in.op == Op::Pmevent || in.op == Op::Brkpt;
}
bool ends_block(Op op) { return op == Op::Bra || op == Op::Exit || op == Op::Ret || op == Op::Trap; }

}  // namespace

const char* unit_name(Unit u) {
  static const char* const n[] = {"fp_alu", "scu", "ldst", "lvu", "sju", "cvu"};
  return u < Unit::Count ? n[static_cast<size_t>(u)] : "?";
}

const char* node_kind_name(NodeKind k) {
  static const char* const n[] = {"initiator", "instr", "live_load", "live_store", "join", "terminator"};
  return n[static_cast<size_t>(k)];
}

uint32_t UnitCounts::total() const {
  uint32_t t = 0;
  for (uint32_t v : n) t += v;
  return t;
}

UnitCounts table1_grid() {
  UnitCounts g;
  g[Unit::FpAlu] = 32;
  g[Unit::Scu] = 12;
  g[Unit::Ldst] = 16;
  g[Unit::Lvu] = 16;
  g[Unit::Sju] = 16;
  g[Unit::Cvu] = 16;
  return g;
}

uint32_t DataflowGraph::add(Node n) {
  ++needs_[n.unit];
  nodes_.push_back(std::move(n));
  return static_cast<uint32_t>(nodes_.size() - 1);
}

std::vector<uint32_t> DataflowGraph::gather(std::vector<uint32_t> from, size_t max_left) {
  while (from.size() > max_left) {
    // Join the first three (or as many as bring the count down to max_left).
    const size_t take = std::min<size_t>(3, from.size() - max_left + 1);
    Node j;
    j.kind = NodeKind::Join;
    j.unit = Unit::Sju;
    j.control.assign(from.begin(), from.begin() + static_cast<long>(take));
    const uint32_t id = add(std::move(j));
    from.erase(from.begin(), from.begin() + static_cast<long>(take));
    from.push_back(id);
  }
  return from;
}

DataflowGraph::DataflowGraph(const ptx::Program& p, const BlockGraph& g, const LiveValues& lv, uint32_t block) {
  const Block& b = g.blocks()[block];
  Node init;
  init.kind = NodeKind::Initiator;
  init.unit = Unit::Cvu;
  add(std::move(init));

  std::vector<uint32_t> producer(p.num_regs(), kNone);  // node holding a register's current value
  // Where a register's value comes from: this block's producer, else the LVC.
  auto value_of = [&](uint32_t r) {
    if (producer[r] != kNone) return producer[r];
    Node ld;
    ld.kind = NodeKind::LiveLoad;
    ld.unit = Unit::Lvu;
    ld.reg = r;
    ld.live_id = lv.id_of(r);
    ld.control.push_back(initiator());  // addressed by the thread ID
    producer[r] = add(std::move(ld));
    return producer[r];
  };

  uint32_t last_store = kNone;             // ordering point for later memory operations
  std::vector<uint32_t> loads_since;       // loads after last_store
  std::vector<uint32_t> completions;       // what the terminator waits for
  uint32_t term_pc = kNone;
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const ptx::Instr& in = p.code[pc];
    if (pc + 1 == b.end && (ends_block(in.op) || b.barrier)) {
      term_pc = pc;
      break;
    }
    if (no_unit(in)) continue;
    if (in.op == Op::Membar || in.op == Op::Fence) {  // every memory operation on either side is ordered
      std::vector<uint32_t> before = loads_since;
      if (last_store != kNone) before.push_back(last_store);
      if (before.empty()) continue;
      last_store = gather(before, 1).front();
      loads_since.clear();
      continue;
    }
    const ptx::DefUse du = ptx::def_use(in);
    // A move from a special register is the initiator's coordinate token.
    if (in.op == Op::Mov && in.nops == 2 && in.ops[1].kind == ptx::Operand::Kind::Sreg && du.defs.size() == 1 &&
        !du.partial_defs) {
      producer[*du.defs.begin()] = initiator();
      continue;
    }
    Node n;
    n.kind = NodeKind::Instr;
    n.unit = is_load(in.op) || is_store(in.op) ? Unit::Ldst : non_pipelined(in.op) ? Unit::Scu : Unit::FpAlu;
    n.pc = pc;
    for (uint32_t r : du.uses) n.data.push_back(value_of(r));
    if (du.partial_defs)  // threads whose guard is false keep the old value
      for (uint32_t r : du.defs)
        if (!du.uses.contains(r)) n.data.push_back(value_of(r));
    for (int k = 0; k < in.nops; ++k)
      if (in.ops[k].kind == ptx::Operand::Kind::Sreg) n.data.push_back(initiator());
    if (n.data.empty()) n.control.push_back(initiator());  // fires on the thread's token
    const bool store = is_store(in.op), load = is_load(in.op);
    if (store) {
      std::vector<uint32_t> before = loads_since;
      if (last_store != kNone) before.push_back(last_store);
      if (!before.empty()) n.control.push_back(gather(before, 1).front());
    } else if (load && last_store != kNone) {
      n.control.push_back(last_store);
    }
    std::sort(n.data.begin(), n.data.end());
    n.data.erase(std::unique(n.data.begin(), n.data.end()), n.data.end());
    const uint32_t id = add(std::move(n));
    for (uint32_t r : du.defs) producer[r] = id;
    if (store) {
      last_store = id;
      loads_since.clear();
      completions.push_back(id);
    } else if (load) {
      loads_since.push_back(id);
    }
  }
  // Live-out registers this block defines go back to the LVC.
  for (uint32_t r : lv.live_out(block)) {
    const uint32_t src = producer[r];
    if (src == kNone || nodes_[src].kind == NodeKind::LiveLoad) continue;  // passes through unchanged
    Node st;
    st.kind = NodeKind::LiveStore;
    st.unit = Unit::Lvu;
    st.reg = r;
    st.live_id = lv.id_of(r);
    st.data.push_back(src);
    completions.push_back(add(std::move(st)));
  }
  // Every node a thread fires ends before the thread does: results nobody
  // reads (and loads whose value goes unused) complete into the terminator.
  std::vector<uint8_t> consumed(nodes_.size(), 0);
  for (const Node& n : nodes_) {
    for (uint32_t i : n.data) consumed[i] = 1;
    for (uint32_t i : n.control) consumed[i] = 1;
  }
  for (uint32_t i = 1; i < nodes_.size(); ++i)
    if (!consumed[i] && std::find(completions.begin(), completions.end(), i) == completions.end())
      completions.push_back(i);
  Node term;
  term.kind = NodeKind::Terminator;
  term.unit = Unit::Cvu;
  term.pc = term_pc;
  if (term_pc != kNone && p.code[term_pc].guard.kind == ptx::Operand::Kind::Reg)
    term.data.push_back(value_of(p.code[term_pc].guard.reg));
  if (completions.empty()) completions.push_back(initiator());  // a block with no effects still ends per thread
  term.control = gather(completions, term.data.empty() ? 3 : 2);
  add(std::move(term));
}

uint32_t DataflowGraph::replicas(const UnitCounts& grid) const {
  uint32_t r = UINT32_MAX;
  for (size_t u = 0; u < kUnitTypes; ++u)
    if (needs_.n[u]) r = std::min(r, grid.n[u] / needs_.n[u]);
  return r == UINT32_MAX ? 0 : r;
}

uint32_t DataflowGraph::depth() const {
  // Inputs always come earlier in nodes_, so one forward pass suffices.
  std::vector<uint32_t> d(nodes_.size(), 1);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    for (uint32_t s : nodes_[i].data) d[i] = std::max(d[i], d[s] + 1);
    for (uint32_t s : nodes_[i].control) d[i] = std::max(d[i], d[s] + 1);
  }
  return d.empty() ? 0 : d.back();
}

}  // namespace simt::vgiw
