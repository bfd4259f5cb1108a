// cp.async (Ampere's asynchronous global -> shared copy, what
// cuda::memcpy_async and cg::memcpy_async compile to):
//   cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
//   cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all
// The copy is done when the instruction executes, so every group is complete
// before any wait: commit and wait have nothing left to do. cp-size bytes are
// written to shared memory, the first src-size of them read from global
// memory and the rest zero (ignore-src: all zero). Addresses must be aligned
// to cp-size; the whole instruction faults before writing if any thread would.
#include <array>
#include <cstring>

#include "func/exec_context.h"
#include "func/mem_access.h"

namespace simt::func {

using ptx::CpAsyncKind;
using ptx::Operand;
using ptx::Space;
using ptx::Type;

namespace {

CpAsyncKind kind_of(const ptx::Instr& in) { return static_cast<CpAsyncKind>(in.mode); }

uint64_t address(ExecContext& c, int i, uint32_t t) {
  const Operand& o = c.in.ops[static_cast<size_t>(i)];
  return (o.reg == ptx::kNoReg ? 0 : c.cta.reg(o.reg, t)) + static_cast<uint64_t>(o.imm);
}

// Bytes of global memory thread t reads: src-size, 0 with ignore-src set, or cp-size.
uint32_t source_bytes(ExecContext& c, uint32_t t, uint32_t cp_size) {
  if (c.in.nops < 4) return cp_size;
  const Operand& o = c.in.ops[3];
  if (o.kind == Operand::Kind::Reg) {
    const Type rt = c.cta.program().regs[o.reg].type;
    if (rt == Type::Pred) return c.pred(o, t) ? 0 : cp_size;        // ignore-src
    if (rt == Type::B64 || rt == Type::U64) return cp_size;          // a cache policy, not a size
  }
  return static_cast<uint32_t>(c.src(3, t, Type::U32));
}

void exec_cp(ExecContext& c) {
  if (kind_of(c.in) != CpAsyncKind::Copy || c.mask.none()) return;  // commit / wait: already complete
  const uint32_t cp_size = static_cast<uint32_t>(c.in.ops[2].imm);
  struct Pending {
    uint32_t t;
    Space space;
    uint64_t addr;
    std::array<uint8_t, 16> bytes;
  };
  std::vector<Pending> writes;
  writes.reserve(c.mask.count());
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    const uint32_t n = source_bytes(c, t, cp_size);
    if (n > cp_size) {
      c.fail(t, "cp.async src-size " + std::to_string(n) + " is larger than cp-size " + std::to_string(cp_size),
                FaultKind::Misaligned);
      return;
    }
    Pending p{t, Space::Shared, 0, {}};
    // The source in aligned power-of-two pieces (src-size need not be one).
    const uint64_t src = address(c, 1, t);
    if (n && (src & (cp_size - 1))) {
      c.fail_at(t, src, "cp.async source address is not aligned to cp-size " + std::to_string(cp_size));
      return;
    }
    for (uint32_t at = 0, piece = 16; at < n; piece >>= 1) {
      if (n - at < piece) continue;
      Space rs;
      uint64_t ra;
      if (!element_access(c, t, Space::Global, src + at, piece, false, rs, ra)) return;
      element_read(c, t, rs, ra, p.bytes.data() + at, piece);
      at += piece;
    }
    if (!element_access(c, t, Space::Shared, address(c, 0, t), cp_size, true, p.space, p.addr)) return;
    writes.push_back(p);
  });
  if (c.failed()) return;
  for (const Pending& p : writes) element_write(c, p.t, p.space, p.addr, p.bytes.data(), cp_size);
  c.out.is_load = true;  // timed as the global read; its shared write shares the access list
}

std::string check_cp(const ptx::Instr& in) {
  switch (kind_of(in)) {
    case CpAsyncKind::Copy: {
      if (in.nops < 3 || in.ops[0].kind != Operand::Kind::Addr || in.ops[1].kind != Operand::Kind::Addr)
        return "cp.async takes [dst], [src], cp-size";
      if (in.ops[2].kind != Operand::Kind::Imm) return "cp.async: cp-size must be an immediate (4, 8 or 16)";
      const int64_t n = in.ops[2].imm;
      if (n != 4 && n != 8 && n != 16) return "cp.async: cp-size must be 4, 8 or 16";
      return "";
    }
    case CpAsyncKind::WaitGroup:
      return in.nops == 1 && in.ops[0].kind == Operand::Kind::Imm ? "" : "cp.async.wait_group takes an immediate N";
    default:
      return "";
  }
}

}  // namespace

void register_async_copy_ops(HandlerTable& t) { t.add(ptx::Op::Cp, exec_cp, check_cp); }

}  // namespace simt::func
