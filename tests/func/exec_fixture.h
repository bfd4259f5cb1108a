// Test helper for the functional executor: build a Program from hand-made
// instructions, a CTA and global memory, and run Executor::step on any set of
// threads. Used by the tests/func/test_exec_*.cpp suites.
#pragma once

#include <cstring>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "func/cta_state.h"
#include "func/executor.h"
#include "func/global_memory.h"
#include "common/ir_builder.h"
#include "ptx/ir.h"

namespace simt::test {

using func::ThreadMask;
using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Space;
using ptx::Type;

// ---------------------------------------------------------------- fixture
struct ExecFixture {
  ptx::Program prog;
  func::GlobalMemory mem;
  std::vector<uint8_t> params;
  std::ostringstream printed;
  func::ExecEnv env;
  func::LaunchGeometry geom;
  std::unique_ptr<func::CtaState> cta;
  std::unique_ptr<func::Executor> exec;
  func::StepResult out;

  ExecFixture() {
    prog.kernel = "k";
    prog.source_path = "test.ptx";
    ptx::FuncRange entry;
    entry.name = "k";
    prog.funcs.push_back(entry);
    env.global = &mem;
    env.printf_out = &printed;
  }

  uint32_t reg(Type ty) {
    prog.regs.push_back(ptx::RegInfo{"%r" + std::to_string(prog.regs.size()), ty});
    return static_cast<uint32_t>(prog.regs.size() - 1);
  }
  // Appends an instruction (line = its PC + 1) and returns its PC.
  uint32_t add(Instr in, const std::string& text = "") {
    in.line = static_cast<uint32_t>(prog.code.size() + 1);
    prog.code.push_back(in);
    prog.text.push_back(text.empty() ? std::string(ptx::op_name(in.op)) : text);
    return static_cast<uint32_t>(prog.code.size() - 1);
  }
  uint32_t add_guarded(Instr in, uint32_t pred_reg, bool neg = false) {
    in.guard = R(pred_reg, neg);
    return add(in);
  }

  // Creates the Executor and the CTA once the program is complete.
  void build(uint32_t threads, uint32_t shared_bytes = 0, uint32_t local_bytes = 0) {
    geom.block = {{threads, 1, 1}};
    prog.static_shared_bytes = shared_bytes;
    prog.local_bytes = local_bytes;
    if (prog.funcs.size() == 1) prog.funcs[0].end = static_cast<uint32_t>(prog.code.size());
    prog.param_bytes = static_cast<uint32_t>(params.size());
    exec = std::make_unique<func::Executor>(prog);
    cta = std::make_unique<func::CtaState>(prog, geom, func::Dim3{{0, 0, 0}}, params);
  }

  func::StepResult& run(uint32_t pc, const ThreadMask& m) {
    exec->step(*cta, env, pc, m, out);
    return out;
  }
  func::StepResult& run(uint32_t pc) { return run(pc, cta->all_threads()); }

  uint64_t& r(uint32_t reg, uint32_t t) { return cta->reg(reg, t); }
  void set_all(uint32_t reg, uint64_t v) {
    for (uint32_t t = 0; t < cta->threads(); ++t) cta->reg(reg, t) = v;
  }
  // Allocates `n` bytes of global memory and fills it with `fill`.
  uint64_t alloc(uint64_t n, uint8_t fill = 0) {
    const uint64_t a = mem.allocate(n);
    std::vector<uint8_t> bytes(n, fill);
    mem.write(a, bytes.data(), n);
    return a;
  }
};

inline ThreadMask lanes(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}

}  // namespace simt::test
