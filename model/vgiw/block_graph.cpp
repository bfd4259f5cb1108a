#include "vgiw/block_graph.h"

#include "util/error.h"

namespace simt::vgiw {

namespace {

bool waits(const ptx::Instr& in) {
  return (in.op == ptx::Op::Bar || in.op == ptx::Op::Barrier) && !(in.flags & ptx::kArrive);
}

bool warp_level(ptx::Op op) {
  switch (op) {
    case ptx::Op::Shfl:
    case ptx::Op::Vote:
    case ptx::Op::Match:
    case ptx::Op::Redux:
    case ptx::Op::Activemask:
    case ptx::Op::BarWarp: return true;
    default: return false;
  }
}

}  // namespace

std::string where(const ptx::Program& p, uint32_t pc) {
  std::string s = "kernel '" + p.kernel + "'";
  if (pc < p.code.size() && p.code[pc].line) s += " line " + std::to_string(p.code[pc].line);
  s += " (pc " + std::to_string(pc);
  if (pc < p.text.size() && !p.text[pc].empty()) s += ": " + p.text[pc];
  return s + ")";
}

BlockGraph::BlockGraph(const ptx::Program& p, const ptx::Cfg& cfg, const std::vector<uint32_t>& starts) {
  if (p.funcs.empty()) throw input_error("vgiw: program '" + p.kernel + "' has no entry function");
  const ptx::FuncRange& f = p.funcs[0];
  for (uint32_t pc = f.begin; pc < f.end; ++pc) {
    const ptx::Op op = p.code[pc].op;
    if (op == ptx::Op::Call)
      throw input_error("vgiw: " + where(p, pc) +
                        ": calls are not mapped to the grid (inline the callee, e.g. nvcc without -G)");
    if (op == ptx::Op::Cp)
      throw input_error("vgiw: " + where(p, pc) +
                        ": cp.async is not mapped to the grid (copy through registers: ld.global, st.shared)");
    // A nanosleep is a spin-wait's back-off: the basic-block scheduler would
    // keep dispatching the waiting threads' block ahead of the one the wait
    // is for (which the SIMT SM avoids by suspending the sleeping warp).
    if (op == ptx::Op::Nanosleep)
      throw input_error("vgiw: " + where(p, pc) +
                        ": nanosleep is not modelled on the grid (the basic-block scheduler has no notion of a "
                        "sleeping thread, so a spin-wait could starve the thread it waits for); run the kernel "
                        "on a SIMT core");
    if (warp_level(op))
      throw input_error("vgiw: " + where(p, pc) + ": " + ptx::op_name(op) +
                        " is a warp-level instruction; the VGIW core runs threads one by one and does not "
                        "form warps");
  }

  // Pieces: each Cfg block of the entry function, cut after waiting barriers
  // and before the asked-for starts.
  std::vector<uint8_t> starts_here(p.code.size() + 1, 0);
  for (uint32_t pc : starts)
    if (pc < starts_here.size()) starts_here[pc] = 1;
  block_of_pc_.assign(p.code.size(), kNone);
  const uint32_t first = cfg.func_first_block(0), last = cfg.func_end_block(0);
  std::vector<uint32_t> first_piece(last - first, kNone);
  for (uint32_t b = first; b < last; ++b) {
    const ptx::BasicBlock& cb = cfg.blocks()[b];
    first_piece[b - first] = static_cast<uint32_t>(blocks_.size());
    uint32_t start = cb.begin;
    for (uint32_t pc = cb.begin; pc < cb.end; ++pc) {
      if (!waits(p.code[pc]) && pc + 1 < cb.end && !starts_here[pc + 1]) continue;
      Block piece;
      piece.begin = start;
      piece.end = pc + 1;
      piece.cfg_block = b;
      piece.barrier = waits(p.code[pc]);
      blocks_.push_back(piece);
      start = pc + 1;
    }
  }
  for (uint32_t i = 0; i < blocks_.size(); ++i) {
    Block& bl = blocks_[i];
    for (uint32_t pc = bl.begin; pc < bl.end; ++pc) block_of_pc_[pc] = i;
  }

  // Successors: within a Cfg block the next piece; the last piece takes the
  // Cfg block's edges.
  for (uint32_t i = 0; i < blocks_.size(); ++i) {
    Block& bl = blocks_[i];
    const ptx::BasicBlock& cb = cfg.blocks()[bl.cfg_block];
    if (bl.end < cb.end) {
      bl.succs.push_back(i + 1);
      continue;
    }
    for (uint32_t s : cb.succs) bl.succs.push_back(first_piece[s - first]);
    const ptx::Instr& term = p.code[bl.end - 1];
    const bool guarded = term.guard.kind != ptx::Operand::Kind::None;
    if (term.op == ptx::Op::Bra && guarded) {
      const ptx::BranchInfo* br = cfg.branch(bl.end - 1);
      if (br) bl.taken = block_of(br->target);
    }
    const bool ends_thread = term.op == ptx::Op::Exit || term.op == ptx::Op::Ret || term.op == ptx::Op::Trap;
    const bool falls_off = bl.end == f.end && !(term.op == ptx::Op::Bra && !guarded);
    bl.exits = ends_thread || falls_off;
    if (bl.succs.size() > 2)
      throw internal_error("vgiw: " + where(p, bl.end - 1) + ": a block with more than two successors");
  }

  // Reachable from the entry block.
  for (Block& bl : blocks_) bl.reachable = false;
  std::vector<uint32_t> work;
  if (!blocks_.empty()) {
    blocks_[0].reachable = true;
    work.push_back(0);
  }
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : blocks_[b].succs)
      if (!blocks_[s].reachable) {
        blocks_[s].reachable = true;
        work.push_back(s);
      }
  }
}

}  // namespace simt::vgiw
