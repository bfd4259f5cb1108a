#include "vgiw/if_conversion.h"

#include <string>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/def_use.h"
#include "ptx/opcode_table.h"
#include "ptx/register_slots.h"
#include "util/error.h"

namespace simt::vgiw {

namespace {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;

bool guarded(const Instr& in) { return in.guard.kind != Operand::Kind::None; }
bool label_bra(const Instr& in) { return in.op == Op::Bra && in.nops >= 1 && in.ops[0].kind == Operand::Kind::Label; }

// What may run under a guard inside an arm with the same effect as behind
// the branch: not control flow, barriers, calls, sleeps or warp-level work.
bool guardable(const Instr& in) {
  switch (in.op) {
    case Op::Bra: case Op::Brx: case Op::Call: case Op::Ret: case Op::Exit: case Op::Trap:
    case Op::Bar: case Op::Barrier: case Op::BarWarp: case Op::Nanosleep: case Op::Brkpt: case Op::Pmevent:
    case Op::Cp: case Op::Shfl: case Op::Vote: case Op::Match: case Op::Redux: case Op::Activemask:
      return false;
    default:
      return true;
  }
}

struct Region {
  uint32_t branch = 0;                  // the `@G bra`
  uint32_t then_begin = 0, then_end = 0;  // the fall-through arm (runs under !G)
  uint32_t else_begin = 0, else_end = 0;  // a diamond's taken arm (runs under G); empty in a triangle
  uint32_t end = 0;                     // the join: first PC after the region
  bool diamond = false;
};

Operand pred_reg(uint32_t r, bool neg) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.reg = r;
  o.neg = neg;
  return o;
}

class Converter {
 public:
  Converter(ptx::Program& p, uint32_t limit, IfConversionStats& st)
      : p_(p), limit_(limit), st_(st), first_new_(p.num_regs()) {}

  // Converts the first convertible region (lowest branch PC); false when none is left.
  bool convert_one() {
    count_targets();
    const ptx::FuncRange& f = p_.funcs[0];
    for (uint32_t b = f.begin; b < f.end; ++b) {
      Region r;
      if (!region_at(b, r)) continue;
      std::vector<Instr> code;
      std::vector<std::string> text;
      uint32_t new_regs = 0;
      if (!lower(r, code, text, new_regs) || code.size() > limit_) continue;
      splice(r, code, text, new_regs);
      ++(r.diamond ? st_.diamonds : st_.triangles);
      st_.branches_removed += r.diamond ? 2 : 1;
      return true;
    }
    return false;
  }

 private:
  void count_targets() {
    targets_.assign(p_.code.size() + 1, 0);
    for (const Instr& in : p_.code)
      if (label_bra(in) && in.ops[0].imm >= 0 && static_cast<uint64_t>(in.ops[0].imm) <= p_.code.size())
        ++targets_[static_cast<size_t>(in.ops[0].imm)];
  }

  bool entered(uint32_t from, uint32_t to) const {  // some branch targets a PC in [from, to)
    for (uint32_t pc = from; pc < to; ++pc)
      if (targets_[pc]) return true;
    return false;
  }

  bool straight(uint32_t from, uint32_t to) const {
    for (uint32_t pc = from; pc < to; ++pc)
      if (!guardable(p_.code[pc])) return false;
    return true;
  }

  // A triangle or diamond headed by the branch at `b` (if-conversion.h).
  bool region_at(uint32_t b, Region& r) const {
    const Instr& br = p_.code[b];
    if (!label_bra(br) || br.guard.kind != Operand::Kind::Reg) return false;
    const uint32_t end = p_.funcs[0].end;
    const int64_t l = br.ops[0].imm;
    if (l <= b || l > end) return false;  // backward (a loop's latch) or outside the function
    const uint32_t target = static_cast<uint32_t>(l);
    r.branch = b;
    r.then_begin = b + 1;
    const Instr& last = p_.code[target - 1];
    if (target - 1 > b && label_bra(last) && !guarded(last) && last.ops[0].imm >= l && last.ops[0].imm <= end) {
      // Diamond: the then arm jumps over the else arm to the join.
      r.diamond = true;
      r.then_end = target - 1;
      r.else_begin = target;
      r.else_end = r.end = static_cast<uint32_t>(last.ops[0].imm);
      // Only this branch enters the else arm; nothing enters the then arm or its jump.
      if (targets_[target] != 1 || entered(b + 1, target) || entered(target + 1, r.end)) return false;
      return straight(r.then_begin, r.then_end) && straight(r.else_begin, r.else_end);
    }
    r.then_end = r.end = target;
    return !entered(b + 1, target) && straight(r.then_begin, r.then_end);
  }

  std::string name(const Operand& o) const { return (o.neg ? "!" : "") + reg_name(o.reg); }
  // Registers lower() adds are named here before splice() creates them, in the same order.
  std::string reg_name(uint32_t r) const {
    return r < p_.num_regs() ? p_.regs[r].name : "%<if>" + std::to_string(next_name_ + (r - p_.num_regs()));
  }
  std::string text_of(uint32_t pc) const { return pc < p_.text.size() ? p_.text[pc] : std::string(); }
  static std::string unguarded_text(const std::string& t) {
    if (t.empty() || t[0] != '@') return t;
    const size_t sp = t.find_first_of(" \t");
    return sp == std::string::npos ? t : t.substr(t.find_first_not_of(" \t", sp));
  }

  Instr pred_op(const char* mnemonic, uint32_t line) const {
    Instr in;
    if (!ptx::decode_mnemonic(mnemonic, in))
      throw internal_error(std::string("vgiw if-conversion: cannot decode ") + mnemonic);
    in.cls = ptx::classify(in);
    in.line = line;
    return in;
  }

