// Module -> Program: links one .entry with every .func it calls into one flat
// program (PC = index into Program::code) with one register space and every
// symbol, label and call resolved (see ir.h, Program). Layout decisions:
//   - the entry body is PC 0, each reachable .func follows in discovery order;
//   - registers: each function's registers follow the previous ones, plus one
//     hidden U32 register per .func for its return PC (FuncRange::retaddr_reg);
//   - kernel .param formals stay Space::Param (offsets into the parameter buffer);
//   - .func formals/returns, call-site .param variables and .local variables get
//     static slots in the per-thread local area (one frame per function);
//     ld/st.param on them become ld/st.local with absolute addresses;
//   - recursion: the call graph's strongly connected components are found
//     (FuncRange::scc / recursive); a call that may re-enter an active
//     function saves that function's registers and frame on the thread's call
//     stack (func/exec_control.cpp), so one static frame per function is enough;
//   - indirect calls: with one in the program, every function whose address is
//     taken (mov, initialisers) is linked too; a function's address is
//     func_address(module index), and Program::func_by_module maps it back;
//   - .shared variables get static offsets; extern .shared arrays start at
//     static_shared_bytes (rounded up to 16);
//   - module .global/.const variables take the loader's addresses;
//   - every remaining symbol operand becomes Imm(address), every [sym+off] an
//     absolute Addr (reg = kNoReg), every label Label(imm = PC); a direct `call`
//     keeps no operands (nops = 0), an indirect one its target register as
//     ops[0]: the rest is in Program::calls[call_info].
#pragma once

#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simt::ptx {

// Links `entry` of `m`. `addrs[i]` is the device address of m.globals[i] (only
// .global/.const/.texref entries are read). Throws simt::Error(BadInput).
Program link(const Module& m, const std::string& entry, const SymbolAddresses& addrs);

// Names of the .entry functions with a body, in file order.
std::vector<std::string> entry_names(const Module& m);

// entry_names(), for callers that need at least one kernel (simtlab inspect):
// throws simt::input_error naming the file when it has none (an empty or
// header-only file, or only .func / extern declarations).
std::vector<std::string> kernel_names(const Module& m);

}  // namespace simt::ptx
