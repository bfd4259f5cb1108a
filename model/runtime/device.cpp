#include "runtime/device.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "func/executor.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "runtime/functional_runner.h"
#include "util/error.h"

namespace simt::runtime {

namespace {
constexpr uint32_t kMaxSharedPerCta = 227 * 1024;  // the largest any current GPU offers

struct Kernel {
  ptx::Program prog;
  std::unique_ptr<ptx::Cfg> cfg;
  std::unique_ptr<func::Executor> exec;
};

// Writes the address each address initialiser names into its variable, once
// every .global/.const variable has one. Generic and non-generic forms are the
// same value: const lives in global memory (func/address_space.h).
void patch_addr_inits(const ptx::Module& ir, const ptx::SymbolAddresses& addrs, func::GlobalMemory& mem) {
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < ir.globals.size(); ++i) index.emplace(ir.globals[i].name, i);
  for (size_t i = 0; i < ir.globals.size(); ++i) {
    const ptx::Variable& v = ir.globals[i];
    if (v.addr_inits.empty()) continue;
    const std::string where = ir.path + ":" + std::to_string(v.line) + ": initialiser of '" + v.name + "' ";
    const uint32_t width = ptx::type_bytes(v.type);
    for (const ptx::Variable::AddrInit& r : v.addr_inits) {
      auto t = index.find(r.symbol);
      if (t == index.end()) throw input_error(where + "names '" + r.symbol + "', which is not a module variable");
      const ptx::Variable& target = ir.globals[t->second];
      // PTX allows only .global/.const variables in initialisers: nothing else has one address.
      if (target.space != ptx::Space::Global && target.space != ptx::Space::Const)
        throw input_error(where + "takes the address of ." + ptx::space_name(target.space) + " variable '" +
                          target.name + "'; only .global and .const variables may appear in initialisers");
      if (!addrs[t->second])
        throw input_error(where + "takes the address of '" + target.name + "', which has no storage (extern, unsized)");
      if (!addrs[i] || (width != 4 && width != 8) || r.offset + width > v.size_bytes())
        throw input_error(where + "has an address slot outside the variable's storage");
      uint64_t value = addrs[t->second] + static_cast<uint64_t>(r.addend);
      if (width == 4 && value > 0xffffffffu)  // device memory starts at 4 GiB
        throw input_error(where + "needs the address of '" + target.name + "' in 32 bits (." +
                          ptx::type_name(v.type) + "); device addresses are 64-bit, use .u64");
      uint8_t bytes[8];
      for (uint32_t b = 0; b < width; ++b) bytes[b] = static_cast<uint8_t>(value >> (8 * b));
      mem.write(addrs[i] + r.offset, bytes, width);
    }
  }
}
}  // namespace

class Module {
 public:
  ptx::Module ir;
  ptx::SymbolAddresses addrs;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;

  Kernel& kernel(const std::string& name) {
    auto it = kernels.find(name);
    if (it != kernels.end()) return *it->second;
    auto k = std::make_unique<Kernel>();
    k->prog = ptx::link(ir, name, addrs);  // throws BadInput for an unknown entry
    k->cfg = std::make_unique<ptx::Cfg>(k->prog);
    k->exec = std::make_unique<func::Executor>(k->prog);  // refuses unsupported instructions
    return *kernels.emplace(name, std::move(k)).first->second;
  }
};

Device::Device(DeviceOptions opts) : opts_(opts) { opts_.validate(); }
Device::~Device() = default;

Module& Device::load_ptx(const std::string& text, const std::string& name) {
  auto m = std::make_unique<Module>();
  m->ir = ptx::parse(text, name);
  // Place module-scope .global and .const variables in device memory.
  m->addrs.assign(m->ir.globals.size(), 0);
  for (size_t i = 0; i < m->ir.globals.size(); ++i) {
    const ptx::Variable& v = m->ir.globals[i];
    if (v.space != ptx::Space::Global && v.space != ptx::Space::Const) continue;
    if (v.is_extern && v.size_bytes() == 0) continue;
    uint64_t align = v.align ? v.align : std::max<uint32_t>(1, ptx::type_bytes(v.type));
    uint64_t addr = mem_.allocate(v.size_bytes(), std::max<uint64_t>(align, 16));
    if (!v.init.empty())
      mem_.write(addr, v.init.data(), std::min<uint64_t>(v.init.size(), v.size_bytes()));
    m->addrs[i] = addr;
  }
  try {
    patch_addr_inits(m->ir, m->addrs, mem_);
  } catch (...) {  // a module that fails to load leaves no allocations behind
    for (uint64_t a : m->addrs)
      if (a) mem_.release(a);
    throw;
  }
  modules_.push_back(std::move(m));
  return *modules_.back();
}

Module& Device::load_ptx_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot open PTX file");
  std::ostringstream s;
  s << in.rdbuf();
  return load_ptx(s.str(), path);
}

const ptx::Program& Device::program(Module& m, const std::string& kernel) {
  return m.kernel(kernel).prog;
}

