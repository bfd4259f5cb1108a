// Builds small linked ptx::Program objects by hand for the CFG, liveness and
// inspect tests: instructions with their operands, labels resolved to PCs,
// function ranges and calls, as the linker would produce them (ir.h).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/ir_builder.h"
#include "ptx/ir.h"

namespace simt::test {

class CfgProgramBuilder {
 public:
  using Op = ptx::Op;
  using Operand = ptx::Operand;

  explicit CfgProgramBuilder(std::string kernel = "k") { prog_.kernel = std::move(kernel); }

  // Declares a register and returns its index.
  uint32_t reg(const std::string& name, ptx::Type t = ptx::Type::B32) {
    prog_.regs.push_back({name, t});
    return static_cast<uint32_t>(prog_.regs.size() - 1);
  }

  // Starts a function range at the current PC; the first one is the entry.
  void func(const std::string& name) {
    close_func();
    ptx::FuncRange fr;
    fr.name = name;
    fr.begin = pc();
    prog_.funcs.push_back(fr);
  }

  // Defines a label at the current PC (labels are per function).
  void label(const std::string& name) { labels_[{cur_func(), name}] = pc(); }

  static Operand R(uint32_t r) { return test::R(r); }
  static Operand I(int64_t v) { return test::Imm(v); }
  static Operand S(ptx::Sreg s) { return test::Sreg(s); }
  static Operand A(uint32_t base, int64_t off = 0) { return test::Addr(base, off); }
  static Operand V(std::initializer_list<uint32_t> regs) { return test::Vec(regs); }

  // A plain instruction; returns its PC.
  uint32_t op(Op op, std::initializer_list<Operand> ops, const std::string& text = "",
              ptx::Space space = ptx::Space::None, ptx::InstrClass cls = ptx::InstrClass::Int) {
    ptx::Instr in;
    in.op = op;
    in.space = space;
    in.cls = cls;
    for (const Operand& o : ops) in.ops[in.nops++] = o;
    return emit(in, text.empty() ? ptx::op_name(op) : text);
  }
  // Guards the most recently emitted instruction with `@p` / `@!p`.
  void guard_last(uint32_t p, bool neg = false) {
    ptx::Instr& in = prog_.code.back();
    in.guard = R(p);
    in.guard.neg = neg;
    prog_.text.back() = std::string(neg ? "@!" : "@") + prog_.regs[p].name + " " + prog_.text.back();
  }
  uint32_t bra(const std::string& target, uint32_t guard = ptx::kNoReg, bool neg = false, bool uni = false) {
    ptx::Instr in;
    in.op = Op::Bra;
    in.cls = ptx::InstrClass::Branch;
    in.nops = 1;
    in.ops[0].kind = Operand::Kind::Label;
    if (uni) in.flags |= ptx::kUni;
    uint32_t at = emit(in, std::string(uni ? "bra.uni " : "bra ") + target);
    pending_.push_back({at, cur_func(), target});
    if (guard != ptx::kNoReg) guard_last(guard, neg);
    return at;
  }
  uint32_t ret() { return control(Op::Ret); }
  uint32_t exit() { return control(Op::Exit); }
  uint32_t call(const std::string& callee) {
    ptx::Instr in;
    in.op = Op::Call;
    in.cls = ptx::InstrClass::Branch;
    in.call_info = static_cast<uint32_t>(prog_.calls.size());
    prog_.calls.emplace_back();
    calls_.push_back({in.call_info, callee});
    return emit(in, "call " + callee);
  }

  ptx::Program build() {
    close_func();
    for (const auto& pb : pending_) {
      auto it = labels_.find({pb.func, pb.label});
      if (it == labels_.end()) throw std::logic_error("builder: unknown label " + pb.label);
      prog_.code[pb.pc].ops[0].imm = it->second;
    }
    for (const auto& c : calls_) {
      bool found = false;
      for (uint32_t f = 0; f < prog_.funcs.size(); ++f)
        if (prog_.funcs[f].name == c.second) {
          prog_.calls[c.first].callee_pc = prog_.funcs[f].begin;
          prog_.calls[c.first].callee_func = f;
          found = true;
        }
      if (!found) throw std::logic_error("builder: unknown callee " + c.second);
    }
    return prog_;
  }

  uint32_t pc() const { return static_cast<uint32_t>(prog_.code.size()); }

 private:
  struct Pending {
    uint32_t pc, func;
    std::string label;
  };
  uint32_t cur_func() const { return prog_.funcs.empty() ? 0 : static_cast<uint32_t>(prog_.funcs.size() - 1); }
  void close_func() {
    if (!prog_.funcs.empty()) prog_.funcs.back().end = pc();
  }
  uint32_t emit(const ptx::Instr& in, const std::string& text) {
    if (prog_.funcs.empty()) func(prog_.kernel);
    prog_.code.push_back(in);
    prog_.text.push_back(text);
    return pc() - 1;
  }
  uint32_t control(Op op) {
    ptx::Instr in;
    in.op = op;
    in.cls = ptx::InstrClass::Branch;
    return emit(in, ptx::op_name(op));
  }

  ptx::Program prog_;
  std::map<std::pair<uint32_t, std::string>, uint32_t> labels_;
  std::vector<Pending> pending_;
  std::vector<std::pair<uint32_t, std::string>> calls_;
};

}  // namespace simt::test
