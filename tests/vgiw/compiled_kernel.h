// Entry `k` of a PTX module made of `body`, parsed, linked and put through
// the VGIW compiler pass, for the compiler's tests (test_compiler,
// test_if_conversion).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "ptx/link.h"
#include "ptx/parser.h"
#include "vgiw/compiler.h"

namespace simt::test {

// Entry `k` of `body`, parsed and linked.
inline ptx::Program linked_kernel(const std::string& body) {
  const ptx::Module m = ptx::parse(".version 9.0\n.target sm_75\n.address_size 64\n" + body, "t.ptx");
  return ptx::link(m, "k", ptx::SymbolAddresses(m.globals.size(), 0x1000));
}

inline uint32_t reg_of(const ptx::Program& p, const std::string& name) {
  for (uint32_t r = 0; r < p.regs.size(); ++r)
    if (p.regs[r].name == name) return r;
  throw std::logic_error("no register " + name);
}

struct CompiledKernel {
  ptx::Program p;  // as linked
  std::unique_ptr<vgiw::Compilation> c;
  CompiledKernel(const std::string& body, uint32_t if_convert_limit) : p(linked_kernel(body)) {
    vgiw::CompilerOptions o;
    o.if_convert_limit = if_convert_limit;
    c = std::make_unique<vgiw::Compilation>(p, o);
  }
  // The program the blocks are cut from (after if-conversion).
  const ptx::Program& code() const { return c->program(); }
  uint32_t reg(const std::string& name) const { return reg_of(code(), name); }
};

}  // namespace simt::test
