#include "ptx/cfg.h"

#include <algorithm>
#include <string>

#include "ptx/def_use.h"
#include "util/error.h"

namespace simt::ptx {

namespace {

constexpr uint32_t kNone = Cfg::kNone;

std::string where(const Program& p, uint32_t pc) {
  std::string s = "pc " + std::to_string(pc);
  if (pc < p.text.size() && !p.text[pc].empty()) s += " ('" + p.text[pc] + "')";
  if (!p.kernel.empty()) s += " of kernel '" + p.kernel + "'";
  return s;
}

// Cooper-Harvey-Kennedy iterative dominators on a graph given by successor
// lists. Returns idom per node: idom[root] = root, kNone when unreachable.
std::vector<uint32_t> dominators(const std::vector<std::vector<uint32_t>>& succ, uint32_t root) {
  const uint32_t n = static_cast<uint32_t>(succ.size());
  std::vector<std::vector<uint32_t>> pred(n);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t s : succ[v]) pred[s].push_back(v);

  // Post-order by an explicit-stack DFS (no recursion: functions can be long).
  std::vector<uint32_t> po_num(n, kNone), order;
  order.reserve(n);
  std::vector<uint8_t> seen(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // node, next successor index
  stack.emplace_back(root, 0);
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < succ[v].size()) {
      uint32_t s = succ[v][i++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.emplace_back(s, 0);
      }
    } else {
      po_num[v] = static_cast<uint32_t>(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }

  std::vector<uint32_t> idom(n, kNone);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = idom[a];
      while (po_num[b] < po_num[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = order.size(); k-- > 0;) {  // reverse post-order
      uint32_t v = order[k];
      if (v == root) continue;
      uint32_t nd = kNone;
      for (uint32_t q : pred[v]) {
        if (idom[q] == kNone) continue;  // not processed yet or unreachable
        nd = nd == kNone ? q : intersect(q, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  return idom;
}

bool uniform_sreg(Sreg s) {
  switch (s) {
    case Sreg::NtidX: case Sreg::NtidY: case Sreg::NtidZ:
    case Sreg::CtaidX: case Sreg::CtaidY: case Sreg::CtaidZ:
    case Sreg::NctaidX: case Sreg::NctaidY: case Sreg::NctaidZ:
    case Sreg::Nwarpid: case Sreg::Smid: case Sreg::Nsmid: case Sreg::Gridid:
    case Sreg::DynamicSmemSize: case Sreg::TotalSmemSize: case Sreg::WarpSz:
      return true;
    default:
      return s >= Sreg::Envreg0 && s <= Sreg::Envreg31;  // per launch
  }
}

// True when `in` produces values that may differ between threads of a CTA
// whatever its inputs are (see the rules in cfg.h).
bool divergent_source(const Instr& in, bool in_entry) {
  for (int i = 0; i < in.nops && i < kMaxOperands; ++i)
    if (in.ops[i].kind == Operand::Kind::Sreg && !uniform_sreg(in.ops[i].sreg)) return true;
  switch (in.op) {
    case Op::Ld:
    case Op::Ldu:
      // Kernel parameters and (read-only) constant memory at a uniform address are uniform;
      // the address registers are checked as ordinary uses.
      return !((in.space == Space::Param && in_entry) || in.space == Space::Const);
    case Op::Atom: case Op::Red: case Op::Shfl: case Op::Vote: case Op::Match: case Op::Redux:
    case Op::Activemask: case Op::Tex: case Op::Tld4: case Op::Txq: case Op::Suld:
    case Op::Wmma: case Op::Mma: case Op::Ldmatrix:  // each lane holds other elements of the matrix
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Loop::contains(uint32_t block) const { return std::binary_search(blocks.begin(), blocks.end(), block); }

bool Cfg::is_func_entry(uint32_t block) const {
  const uint32_t f = blocks_[block].func;
  return func_blocks_[f] == block;
}

bool Cfg::dominates(uint32_t a, uint32_t b) const {
  if (blocks_[a].func != blocks_[b].func) return false;
  for (uint32_t v = b; v != kNone; v = idom_[v])
    if (v == a) return true;
  return false;
}

uint32_t Cfg::reconv_pc(uint32_t pc) const {
  const uint32_t b = block_of(pc);
  if (b == kNone || ipdom_[b] == kNone) return kNoPc;
  return blocks_[ipdom_[b]].begin;
}

uint32_t Cfg::likely_pc(uint32_t pc) const {
  const BranchInfo* br = branch(pc);
  return br ? br->likely_pc : kNoPc;
}

Cfg::Cfg(const Program& p) {
  build_blocks(p);
  const size_t nb = blocks_.size();
  ipdom_.assign(nb, kNone);
  idom_.assign(nb, kNone);
  loop_of_.assign(nb, kNone);
  reaches_exit_.assign(nb, 0);
  for (uint32_t f = 0; f < num_funcs(); ++f) {
    analyse_function(f);
    find_loops(f);
  }
  // Innermost loop per block: natural loops with distinct headers are nested
  // or disjoint, so the smallest loop containing a block is the innermost.
  std::vector<uint32_t> by_size(loops_.size());
  for (uint32_t i = 0; i < by_size.size(); ++i) by_size[i] = i;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](uint32_t a, uint32_t b) { return loops_[a].blocks.size() < loops_[b].blocks.size(); });
  for (uint32_t li : by_size)
    for (uint32_t b : loops_[li].blocks)
      if (loop_of_[b] == kNone) loop_of_[b] = li;
  for (uint32_t i = 0; i < loops_.size(); ++i)
    for (uint32_t lj : by_size)
      if (lj != i && loops_[lj].blocks.size() > loops_[i].blocks.size() && loops_[lj].contains(loops_[i].header)) {
        loops_[i].parent = lj;
        break;
      }
  for (BranchInfo& br : branches_) {
    const uint32_t ip = ipdom_[block_of(br.pc)];
    br.reconv_pc = ip == kNone ? kNoPc : blocks_[ip].begin;
  }
  compute_likely();
  compute_divergence(p);
  sync_pc_.assign(block_of_pc_.size(), 0);
  for (const BranchInfo& br : branches_)
    if (!br.uniform && !br.provably_uniform && br.reconv_pc < sync_pc_.size()) sync_pc_[br.reconv_pc] = 1;
}

void Cfg::build_blocks(const Program& p) {
  const uint32_t n = static_cast<uint32_t>(p.code.size());
  if (p.funcs.empty() && n != 0)
    throw input_error("cfg: program '" + p.kernel + "' has code but no function ranges");
  block_of_pc_.assign(n, kNone);
  branch_of_pc_.assign(n, kNone);
  func_blocks_.assign(1, 0);
  std::vector<uint8_t> leader;
  for (uint32_t f = 0; f < p.funcs.size(); ++f) {
    const FuncRange& fr = p.funcs[f];
    if (fr.begin > fr.end || fr.end > n)
      throw input_error("cfg: function '" + fr.name + "' has PC range [" + std::to_string(fr.begin) + ", " +
                        std::to_string(fr.end) + ") outside the program's " + std::to_string(n) + " instructions");
    leader.assign(fr.end - fr.begin + 1, 0);
    leader[0] = 1;
    for (uint32_t pc = fr.begin; pc < fr.end; ++pc) {
      if (block_of_pc_[pc] != kNone)
        throw input_error("cfg: function '" + fr.name + "' overlaps another function at pc " + std::to_string(pc));
      block_of_pc_[pc] = 0;  // claimed; the real id is written below
      const Instr& in = p.code[pc];
      switch (in.op) {
        case Op::Brx:
          throw input_error("cfg: indirect branch (brx.idx) at " + where(p, pc) + " is not supported");
        case Op::Bra: {
          if (in.nops < 1 || in.ops[0].kind != Operand::Kind::Label)
            throw input_error("cfg: bra without a resolved label target at " + where(p, pc));
          const int64_t t = in.ops[0].imm;
          if (t < fr.begin || t >= fr.end)
            throw input_error("cfg: bra at " + where(p, pc) + " targets pc " + std::to_string(t) +
                              " outside its function '" + fr.name + "'");
          leader[static_cast<uint32_t>(t) - fr.begin] = 1;
          leader[pc + 1 - fr.begin] = 1;
          break;
        }
        case Op::Ret: case Op::Exit: case Op::Trap:
          leader[pc + 1 - fr.begin] = 1;
          break;
        default:
          break;
      }
    }
    const uint32_t first = static_cast<uint32_t>(blocks_.size());
    for (uint32_t pc = fr.begin; pc < fr.end; ++pc) {
      if (leader[pc - fr.begin]) {
        BasicBlock b;
        b.id = static_cast<uint32_t>(blocks_.size());
        b.func = f;
        b.begin = pc;
        blocks_.push_back(b);
      }
      blocks_.back().end = pc + 1;
      block_of_pc_[pc] = blocks_.back().id;
    }
    for (uint32_t id = first; id < blocks_.size(); ++id) {
      BasicBlock& b = blocks_[id];
      const uint32_t last = b.end - 1;
      const Instr& in = p.code[last];
      const bool guarded = in.guard.kind == Operand::Kind::Reg;
      auto add_succ_pc = [&](uint32_t pc) {
        if (pc >= fr.end) {
          b.exits = true;  // runs off the end of the function
          return;
        }
        const uint32_t s = block_of_pc_[pc];
        if (std::find(b.succs.begin(), b.succs.end(), s) == b.succs.end()) b.succs.push_back(s);
      };
      if (in.op == Op::Bra) {
        add_succ_pc(static_cast<uint32_t>(in.ops[0].imm));
        if (guarded) add_succ_pc(last + 1);
        BranchInfo br;
        br.pc = last;
        br.target = static_cast<uint32_t>(in.ops[0].imm);
        br.uniform = !guarded || (in.flags & kUni) != 0;
        br.backward = br.target <= last;
        branch_of_pc_[last] = static_cast<uint32_t>(branches_.size());
        branches_.push_back(br);
      } else if (in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
        b.exits = true;
        if (guarded) add_succ_pc(last + 1);
      } else {
        add_succ_pc(last + 1);
      }
    }
    for (uint32_t id = first; id < blocks_.size(); ++id)
      for (uint32_t s : blocks_[id].succs) blocks_[s].preds.push_back(id);
    func_blocks_.push_back(static_cast<uint32_t>(blocks_.size()));
  }
}

void Cfg::analyse_function(uint32_t f) {
  const uint32_t base = func_blocks_[f], n = func_blocks_[f + 1] - base;
  if (n == 0) return;
  // Forward dominators from the entry block.
  std::vector<std::vector<uint32_t>> succ(n);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t s : blocks_[base + i].succs) succ[i].push_back(s - base);
  const std::vector<uint32_t> dom = dominators(succ, 0);
  for (uint32_t i = 1; i < n; ++i) idom_[base + i] = dom[i] == kNone ? kNone : base + dom[i];

  // Which blocks reach an exit; give each region that cannot a virtual exit
  // edge from its highest-PC block (see cfg.h), until every block reaches one.
  std::vector<uint8_t> to_exit(n, 0), reached(n, 0);
  std::vector<uint32_t> work;
  auto flood_back = [&](uint32_t start) {
    reached[start] = 1;
    work.push_back(start);
    while (!work.empty()) {
      uint32_t v = work.back();
      work.pop_back();
      for (uint32_t q : blocks_[base + v].preds)
        if (!reached[q - base]) {
          reached[q - base] = 1;
          work.push_back(q - base);
        }
    }
  };
  for (uint32_t i = 0; i < n; ++i)
    if (blocks_[base + i].exits) {
      to_exit[i] = 1;
      if (!reached[i]) flood_back(i);
    }
  for (uint32_t i = 0; i < n; ++i) reaches_exit_[base + i] = reached[i];
  for (uint32_t i = n; i-- > 0;)
    if (!reached[i]) {
      to_exit[i] = 1;
      flood_back(i);
    }

  // Post-dominators: dominators of the reverse graph rooted at the virtual exit (node n).
  std::vector<std::vector<uint32_t>> rsucc(n + 1);
  for (uint32_t i = 0; i < n; ++i) {
    if (to_exit[i]) rsucc[n].push_back(i);
    for (uint32_t q : blocks_[base + i].preds) rsucc[i].push_back(q - base);
  }
  const std::vector<uint32_t> pdom = dominators(rsucc, n);
  for (uint32_t i = 0; i < n; ++i) ipdom_[base + i] = (pdom[i] == n || pdom[i] == kNone) ? kNone : base + pdom[i];
}

void Cfg::find_loops(uint32_t f) {
  const uint32_t base = func_blocks_[f], end = func_blocks_[f + 1];
  std::vector<std::vector<uint32_t>> latches(end - base);
  for (uint32_t b = base; b < end; ++b) {
    if (!reachable(b)) continue;
    for (uint32_t s : blocks_[b].succs)
      if (dominates(s, b)) latches[s - base].push_back(b);
  }
  std::vector<uint8_t> in_body(end - base, 0);
  std::vector<uint32_t> work;
  for (uint32_t h = base; h < end; ++h) {
    if (latches[h - base].empty()) continue;
    Loop L;
    L.header = h;
    L.latches = latches[h - base];
    std::sort(L.latches.begin(), L.latches.end());
    std::fill(in_body.begin(), in_body.end(), 0);
    in_body[h - base] = 1;
    for (uint32_t l : L.latches)
      if (!in_body[l - base]) {
        in_body[l - base] = 1;
        work.push_back(l);
      }
    while (!work.empty()) {  // everything reaching a latch without passing the header
      uint32_t v = work.back();
      work.pop_back();
      for (uint32_t q : blocks_[v].preds)
        if (!in_body[q - base] && reachable(q)) {
          in_body[q - base] = 1;
          work.push_back(q);
        }
    }
    for (uint32_t b = base; b < end; ++b)
      if (in_body[b - base]) L.blocks.push_back(b);
    loops_.push_back(std::move(L));
  }
}

void Cfg::compute_likely() {
  std::vector<uint8_t> seen(blocks_.size(), 0);
  std::vector<uint32_t> work, touched;
  for (BranchInfo& br : branches_) {
    br.likely_pc = kNoPc;
    if (br.uniform) continue;
    const uint32_t b = block_of(br.pc);
    const uint32_t li = loop_of_[b];
    if (li == kNone) continue;
    const Loop& L = loops_[li];
    if (std::binary_search(L.latches.begin(), L.latches.end(), b)) continue;  // the loop's own back branch
    const uint32_t ip = ipdom_[b];
    if (ip != kNone && L.contains(ip)) continue;  // reconverges inside the loop: no break-like exit
    // Latches reachable from the branch inside this iteration (not through the header).
    uint32_t best = kNone;
    for (uint32_t s : blocks_[b].succs)
      if (s != L.header && L.contains(s) && !seen[s]) {
        seen[s] = 1;
        work.push_back(s);
        touched.push_back(s);
      }
    while (!work.empty()) {
      uint32_t v = work.back();
      work.pop_back();
      if (std::binary_search(L.latches.begin(), L.latches.end(), v) && (best == kNone || v > best)) best = v;
      for (uint32_t s : blocks_[v].succs)
        if (s != L.header && L.contains(s) && !seen[s]) {
          seen[s] = 1;
          work.push_back(s);
          touched.push_back(s);
        }
    }
    for (uint32_t v : touched) seen[v] = 0;
    touched.clear();
    if (best != kNone && blocks_[best].begin != br.reconv_pc) br.likely_pc = blocks_[best].begin;
  }
}

void Cfg::compute_divergence(const Program& p) {
  const uint32_t n = static_cast<uint32_t>(p.code.size()), nregs = p.num_regs();
  const uint32_t entry_begin = p.funcs.empty() ? 0 : p.funcs[0].begin;
  const uint32_t entry_end = p.funcs.empty() ? 0 : p.funcs[0].end;
  std::vector<DefUse> du(n);
  std::vector<uint8_t> source(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    du[pc] = def_use(p.code[pc]);
    for (uint32_t r : du[pc].uses)
      if (r >= nregs) throw input_error("cfg: register index " + std::to_string(r) + " out of range at " + where(p, pc));
    for (uint32_t r : du[pc].defs)
      if (r >= nregs) throw input_error("cfg: register index " + std::to_string(r) + " out of range at " + where(p, pc));
    source[pc] = divergent_source(p.code[pc], pc >= entry_begin && pc < entry_end);
  }
  std::vector<uint8_t> div_reg(nregs, 0), div_branch(branches_.size(), 0), in_region(blocks_.size(), 0);
  std::vector<uint32_t> work;
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t pc = 0; pc < n; ++pc) {
      const uint32_t b = block_of_pc_[pc];
      if (b == kNone || du[pc].defs.size() == 0) continue;
      bool d = source[pc] || in_region[b];
      for (uint32_t r : du[pc].uses) d = d || div_reg[r];
      if (!d) continue;
      for (uint32_t r : du[pc].defs)
        if (!div_reg[r]) {
          div_reg[r] = 1;
          changed = true;
        }
    }
    for (size_t i = 0; i < branches_.size(); ++i) {
      const Instr& in = p.code[branches_[i].pc];
      if (div_branch[i] || in.guard.kind != Operand::Kind::Reg || !div_reg[in.guard.reg]) continue;
      div_branch[i] = 1;
      changed = true;
      // Blocks influenced by this branch: reachable from it before its IPDOM.
      const uint32_t b = block_of_pc_[branches_[i].pc], stop = ipdom_[b];
      std::vector<uint8_t> seen(blocks_.size(), 0);
      for (uint32_t s : blocks_[b].succs)
        if (s != stop && !seen[s]) {
          seen[s] = 1;
          work.push_back(s);
        }
      while (!work.empty()) {
        uint32_t v = work.back();
        work.pop_back();
        in_region[v] = 1;
        for (uint32_t s : blocks_[v].succs)
          if (s != stop && !seen[s]) {
            seen[s] = 1;
            work.push_back(s);
          }
      }
    }
  }
  for (size_t i = 0; i < branches_.size(); ++i) branches_[i].provably_uniform = !div_branch[i];
}

}  // namespace simt::ptx
