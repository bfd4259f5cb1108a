// Test helper for the ALU handler suites: builds a one-instruction Program
// by hand, runs it through Executor::step on a small CTA, and returns the
// registers of one thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/ir_builder.h"
#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/ir.h"
#include "util/error.h"

namespace alu_test {

using simt::ptx::Instr;
using simt::ptx::Op;
using simt::ptx::Operand;
using simt::ptx::Type;

using simt::test::R;
inline Operand I(int64_t v) { return simt::test::Imm(v); }
inline Operand F32(float f) { return simt::test::ImmF32(f); }
inline Operand V(std::initializer_list<uint32_t> regs) { return simt::test::Vec(regs); }
inline Instr mk(Op op, Type ty, std::initializer_list<Operand> ops, uint32_t flags = 0) {
  Instr in = simt::test::make(op, ty, ops);
  in.flags = flags;
  return in;
}

inline uint32_t fbits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
inline uint64_t dbits(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }
inline float bitsf(uint64_t b) { uint32_t u = static_cast<uint32_t>(b); float f; std::memcpy(&f, &u, 4); return f; }
inline double bitsd(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }

// Runs `in` on thread 0 with registers of the given types and initial values.
struct OneInstr {
  std::vector<Type> types;
  uint8_t carry_in = 0, carry_out = 0;
  explicit OneInstr(std::vector<Type> reg_types) : types(std::move(reg_types)) {}

  std::vector<uint64_t> run(const Instr& in, const std::vector<uint64_t>& init) {
    simt::ptx::Program prog;
    prog.kernel = "alu_test";
    for (size_t i = 0; i < types.size(); ++i) prog.regs.push_back({"%r" + std::to_string(i), types[i]});
    prog.code.push_back(in);
    prog.text.push_back("alu test instruction");
    simt::ptx::FuncRange entry;
    entry.name = "alu_test";
    entry.end = 1;
    prog.funcs.push_back(entry);
    simt::func::Executor ex(prog);  // throws if the instruction is refused
    simt::func::LaunchGeometry geom;
    std::vector<uint8_t> params;
    simt::func::CtaState cta(prog, geom, {{0, 0, 0}}, params);
    for (size_t i = 0; i < init.size(); ++i) cta.reg(static_cast<uint32_t>(i), 0) = init[i];
    cta.carry(0) = carry_in;
    simt::func::ExecEnv env;
    simt::func::StepResult out;
    ex.step(cta, env, 0, simt::func::ThreadMask::range(0, 1), out);
    last_control = out.control;
    carry_out = cta.carry(0);
    std::vector<uint64_t> regs(types.size());
    for (size_t i = 0; i < types.size(); ++i) regs[i] = cta.reg(static_cast<uint32_t>(i), 0);
    return regs;
  }
  simt::func::Control last_control = simt::func::Control::Next;
};

// True when the executor accepts the instruction; `why` gets the reason otherwise.
inline bool supported(const Instr& in, std::string* why = nullptr) {
  return simt::func::executor_supports(in, why);
}

}  // namespace alu_test
