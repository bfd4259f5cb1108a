// Links one kernel entry and the functions it calls into a Program; see
// link.h for the layout rules.
#include "ptx/link.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "util/error.h"

namespace simt::ptx {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

uint32_t natural_align(uint32_t align, Type t) {
  if (align) return align;
  uint32_t b = type_bytes(t);
  return b ? b : 1;
}

Builtin builtin_for(const std::string& name) {
  if (name == "vprintf") return Builtin::Vprintf;
  if (name == "malloc") return Builtin::Malloc;
  if (name == "free") return Builtin::Free;
  if (name == "__assertfail") return Builtin::AssertFail;
  return Builtin::None;
}

// Where a symbol ended up.
struct Placed {
  Space space = Space::None;  // Param (kernel buffer), Local, Shared, Global, Const, Tex; None = function
  uint64_t addr = 0;
  uint64_t size = 0;
  bool placed = false;
};

class Linker {
 public:
  Linker(const Module& m, const SymbolAddresses& addrs) : m_(m), addrs_(addrs) {}

  Program run(const std::string& entry);

 private:
  [[noreturn]] void fail_at(const Instr& in, const std::string& msg) const {
    throw input_error(m_.path + ":" + std::to_string(in.line) + ":" + std::to_string(in.col) + ": " + msg);
  }
  const Instr& call_instr(const Function& f, uint32_t call_index) const {
    for (const Instr& in : f.code)
      if (in.op == Op::Call && in.call_info == call_index) return in;
    return f.code.front();
  }
  void visit(uint32_t fi);
  void link_address_taken();
  void find_components();
  void layout();
  Placed resolve(uint32_t order_pos, uint32_t sym, const Instr& at);
  void emit(uint32_t order_pos);