  // The region as straight-line predicated code; false when it cannot be.
  // `new_regs`: predicate registers it needs beyond the program's.
  bool lower(const Region& r, std::vector<Instr>& code, std::vector<std::string>& text, uint32_t& new_regs) const {
    const Instr& br = p_.code[r.branch];
    const uint32_t line = br.line;
    const uint32_t base = p_.num_regs();
    Operand g = br.guard;  // the taken arm runs under G, the fall-through arm under !G
    bool redefined = false;
    for (uint32_t pc = r.branch + 1; pc < r.end; ++pc) {
      const ptx::DefUse du = ptx::def_use(p_.code[pc]);
      if (du.defs.contains(g.reg)) redefined = true;
    }
    new_regs = 0;
    if (redefined) {  // the arms read G as it was at the branch
      const uint32_t s = base + new_regs++;
      Instr mv = pred_op("mov.pred", line);
      mv.nops = 2;
      mv.ops[0] = pred_reg(s, false);
      mv.ops[1] = pred_reg(g.reg, false);
      code.push_back(mv);
      text.push_back("mov.pred " + reg_name(s) + ", " + p_.regs[g.reg].name + ";  // if-converted");
      g.reg = s;
    }
    uint32_t temp = ptx::kNoReg;  // one conjunction register per region, read right after it is written
    auto arm = [&](uint32_t from, uint32_t to, const Operand& a) {
      for (uint32_t pc = from; pc < to; ++pc) {
        Instr in = p_.code[pc];
        const std::string t = text_of(pc);
        const ptx::DefUse du = ptx::def_use(in);
        bool own = !guarded(in) && du.defs.size() > 0;  // writes only the conversion's registers
        for (uint32_t d : du.defs)
          if (d < first_new_) own = false;
        if (own) {
          code.push_back(in);
          text.push_back(t);
          continue;
        }
        if (!guarded(in) || (in.guard.reg == a.reg && in.guard.neg == a.neg)) {
          in.guard = a;
          code.push_back(in);
          text.push_back("@" + name(a) + " " + unguarded_text(t));
          continue;
        }
        if (temp == ptx::kNoReg) temp = base + new_regs++;
        Instr conj = pred_op("and.pred", line);
        conj.nops = 3;
        conj.ops[0] = pred_reg(temp, false);
        conj.ops[1] = a;
        conj.ops[2] = in.guard;
        code.push_back(conj);
        text.push_back("and.pred " + reg_name(temp) + ", " + name(a) + ", " + name(in.guard) +
                       ";  // if-converted");
        in.guard = pred_reg(temp, false);
        code.push_back(in);
        text.push_back("@" + reg_name(temp) + " " + unguarded_text(t));
      }
    };
    arm(r.then_begin, r.then_end, pred_reg(g.reg, !g.neg));
    if (r.diamond) arm(r.else_begin, r.else_end, g);
    return true;
  }

  // Replaces [r.branch, r.end) with `code` and renumbers every branch target.
  void splice(const Region& r, std::vector<Instr>& code, std::vector<std::string>& text, uint32_t new_regs) {
    for (uint32_t i = 0; i < new_regs; ++i) {
      p_.regs.push_back({"%<if>" + std::to_string(next_name_++), ptx::Type::Pred});
      if (!p_.reg_slot.empty()) p_.reg_slot.push_back(p_.reg_slots++);  // shared again at the end
    }
    st_.added += static_cast<uint32_t>(code.size()) - (r.then_end - r.then_begin) - (r.else_end - r.else_begin);
    const uint32_t old_len = r.end - r.branch, new_len = static_cast<uint32_t>(code.size());
    auto moved = [&](uint32_t pc) {  // old PC -> new PC; inside the region only its head is a target
      if (pc <= r.branch) return pc;
      if (pc >= r.end) return pc - old_len + new_len;
      return r.branch;
    };
    p_.code.erase(p_.code.begin() + r.branch, p_.code.begin() + r.end);
    p_.code.insert(p_.code.begin() + r.branch, code.begin(), code.end());
    if (p_.text.size() < r.end) p_.text.resize(r.end);
    p_.text.erase(p_.text.begin() + r.branch, p_.text.begin() + r.end);
    p_.text.insert(p_.text.begin() + r.branch, text.begin(), text.end());
    for (Instr& in : p_.code)
      if (label_bra(in)) in.ops[0].imm = moved(static_cast<uint32_t>(in.ops[0].imm));
    p_.funcs[0].end = moved(p_.funcs[0].end);
  }

  ptx::Program& p_;
  uint32_t limit_;
  IfConversionStats& st_;
  uint32_t first_new_;            // registers from here on are the conversion's
  std::vector<uint32_t> targets_;  // per PC: branches targeting it
  uint32_t next_name_ = 1;
};

}  // namespace

ptx::Program if_convert(const ptx::Program& p, uint32_t limit, IfConversionStats* stats) {
  ptx::Program out = p;
  IfConversionStats st;
  const bool one_function = p.funcs.size() == 1 && p.funcs[0].begin == 0 && p.funcs[0].end == p.code.size();
  if (limit > 0 && one_function && p.calls.empty()) {
    Converter c(out, limit, st);
    while (c.convert_one()) {
    }
    // The kernel's register rows were shared by its liveness before the
    // conversion; the arms now read the branch predicate, and guarded writes
    // keep old values, so the rows are shared again by the new liveness.
    if (st.branches_removed && !p.reg_slot.empty()) ptx::share_register_slots(out, ptx::Cfg(out));
  }
  if (stats) *stats = st;
  return out;
}

}  // namespace simt::vgiw