const ptx::Module& Device::ptx_module(Module& m) const { return m.ir; }

uint64_t Device::malloc(uint64_t bytes) { return mem_.allocate(bytes); }

void Device::free(uint64_t addr) {
  if (!mem_.release(addr))
    throw input_error("free of 0x" + [&] { std::ostringstream s; s << std::hex << addr; return s.str(); }() +
                      ", which is not a device allocation");
}

void Device::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) {
  if (bytes && !mem_.mapped(dst, bytes))
    throw input_error("copy to device: range is not inside one allocation");
  mem_.write(dst, src, bytes);
}

void Device::copy_to_host(void* dst, uint64_t src, uint64_t bytes) const {
  if (bytes && !mem_.mapped(src, bytes))
    throw input_error("copy to host: range is not inside one allocation");
  mem_.read(src, dst, bytes);
}

void Device::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (bytes && !mem_.mapped(dst, bytes)) throw input_error("memset: range is not inside one allocation");
  std::vector<uint8_t> buf(std::min<uint64_t>(bytes, 1 << 20), value);
  for (uint64_t done = 0; done < bytes; done += buf.size())
    mem_.write(dst + done, buf.data(), std::min<uint64_t>(buf.size(), bytes - done));
}

static void check_launch(const ptx::Program& p, Dim3 grid, Dim3 block, const KernelArgs& args,
                         uint32_t dyn_shared) {
  const std::string k = "launch of kernel '" + p.kernel + "': ";
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0 || block[i] == 0) throw input_error(k + "grid and block dimensions must be at least 1");
  }
  uint64_t threads = uint64_t{block[0]} * block[1] * block[2];
  if (threads > func::kMaxCtaThreads)
    throw input_error(k + std::to_string(threads) + " threads per block exceed the limit of 1024");
  if (p.reqntid[0] && (p.reqntid[0] != block[0] || std::max(1u, p.reqntid[1]) != block[1] ||
                       std::max(1u, p.reqntid[2]) != block[2]))
    throw input_error(k + "block size does not match the kernel's .reqntid");
  if (p.maxntid[0] && threads > uint64_t{p.maxntid[0]} * std::max(1u, p.maxntid[1]) * std::max(1u, p.maxntid[2]))
    throw input_error(k + "block size exceeds the kernel's .maxntid");
  if (uint64_t{p.static_shared_bytes} + dyn_shared > kMaxSharedPerCta)
    throw input_error(k + "needs " + std::to_string(p.static_shared_bytes + uint64_t{dyn_shared}) +
                      " bytes of shared memory per CTA; the limit is " + std::to_string(kMaxSharedPerCta));
  // Arguments must match the kernel's .param list in number, offset and size.
  std::ostringstream want;
  for (size_t i = 0; i < p.params.size(); ++i)
    want << (i ? ", " : "") << ptx::type_name(p.params[i].type) << "[" << p.params[i].size << "]";
  bool ok = args.offsets().size() == p.params.size();
  for (size_t i = 0; ok && i < p.params.size(); ++i)
    ok = args.offsets()[i] == p.params[i].offset && args.sizes()[i] == p.params[i].size;
  if (!ok)
    throw input_error(k + "arguments do not match the kernel's parameters (" + std::to_string(p.params.size()) +
                      " expected: " + want.str() + "; got " + std::to_string(args.offsets().size()) + ")");
}

LaunchStats Device::launch(Module& m, const std::string& kernel, Dim3 grid, Dim3 block,
                           const KernelArgs& args, uint32_t dynamic_shared_bytes) {
  auto t0 = std::chrono::steady_clock::now();
  Kernel& k = m.kernel(kernel);
  check_launch(k.prog, grid, block, args, dynamic_shared_bytes);
  std::vector<uint8_t> params = args.bytes();
  params.resize(k.prog.param_bytes, 0);

  func::LaunchGeometry geom;
  geom.grid = grid;
  geom.block = block;
  geom.dynamic_shared_bytes = dynamic_shared_bytes;
  func::ExecEnv env;
  env.global = &mem_;
  env.printf_out = opts_.printf_out ? opts_.printf_out : &std::cout;

  FunctionalRunner runner(k.prog, *k.cfg, *k.exec, opts_);
  RunnerStats rs;
  LaunchStats st;
  uint64_t index = 0;
  for (uint32_t z = 0; z < grid[2]; ++z)
    for (uint32_t y = 0; y < grid[1]; ++y)
      for (uint32_t x = 0; x < grid[0]; ++x, ++index) {
        func::CtaState cta(k.prog, geom, {{x, y, z}}, params);
        runner.run_cta(cta, env, index, rs);
      }
  st.ctas = index;
  st.warp_instructions = rs.warp_instructions;
  st.thread_instructions = rs.thread_instructions;
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  totals_.ctas += st.ctas;
  totals_.warp_instructions += st.warp_instructions;
  totals_.thread_instructions += st.thread_instructions;
  totals_.wall_seconds += st.wall_seconds;
  return st;
}

}  // namespace simt::runtime