  const Module& m_;
  const SymbolAddresses& addrs_;
  Program p_;
  std::vector<uint32_t> order_;             // module function indices, entry first
  std::vector<uint32_t> order_of_;          // module function index -> position in order_ (or kNoPc)
  std::vector<uint8_t> state_;              // 0 unseen, 1 visited
  std::vector<std::vector<uint32_t>> callees_;  // per order position: order positions it calls directly
  std::vector<uint8_t> calls_indirect_;     // per order position: has an indirect call site
  std::vector<uint8_t> address_taken_;      // per module function: its address is taken somewhere
  std::vector<uint32_t> reg_base_;          // per order position
  std::vector<std::vector<Placed>> vars_;   // per order position: Function::vars
  std::vector<std::vector<Placed>> params_, rets_;
  std::vector<Placed> globals_;
};

// The CUDA device runtime's entry points (nvcc -rdc): what a kernel calls
// to launch kernels or graphs from the device, or to wait for them.
bool is_device_runtime(const std::string& name) {
  for (const char* p : {"__cudaCDP", "cudaLaunchDevice", "cudaGetParameterBuffer", "cudaDeviceSynchronize",
                        "cudaGraphLaunch", "cudaStreamCreateWithFlags", "cudaCGGetIntrinsicHandle"})
    if (name.rfind(p, 0) == 0) return true;
  return false;
}

void Linker::visit(uint32_t fi) {
  state_[fi] = 1;
  const uint32_t k = static_cast<uint32_t>(order_.size());
  order_of_[fi] = k;
  order_.push_back(fi);
  callees_.emplace_back();
  calls_indirect_.push_back(0);
  const Function& f = m_.functions[fi];
  // Functions whose address this one takes (mov %rd, f): an indirect call may reach them.
  for (const Instr& in : f.code)
    for (int j = 0; j < in.nops; ++j)
      if (in.op != Op::Call && in.ops[j].kind == Operand::Kind::Sym && in.ops[j].sym < f.symrefs.size() &&
          f.symrefs[in.ops[j].sym].kind == SymKind::Func)
        address_taken_[f.symrefs[in.ops[j].sym].index] = 1;
  for (uint32_t c = 0; c < f.calls.size(); ++c) {
    const CallSite& cs = f.calls[c];
    const Instr& at = call_instr(f, c);
    if (cs.callee_sym >= f.symrefs.size()) {
      if (cs.callee_reg == kNoReg) fail_at(at, "call without a target");
      calls_indirect_[k] = 1;
      continue;
    }
    const SymRef& r = f.symrefs[cs.callee_sym];
    if (r.kind != SymKind::Func) fail_at(at, "call target '" + f.symbols[cs.callee_sym] + "' is not a function");
    const Function& g = m_.functions[r.index];
    if (g.is_extern) {
      if (builtin_for(g.name) != Builtin::None) continue;
      if (is_device_runtime(g.name))
        fail_at(at, "device-side kernel launch (CUDA dynamic parallelism or a device graph launch: '" + g.name +
                    "') is not supported; launch the child kernels from the host (a manifest's launches[])");
      fail_at(at, "function '" + g.name + "' is declared but has no body (only vprintf, malloc, free and "
                  "__assertfail are provided by the simulator)");
    }
    if (g.is_entry) fail_at(at, "call to kernel entry '" + g.name + "'; only .func functions can be called");
    if (!state_[r.index]) visit(r.index);
    callees_[k].push_back(order_of_[r.index]);
  }
}

// With an indirect call anywhere in the program, every function whose
// address is taken (in an initialiser or by a mov) that has a body is linked
// too, and every indirect call site may reach each of them.
void Linker::link_address_taken() {
  for (const Variable& v : m_.globals)
    for (const Variable::AddrInit& r : v.addr_inits)
      if (const Function* g = m_.find(r.symbol)) address_taken_[static_cast<size_t>(g - m_.functions.data())] = 1;
  bool indirect = false;
  for (uint8_t c : calls_indirect_) indirect |= c != 0;
  if (!indirect) return;
  std::vector<uint32_t> targets;
  for (bool grew = true; grew;) {  // linking a target may take more addresses
    grew = false;
    for (uint32_t fi = 0; fi < m_.functions.size(); ++fi) {
      const Function& g = m_.functions[fi];
      if (!address_taken_[fi] || g.is_extern || g.is_entry) continue;
      if (!state_[fi]) {
        visit(fi);
        grew = true;
      }
      if (std::find(targets.begin(), targets.end(), order_of_[fi]) == targets.end())
        targets.push_back(order_of_[fi]);
    }
  }
  for (size_t k = 0; k < order_.size(); ++k)
    if (calls_indirect_[k]) callees_[k].insert(callees_[k].end(), targets.begin(), targets.end());
}

// Tarjan's strongly connected components over the call graph: a function in
// a component with a cycle may be active twice in one thread.
void Linker::find_components() {
  const uint32_t n = static_cast<uint32_t>(order_.size());
  std::vector<uint32_t> index(n, kNoPc), low(n, 0), stack;
  std::vector<uint8_t> on_stack(n, 0);
  uint32_t next_index = 0, next_scc = 0;
  // Iterative DFS: call chains in real code are short, but a generated one need not be.
  struct Frame { uint32_t v, edge; };
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNoPc) continue;
    std::vector<Frame> dfs{{root, 0}};
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!dfs.empty()) {
      Frame& fr = dfs.back();
      const uint32_t v = fr.v;
      if (fr.edge < callees_[v].size()) {
        const uint32_t w = callees_[v][fr.edge++];
        if (index[w] == kNoPc) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          on_stack[w] = 1;
          dfs.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<uint32_t> members;
        uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          members.push_back(w);
        } while (w != v);
        bool cyclic = members.size() > 1;
        for (uint32_t c : callees_[v]) cyclic |= c == v;
        for (uint32_t u : members) {
          p_.funcs[u].scc = next_scc;
          p_.funcs[u].recursive = cyclic;
        }
        p_.recursive |= cyclic;
        ++next_scc;
      }
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().v] = std::min(low[dfs.back().v], low[v]);
    }
  }
}

