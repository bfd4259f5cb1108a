#include "ptx/inspect.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include "ptx/liveness.h"

namespace simt::ptx {

namespace {

// A table of string cells printed with each column padded to its widest
// cell; numeric-looking columns are right-aligned, the last column is never
// padded (free text).
class Table {
 public:
  explicit Table(std::vector<std::string> header, std::vector<bool> right)
      : right_(std::move(right)) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostringstream& os, const std::string& indent) const {
    std::vector<size_t> width(rows_[0].size(), 0);
    for (const auto& r : rows_)
      for (size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (const auto& r : rows_) {
      std::string line = indent;
      for (size_t c = 0; c < r.size(); ++c) {
        const bool last = c + 1 == r.size();
        const size_t pad = width[c] - r[c].size();
        if (c) line += "  ";
        if (right_[c]) line += std::string(pad, ' ') + r[c];
        else line += last ? r[c] : r[c] + std::string(pad, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      os << line << '\n';
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

std::string num(uint64_t v) { return std::to_string(v); }
std::string pc_or(uint32_t pc, const char* none) { return pc == kNoPc ? none : std::to_string(pc); }
std::string percent(uint64_t part, uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

}  // namespace

std::string inspect_report(const Program& p, const Cfg& cfg) {
  Liveness live(p, cfg);
  const auto& blocks = cfg.blocks();
  std::ostringstream os;
  os << "kernel " << p.kernel;
  if (!p.source_path.empty()) os << "  (" << p.source_path << ")";
  os << "\n  instructions " << p.code.size() << "  blocks " << blocks.size() << "  branches "
     << cfg.branches().size() << "  loops " << cfg.loops().size() << "  functions " << p.funcs.size()
     << "  registers " << p.num_regs();
  if (!p.reg_slot.empty()) os << " in " << p.num_slots() << " rows";  // ptx/register_slots.h
  os << "\n";

  os << "\nfunctions\n";
  Table funcs({"name", "pcs", "blocks"}, {false, false, true});
  for (uint32_t f = 0; f < p.funcs.size(); ++f)
    funcs.add({p.funcs[f].name, "[" + num(p.funcs[f].begin) + ", " + num(p.funcs[f].end) + ")",
               num(cfg.func_end_block(f) - cfg.func_first_block(f))});
  funcs.print(os, "  ");

  os << "\nblocks (succs: block ids, exit = the function's virtual exit; loop = header block of the innermost loop)\n";
  Table bt({"id", "func", "pcs", "succs", "ipdom", "live-in", "live-out", "loop"},
           {true, true, false, false, true, true, true, true});
  for (const BasicBlock& b : blocks) {
    std::string succs;
    for (uint32_t s : b.succs) succs += (succs.empty() ? "" : " ") + num(s);
    if (b.exits) succs += succs.empty() ? "exit" : " exit";
    if (succs.empty()) succs = "-";
    const uint32_t li = cfg.innermost_loop(b.id);
    bt.add({num(b.id), num(b.func), "[" + num(b.begin) + ", " + num(b.end) + ")", succs,
            cfg.ipdom(b.id) == Cfg::kNone ? "exit" : num(cfg.ipdom(b.id)), num(live.live_in_count(b.id)),
            num(live.live_out_count(b.id)), li == Cfg::kNone ? "-" : num(cfg.loops()[li].header)});
  }
  bt.print(os, "  ");

  os << "\nbranches (reconv = start PC of the IPDOM, likely = likely-convergence PC)\n";
  Table br({"pc", "target", "reconv", "likely", "dir", "uniform", "provably-uniform", "instruction"},
           {true, true, true, true, false, false, false, false});
  for (const BranchInfo& b : cfg.branches())
    br.add({num(b.pc), num(b.target), pc_or(b.reconv_pc, "exit"), pc_or(b.likely_pc, "-"),
            b.backward ? "back" : "fwd", b.uniform ? "yes" : "no", b.provably_uniform ? "yes" : "no",
            b.pc < p.text.size() ? p.text[b.pc] : std::string(op_name(p.code[b.pc].op))});
  br.print(os, "  ");

  // Instruction mix (static counts over the whole program).
  const uint64_t total = p.code.size();
  std::array<uint64_t, 7> by_class{};
  std::vector<uint64_t> by_op(static_cast<size_t>(Op::Count), 0);
  for (const Instr& in : p.code) {
    ++by_class[static_cast<size_t>(in.cls)];
    ++by_op[static_cast<size_t>(in.op)];
  }
  os << "\ninstruction mix by class\n";
  Table ct({"class", "count", "share"}, {false, true, true});
  for (size_t c = 0; c < by_class.size(); ++c)
    if (by_class[c] || static_cast<InstrClass>(c) != InstrClass::Tensor)  // a TENSOR row only when used
      ct.add({class_name(static_cast<InstrClass>(c)), num(by_class[c]), percent(by_class[c], total)});
  ct.print(os, "  ");

  os << "\ninstruction mix by opcode\n";
  std::vector<std::pair<uint64_t, size_t>> ops;
  for (size_t o = 0; o < by_op.size(); ++o)
    if (by_op[o]) ops.emplace_back(by_op[o], o);
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  Table ot({"opcode", "count", "share"}, {false, true, true});
  for (const auto& [count, o] : ops) ot.add({op_name(static_cast<Op>(o)), num(count), percent(count, total)});
  ot.print(os, "  ");
  return os.str();
}

}  // namespace simt::ptx