void Linker::layout() {
  size_t n = order_.size();
  vars_.resize(n);
  params_.resize(n);
  rets_.resize(n);
  globals_.assign(m_.globals.size(), Placed{});

  // Registers: each function's block, then the hidden return-address register.
  for (size_t k = 0; k < n; ++k) {
    const Function& f = m_.functions[order_[k]];
    reg_base_.push_back(static_cast<uint32_t>(p_.regs.size()));
    for (const RegInfo& r : f.regs) p_.regs.push_back(k == 0 ? r : RegInfo{f.name + "::" + r.name, r.type});
    FuncRange fr;
    fr.name = f.name;
    fr.reg_begin = reg_base_.back();
    if (k > 0) {
      fr.retaddr_reg = static_cast<uint32_t>(p_.regs.size());
      p_.regs.push_back(RegInfo{f.name + "::%retaddr", Type::U32});
    }
    fr.reg_end = static_cast<uint32_t>(p_.regs.size());
    p_.funcs.push_back(fr);
  }

  // Kernel parameter buffer.
  const Function& entry = m_.functions[order_[0]];
  uint64_t off = 0;
  params_[0].resize(entry.params.size());
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const Param& prm = entry.params[i];
    uint32_t a = natural_align(prm.align, prm.type);
    off = align_up(off, a);
    ParamSlot s{prm.name, prm.type, static_cast<uint32_t>(off), static_cast<uint32_t>(prm.size_bytes()), a};
    p_.params.push_back(s);
    params_[0][i] = Placed{Space::Param, off, prm.size_bytes(), true};
    off += prm.size_bytes();
  }
  p_.param_bytes = static_cast<uint32_t>(off);

  // Per-thread local area: module-scope .local variables, then one frame per function.
  uint64_t local = 0;
  auto place_local = [&](uint32_t align, Type t, uint64_t size) {
    local = align_up(local, natural_align(align, t));
    Placed pl{Space::Local, local, size, true};
    local += size;
    return pl;
  };
  for (size_t i = 0; i < m_.globals.size(); ++i)
    if (m_.globals[i].space == Space::Local)
      globals_[i] = place_local(m_.globals[i].align, m_.globals[i].type, m_.globals[i].size_bytes());
  for (size_t k = 0; k < n; ++k) {
    const Function& f = m_.functions[order_[k]];
    local = align_up(local, 16);
    p_.funcs[k].local_base = static_cast<uint32_t>(local);
    if (k > 0) {
      params_[k].resize(f.params.size());
      for (size_t i = 0; i < f.params.size(); ++i)
        params_[k][i] = place_local(f.params[i].align, f.params[i].type, f.params[i].size_bytes());
      rets_[k].resize(f.rets.size());
      for (size_t i = 0; i < f.rets.size(); ++i)
        rets_[k][i] = place_local(f.rets[i].align, f.rets[i].type, f.rets[i].size_bytes());
      for (const Placed& pl : params_[k])
        p_.funcs[k].params.push_back({static_cast<uint32_t>(pl.addr), static_cast<uint32_t>(pl.size)});
      for (const Placed& pl : rets_[k])
        p_.funcs[k].rets.push_back({static_cast<uint32_t>(pl.addr), static_cast<uint32_t>(pl.size)});
    }
    vars_[k].resize(f.vars.size());
    for (size_t i = 0; i < f.vars.size(); ++i) {
      const Variable& v = f.vars[i];
      if (v.space == Space::Local || v.space == Space::Param) vars_[k][i] = place_local(v.align, v.type, v.size_bytes());
    }
    p_.funcs[k].frame_bytes = static_cast<uint32_t>(local - p_.funcs[k].local_base);
  }
  p_.local_bytes = static_cast<uint32_t>(align_up(local, 16));

  // Shared: module-scope variables the program references, then function-scope ones;
  // extern (dynamic) arrays all start right after, at a 16-byte boundary.
  // All in 64 bits, checked: a 4 GiB + 64 B array once wrapped to 64 bytes
  // and ran; the device compares the true total with the machine.
  uint64_t shared = 0;
  std::vector<Placed*> dynamic;
  auto place_shared = [&](const Variable& v, Placed& pl) {
    if (pl.placed) return;
    pl.space = Space::Shared;
    pl.placed = true;
    pl.size = v.size_bytes();
    if (v.is_extern) {
      dynamic.push_back(&pl);
      return;
    }
    const uint64_t a = natural_align(v.align, v.type);
    // Headroom of 15 keeps the 16-byte rounding of the dynamic base from wrapping.
    const uint64_t room = UINT64_MAX - 15;
    if (shared > room - (a - 1) || v.size_bytes() > room || align_up(shared, a) > room - v.size_bytes())
      throw input_error(m_.path + ":" + std::to_string(v.line) + ": kernel '" + entry.name +
                        "': its .shared variables do not fit in 64 bits (at '" + v.name + "')");
    shared = align_up(shared, a);
    pl.addr = shared;
    shared += v.size_bytes();
  };
  for (size_t k = 0; k < n; ++k) {
    const Function& f = m_.functions[order_[k]];
    for (const SymRef& r : f.symrefs)
      if (r.kind == SymKind::Global && m_.globals[r.index].space == Space::Shared)
        place_shared(m_.globals[r.index], globals_[r.index]);
    for (size_t i = 0; i < f.vars.size(); ++i)
      if (f.vars[i].space == Space::Shared) place_shared(f.vars[i], vars_[k][i]);
  }
  p_.static_shared_bytes = shared;
  for (Placed* pl : dynamic) pl->addr = align_up(shared, 16);

  // Device memory variables: the loader's addresses.
  for (size_t i = 0; i < m_.globals.size(); ++i) {
    const Variable& v = m_.globals[i];
    if (v.space == Space::Global || v.space == Space::Const || v.space == Space::Tex) {
      globals_[i] = Placed{v.space, i < addrs_.size() ? addrs_[i] : 0, v.size_bytes(), i < addrs_.size()};
    }
  }
}

Placed Linker::resolve(uint32_t k, uint32_t sym, const Instr& at) {
  const Function& f = m_.functions[order_[k]];
  const SymRef& r = f.symrefs[sym];
  Placed pl;
  switch (r.kind) {
    case SymKind::Var: pl = vars_[k][r.index]; break;
    case SymKind::Param: pl = params_[k][r.index]; break;
    case SymKind::Ret: pl = rets_[k][r.index]; break;
    case SymKind::Global:
      pl = globals_[r.index];
      if (!pl.placed) fail_at(at, "no device address for '" + f.symbols[sym] + "'");
      break;
    case SymKind::Func:  // a function's address (see func_address)
      pl = Placed{Space::None, func_address(r.index), 0, true};
      break;
  }
  return pl;
}

void Linker::emit(uint32_t k) {
  const Function& f = m_.functions[order_[k]];
  uint32_t base = reg_base_[k];
  uint32_t begin = p_.funcs[k].begin;
  auto reloc = [&](uint32_t& r) {
    if (r != kNoReg) r += base;
  };
  for (size_t i = 0; i < f.code.size(); ++i) {
    Instr in = f.code[i];
    if (in.guard.kind == Operand::Kind::Reg) reloc(in.guard.reg);
    if (in.pout.kind == Operand::Kind::Reg) reloc(in.pout.reg);
    if (in.op == Op::Brx) fail_at(in, "brx.idx (indirect branch) is not supported");
    if (in.op == Op::Call) {
      const CallSite& cs = f.calls[in.call_info];
      CallInfo ci;
      ci.caller_func = k;
      auto local_of = [&](uint32_t sym) {
        Placed pl = resolve(k, sym, in);
        if (pl.space != Space::Local)
          fail_at(in, "call parameter '" + f.symbols[sym] + "' is not a .param variable of the caller");
        return pl;
      };
      const bool indirect = cs.callee_sym >= f.symrefs.size();
      const Function* g = indirect ? nullptr : &m_.functions[f.symrefs[cs.callee_sym].index];
      if (indirect || g->is_extern) {
        // Only the caller's slots: the executor pairs them with the callee's.
        if (g) ci.builtin = builtin_for(g->name);
        ci.callee_reg = indirect ? cs.callee_reg + base : kNoReg;
        for (uint32_t a : cs.args) {
          Placed pl = local_of(a);
          ci.args.push_back({static_cast<uint32_t>(pl.addr), 0, static_cast<uint32_t>(pl.size)});
        }
        for (uint32_t rv : cs.rets) {
          Placed pl = local_of(rv);
          ci.rets.push_back({0, static_cast<uint32_t>(pl.addr), static_cast<uint32_t>(pl.size)});
        }
      } else {
        uint32_t ck = order_of_[f.symrefs[cs.callee_sym].index];
        ci.callee_func = ck;
        ci.callee_pc = p_.funcs[ck].begin;
        if (cs.args.size() != g->params.size())
          fail_at(in, "call to '" + g->name + "' passes " + std::to_string(cs.args.size()) +
                          " arguments, it takes " + std::to_string(g->params.size()));
        if (cs.rets.size() > g->rets.size())
          fail_at(in, "call to '" + g->name + "' expects more return values than it has");
        for (size_t a = 0; a < cs.args.size(); ++a) {
          Placed from = local_of(cs.args[a]);
          const Placed& to = params_[ck][a];
          ci.args.push_back({static_cast<uint32_t>(from.addr), static_cast<uint32_t>(to.addr),
                             static_cast<uint32_t>(std::min(from.size, to.size))});
        }
        for (size_t a = 0; a < cs.rets.size(); ++a) {
          Placed to = local_of(cs.rets[a]);
          const Placed& from = rets_[ck][a];
          ci.rets.push_back({static_cast<uint32_t>(from.addr), static_cast<uint32_t>(to.addr),
                             static_cast<uint32_t>(std::min(from.size, to.size))});
        }
      }
      in.call_info = static_cast<uint32_t>(p_.calls.size());
      p_.calls.push_back(std::move(ci));
      // An indirect call keeps its target register as ops[0] (a source the
      // scoreboard waits for); a direct one keeps no operands.
      in.ops = {};
      in.nops = 0;
      if (indirect) {
        in.ops[0].kind = Operand::Kind::Reg;
        in.ops[0].reg = cs.callee_reg + base;
        in.nops = 1;
      }
    } else {
      for (int j = 0; j < in.nops; ++j) {
        Operand& o = in.ops[j];
        switch (o.kind) {
          case Operand::Kind::Reg: reloc(o.reg); break;
          case Operand::Kind::Vec:
            for (int e = 0; e < o.vec_n; ++e) reloc(o.vec[e]);
            break;
          case Operand::Kind::Label:
            o.imm = begin + o.imm;
            o.sym = 0;
            break;
          case Operand::Kind::Sym: {
            Placed pl = resolve(k, o.sym, in);
            o = Operand{};
            o.kind = Operand::Kind::Imm;
            o.imm = static_cast<int64_t>(pl.addr);
            break;
          }
          case Operand::Kind::Addr:
            if (o.sym_base) {
              Placed pl = resolve(k, o.sym, in);
              if (in.space == Space::Param) {
                if (pl.space == Space::Local) in.space = Space::Local;
                else if (pl.space != Space::Param)
                  fail_at(in, "'" + f.symbols[o.sym] + "' is not a .param variable");
              } else if (in.space == Space::Generic &&
                         (pl.space == Space::Shared || pl.space == Space::Local || pl.space == Space::Param)) {
                // A generic access straight to a named variable: the address is
                // that variable's, so access its own space.
                in.space = pl.space;
              }
              o.imm = static_cast<int64_t>(pl.addr) + o.imm;
              o.sym_base = false;
              o.sym = 0;
              o.reg = kNoReg;
            } else {
              reloc(o.reg);
              // Outside the entry every .param variable lives in per-thread
              // local memory, so a register address into .param is local too.
              if (in.space == Space::Param && k != 0) in.space = Space::Local;
            }
            break;
          default:
            break;
        }
      }
    }
    p_.code.push_back(in);
    p_.text.push_back(i < f.text.size() ? f.text[i] : std::string());
  }
}

Program Linker::run(const std::string& entry) {
  const Function* ef = m_.find(entry);
  if (!ef || !ef->is_entry || ef->is_extern) {
    std::string list;
    for (const std::string& e : entry_names(m_)) list += (list.empty() ? "" : ", ") + e;
    throw input_error(m_.path + ": no kernel '" + entry + "' (entries: " + (list.empty() ? "none" : list) + ")");
  }
  uint32_t ei = static_cast<uint32_t>(ef - m_.functions.data());
  order_of_.assign(m_.functions.size(), kNoPc);
  state_.assign(m_.functions.size(), 0);
  address_taken_.assign(m_.functions.size(), 0);
  visit(ei);
  link_address_taken();
  layout();
  find_components();
  p_.func_by_module.assign(m_.functions.size(), kNoPc);
  for (uint32_t k = 0; k < order_.size(); ++k) p_.func_by_module[order_[k]] = k;
  // PC ranges first, so calls can name callee entry PCs while emitting.
  uint32_t pc = 0;
  for (size_t k = 0; k < order_.size(); ++k) {
    p_.funcs[k].begin = pc;
    pc += static_cast<uint32_t>(m_.functions[order_[k]].code.size());
    p_.funcs[k].end = pc;
  }
  p_.code.reserve(pc);
  p_.text.reserve(pc);
  for (uint32_t k = 0; k < order_.size(); ++k) emit(k);
  p_.kernel = entry;
  p_.source_path = m_.path;
  p_.reqntid = ef->reqntid;
  p_.maxntid = ef->maxntid;
  return std::move(p_);
}

}  // namespace

Program link(const Module& m, const std::string& entry, const SymbolAddresses& addrs) {
  Linker l(m, addrs);
  return l.run(entry);
}

std::vector<std::string> entry_names(const Module& m) {
  std::vector<std::string> names;
  for (const Function& f : m.functions)
    if (f.is_entry && !f.is_extern) names.push_back(f.name);
  return names;
}

std::vector<std::string> kernel_names(const Module& m) {
  std::vector<std::string> names = entry_names(m);
  if (names.empty()) throw input_error(m.path + ": no kernel in this file (no .entry with a body)");
  return names;
}

}  // namespace simt::ptx
