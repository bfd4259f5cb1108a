#include "runtime/device.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <unistd.h>

#include "func/executor.h"
#include "gpu/gpu.h"
#include "gpu/machine_config.h"
#include "mem/backing_memory.h"
#include "ptx/cfg.h"
#include "ptx/def_use.h"
#include "ptx/register_pressure.h"
#include "ptx/register_slots.h"
#include "stats/stats.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "runtime/functional_runner.h"
#include "util/cycle.h"
#include "util/error.h"
#include "util/process_start.h"

namespace simt::runtime {

namespace {
constexpr uint32_t kMaxSharedPerCta = 227 * 1024;  // the largest any current GPU offers

struct Kernel {
  ptx::Program prog;
  std::unique_ptr<ptx::Cfg> cfg;
  std::unique_ptr<func::Executor> exec;
  std::vector<ptx::DefUse> du;   // per PC, shared by every SM (KernelContext::du)
  uint32_t regs_per_thread = 0;  // for occupancy in timing mode
  bool uses_heap = false;        // calls malloc or free: its launches need the device heap
  func::ShflUndefinedLog shfl_log{&std::cerr};  // warns once per PC of this kernel, over all launches
  std::shared_ptr<const int> owner = std::make_shared<const int>(0);  // KernelContext::program_owner
};

// Instruction addresses seen by the I-caches: each linked kernel gets its own
// region, away from any device allocation.
constexpr uint64_t kCodeBase = 0x0000'7400'0000'0000ull;
constexpr uint64_t kCodeRegion = uint64_t{1} << 28;

// Writes the address each address initialiser names into its variable, once
// every .global/.const variable has one; a function's name gives its
// ptx::func_address (a function pointer table). Generic and non-generic forms are the
// same value: const lives in global memory (func/address_space.h).
void put_address(func::GlobalMemory& mem, uint64_t at, uint64_t value, uint32_t width) {
  uint8_t bytes[8];
  for (uint32_t b = 0; b < width; ++b) bytes[b] = static_cast<uint8_t>(value >> (8 * b));
  mem.write(at, bytes, width);
}

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
      if (t == index.end()) {
        const ptx::Function* fn = ir.find(r.symbol);
        if (!fn) throw input_error(where + "names '" + r.symbol + "', which is not a module variable or function");
        if (r.addend) throw input_error(where + "adds an offset to the address of function '" + r.symbol + "'");
        if (width != 8 || !addrs[i] || r.offset + width > v.size_bytes())
          throw input_error(where + "needs a 64-bit slot (.u64/.b64/.s64) for the address of function '" +
                            r.symbol + "'");
        put_address(mem, addrs[i] + r.offset, ptx::func_address(static_cast<uint32_t>(fn - ir.functions.data())), 8);
        continue;
      }
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
      put_address(mem, addrs[i] + r.offset, value, width);
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
    ptx::share_register_slots(k->prog, *k->cfg);  // storage only: register ids stay as linked
    k->exec = std::make_unique<func::Executor>(k->prog);  // refuses unsupported instructions
    k->du.reserve(k->prog.code.size());
    for (const ptx::Instr& in : k->prog.code) k->du.push_back(ptx::def_use(in));
    k->regs_per_thread = std::max<uint32_t>(ptx::max_live_registers(k->prog, *k->cfg), 4);
    for (const ptx::CallInfo& ci : k->prog.calls)
      k->uses_heap |= ci.builtin == ptx::Builtin::Malloc || ci.builtin == ptx::Builtin::Free;
    return *kernels.emplace(name, std::move(k)).first->second;
  }
};

// The SystemC machine: built at the first timing launch (SystemC elaborates
// once per process), then reused by every later launch.
struct Device::Timing {
  stats::Registry stats;
  std::unique_ptr<trace::Waveform> waveform;
  std::unique_ptr<trace::WarpTrace> warp_trace;  // declared before gpu: outlives it
  std::unique_ptr<gpu::Gpu> gpu;
  std::unique_ptr<mem::BackingMemory> memory;  // ours, unless a platform took the socket
  bool platform_memory = false;
};

Device::Timing& Device::timing() {
  if (!timing_) {
    timing_ = std::make_unique<Timing>();
    if (!opts_.waveform.path.empty())
      timing_->waveform = std::make_unique<trace::Waveform>("waveform", opts_.waveform);
    if (!opts_.warp_trace_path.empty())
      timing_->warp_trace = std::make_unique<trace::WarpTrace>(opts_.warp_trace_path, opts_.warp_trace_filter);
    timing_->gpu = std::make_unique<gpu::Gpu>("gpu", *opts_.machine, timing_->stats, timing_->waveform.get(),
                                              timing_->warp_trace.get(), progress_.get());
    timing_->gpu->serve_memory(mem_);
  }
  return *timing_;
}

tlm::tlm_initiator_socket<>& Device::memory_socket() {
  if (opts_.mode != Mode::Timing)
    throw Error(ExitCode::Internal, "Device::memory_socket(): device memory is a TLM target only in timing mode");
  if (timing_ && (timing_->memory || sc_core::sc_start_of_simulation_invoked()))
    throw Error(ExitCode::Internal, "Device::memory_socket(): too late, the first timing launch has bound it");
  Timing& t = timing();
  t.platform_memory = true;
  return t.gpu->memory_socket;
}

// 3/4 of physical memory: room for the simulator itself and the rest of the host.
static uint64_t default_device_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;  // unknown: no limit
  return static_cast<uint64_t>(pages) / 4 * 3 * static_cast<uint64_t>(page);
}

Device::Device(DeviceOptions opts) : opts_(opts) {
  opts_.validate();
  mem_.set_touch_limit(opts_.max_device_memory ? opts_.max_device_memory : default_device_memory_limit());
  progress_ = std::make_unique<trace::Progress>(opts_.progress);
  if (opts_.mode == Mode::Timing && !opts_.machine)
    throw Error(ExitCode::Internal, "timing mode needs a machine configuration");
}
Device::~Device() = default;

const stats::Registry* Device::timing_stats() const { return timing_ ? &timing_->stats : nullptr; }

Module& Device::load_ptx(const std::string& text, const std::string& name) {
  return load_module(ptx::parse(text, name), name);
}

Module& Device::load_module(ptx::Module ir, const std::string& name) {
  auto m = std::make_unique<Module>();
  m->ir = std::move(ir);
  m->ir.path = name;
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

namespace {
template <class Desc>
uint64_t add_object(func::TextureTable& table, const func::GlobalMemory& mem, Desc d, const std::string& what) {
  d.layout.pack();
  const std::string why = d.check();
  if (!why.empty()) throw input_error(what + ": " + why);
  if (!mem.mapped(d.layout.base, d.layout.span()))
    throw input_error(what + ": its texels (" + std::to_string(d.layout.span()) +
                      " bytes) are not inside one device allocation");
  return table.add(d);
}
}  // namespace

uint64_t Device::create_texture(const func::TextureDesc& t, const std::string& what) {
  return add_object(textures_, mem_, t, what);
}

uint64_t Device::create_surface(const func::SurfaceDesc& s, const std::string& what) {
  return add_object(textures_, mem_, s, what);
}

Device::Symbol Device::symbol(Module& m, const std::string& name) const {
  for (size_t i = 0; i < m.ir.globals.size(); ++i) {
    const ptx::Variable& v = m.ir.globals[i];
    if (v.name != name) continue;
    if ((v.space != ptx::Space::Global && v.space != ptx::Space::Const) || !m.addrs[i])
      throw input_error(m.ir.path + ": '" + name + "' is not a .global or .const variable with storage");
    return {m.addrs[i], v.size_bytes()};
  }
  throw input_error(m.ir.path + ": no module variable named '" + name + "'");
}

void Device::place_variable(Module& m, const std::string& name, uint64_t addr) {
  if (!m.kernels.empty())
    throw internal_error("Device::place_variable('" + name + "'): kernels of the module are already linked");
  const Symbol old = symbol(m, name);
  if (!mem_.mapped(addr, old.bytes ? old.bytes : 1))
    throw internal_error("Device::place_variable('" + name + "'): the new place is not device memory");
  std::vector<uint8_t> bytes(old.bytes);
  mem_.read_host(old.addr, bytes.data(), bytes.size());
  mem_.write(addr, bytes.data(), bytes.size());
  mem_.release(old.addr);
  for (size_t i = 0; i < m.ir.globals.size(); ++i)
    if (m.ir.globals[i].name == name) m.addrs[i] = addr;
}

const ptx::Program& Device::program(Module& m, const std::string& kernel) {
  return m.kernel(kernel).prog;
}

const ptx::Module& Device::ptx_module(Module& m) const { return m.ir; }

uint64_t Device::malloc(uint64_t bytes) { return mem_.allocate(bytes); }

void Device::free(uint64_t addr) {
  std::ostringstream what;
  what << "free of 0x" << std::hex << addr;
  if (heap_.overlaps(addr, 1))
    throw input_error(what.str() + ", which lies in the device heap: only a kernel's free() releases "
                      "device-side malloc memory");
  if (!mem_.release(addr)) throw input_error(what.str() + ", which is not a device allocation");
}

void Device::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) {
  if (bytes && !mem_.mapped(dst, bytes))
    throw input_error("copy to device: range is not inside one allocation");
  mem_.write(dst, src, bytes);
}

void Device::copy_to_host(void* dst, uint64_t src, uint64_t bytes) const {
  if (bytes && !mem_.mapped(src, bytes))
    throw input_error("copy to host: range is not inside one allocation");
  mem_.read_host(src, dst, bytes);
}

void Device::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (bytes && !mem_.mapped(dst, bytes)) throw input_error("memset: range is not inside one allocation");
  std::vector<uint8_t> buf(std::min<uint64_t>(bytes, 1 << 20), value);
  for (uint64_t done = 0; done < bytes; done += buf.size())
    mem_.write(dst + done, buf.data(), std::min<uint64_t>(buf.size(), bytes - done));
}

// `sm_shared`: the machine's shared memory per SM (sm.shared_bytes), 0 without a machine.
static void check_launch(const ptx::Program& p, Dim3 grid, Dim3 block, const KernelArgs& args,
                         uint32_t dyn_shared, uint64_t sm_shared) {
  const std::string k = "launch of kernel '" + p.kernel + "': ";
  static const char* const axis[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0 || block[i] == 0) throw input_error(k + "grid and block dimensions must be at least 1");
    if (grid[i] > kMaxGrid[i])
      throw input_error(k + "grid." + axis[i] + " = " + std::to_string(grid[i]) + " exceeds " +
                        std::to_string(kMaxGrid[i]) + ", CUDA's limit");
    if (block[i] > kMaxBlock[i])
      throw input_error(k + "block." + axis[i] + " = " + std::to_string(block[i]) + " exceeds " +
                        std::to_string(kMaxBlock[i]) + ", CUDA's limit");
  }
  uint64_t threads = uint64_t{block[0]} * block[1] * block[2];
  if (threads > func::kMaxCtaThreads)
    throw input_error(k + std::to_string(threads) + " threads per block exceed the limit of 1024");
  if (p.reqntid[0] && (p.reqntid[0] != block[0] || std::max(1u, p.reqntid[1]) != block[1] ||
                       std::max(1u, p.reqntid[2]) != block[2]))
    throw input_error(k + "block size does not match the kernel's .reqntid");
  if (p.maxntid[0] && threads > uint64_t{p.maxntid[0]} * std::max(1u, p.maxntid[1]) * std::max(1u, p.maxntid[2]))
    throw input_error(k + "block size exceeds the kernel's .maxntid");
  // 64-bit sums (static_shared_bytes is 64-bit and below 2^64 - 15).
  const uint64_t shared = (p.static_shared_bytes + 15) / 16 * 16 + dyn_shared;
  const uint64_t shared_limit = sm_shared ? std::min<uint64_t>(sm_shared, kMaxSharedPerCta) : kMaxSharedPerCta;
  if (shared > shared_limit)
    throw input_error(k + "needs " + std::to_string(shared) + " bytes of shared memory per CTA (" +
                      std::to_string(p.static_shared_bytes) + " static + " + std::to_string(dyn_shared) +
                      " dynamic); the limit is " + std::to_string(shared_limit) +
                      (shared_limit == sm_shared ? " (sm.shared_bytes, this machine's shared memory per SM)"
                                                 : " (the most any current GPU offers per CTA)"));
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

namespace {
// What one CTA of `k` takes on an SM (occupancy).
gpu::CtaFootprint footprint(const Kernel& k, Dim3 block, uint32_t dynamic_shared_bytes) {
  gpu::CtaFootprint fp;
  fp.threads = block[0] * block[1] * block[2];
  fp.regs_per_thread = k.regs_per_thread;
  // Saturates: a footprint too large for 32 bits fits no SM (check_launch refuses it first).
  fp.shared_bytes = static_cast<uint32_t>(
      std::min<uint64_t>((k.prog.static_shared_bytes + 15) / 16 * 16 + dynamic_shared_bytes, UINT32_MAX));
  return fp;
}
}  // namespace

uint64_t Device::max_resident_ctas(Module& m, const std::string& kernel, Dim3 block, uint32_t dynamic_shared_bytes) {
  if (!opts_.machine) return UINT64_MAX;
  const gpu::Occupancy occ =
      gpu::CtaDispatcher::occupancy(footprint(m.kernel(kernel), block, dynamic_shared_bytes), opts_.machine->limits);
  return uint64_t{occ.ctas_per_sm} * opts_.machine->num_sms;
}

func::LaunchGeometry Device::prepare(Module& m, const std::string& kernel, Dim3 grid, Dim3 block,
                                    const KernelArgs& args, uint32_t dynamic_shared_bytes, bool cooperative,
                                    std::vector<uint8_t>& params) {
  const Kernel& k = m.kernel(kernel);
  check_launch(k.prog, grid, block, args, dynamic_shared_bytes, opts_.machine ? opts_.machine->limits.shared_bytes : 0);
  params = args.bytes();
  params.resize(k.prog.param_bytes, 0);
  if (k.uses_heap) heap_.reserve(mem_);  // as CUDA: at the first launch that needs it, then for good
  func::LaunchGeometry geom;
  geom.grid = grid;
  geom.block = block;
  geom.dynamic_shared_bytes = dynamic_shared_bytes;
  if (!cooperative) return geom;
  if (opts_.mode == Mode::Timing && opts_.machine->technique.core == "vgiw")
    throw input_error("cooperative launch of kernel '" + kernel +
                      "': the VGIW core (gpu.core = vgiw) cannot run grid-wide synchronisation: its basic block "
                      "scheduler keeps running a block while threads return to it (seed 002 section 3.2), so a "
                      "CTA spinning in grid.sync() would starve the others");
  // Every CTA must be resident at once, as cudaLaunchCooperativeKernel demands.
  const uint64_t fit = max_resident_ctas(m, kernel, block, dynamic_shared_bytes);
  if (geom.ctas() > fit) {
    const gpu::Occupancy occ = gpu::CtaDispatcher::occupancy(footprint(k, block, dynamic_shared_bytes), opts_.machine->limits);
    throw input_error("cooperative launch of kernel '" + kernel + "': " + std::to_string(geom.ctas()) +
                      " CTAs, but the machine holds " + std::to_string(fit) + " at once (" +
                      std::to_string(occ.ctas_per_sm) + " per SM, limited by " + occ.limited_by + ", x " +
                      std::to_string(opts_.machine->num_sms) + " SMs)");
  }
  if (!grid_workspace_) grid_workspace_ = malloc(16);
  memset(grid_workspace_, 0, 16);
  geom.grid_workspace = grid_workspace_;
  return geom;
}

LaunchStats Device::launch(Module& m, const std::string& kernel, Dim3 grid, Dim3 block,
                           const KernelArgs& args, uint32_t dynamic_shared_bytes, bool cooperative) {
  const bool timed = opts_.mode == Mode::Timing && (!opts_.time_launch || opts_.time_launch(launches_ + 1));
  if (timed) {  // the three steps, with this process's own simulation
    start_launch(m, kernel, grid, block, args, dynamic_shared_bytes, cooperative);
    timing_->gpu->simulate_kernel();
    return finish_launch();
  }
  auto t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> params;
  const func::LaunchGeometry geom = prepare(m, kernel, grid, block, args, dynamic_shared_bytes, cooperative, params);
  progress_->begin_launch(kernel);
  return record(launch_functional(m, kernel, geom, params), kernel, t0, geom, false);
}

Device::KernelInfo Device::kernel_info(Module& m, const std::string& kernel) {
  const Kernel& k = m.kernel(kernel);
  KernelInfo info;
  info.regs_per_thread = k.regs_per_thread;
  info.local_bytes = k.prog.local_bytes;
  info.param_bytes = k.prog.param_bytes;
  info.static_shared_bytes = k.prog.static_shared_bytes;
  const auto& n = k.prog.reqntid[0] ? k.prog.reqntid : k.prog.maxntid;
  if (n[0])
    info.max_threads_per_block = static_cast<uint32_t>(std::min<uint64_t>(
        func::kMaxCtaThreads, uint64_t{n[0]} * std::max(1u, n[1]) * std::max(1u, n[2])));
  return info;
}

Device::Occupancy Device::occupancy(Module& m, const std::string& kernel, Dim3 block, uint32_t dynamic_shared_bytes) {
  gpu::SmLimits limits;
  if (opts_.machine) limits = opts_.machine->limits;
  const gpu::Occupancy occ = gpu::CtaDispatcher::occupancy(footprint(m.kernel(kernel), block, dynamic_shared_bytes), limits);
  return {occ.ctas_per_sm, occ.limited_by};
}

struct Device::Pending {
  std::string kernel;
  std::chrono::steady_clock::time_point t0;
  Kernel* k = nullptr;
  func::LaunchGeometry geom;
  gpu::CtaFootprint fp;
  uint64_t w0 = 0, t0i = 0, shfl0 = 0;
};

void Device::start_launch(Module& m, const std::string& kernel, Dim3 grid, Dim3 block, const KernelArgs& args,
                          uint32_t dynamic_shared_bytes, bool cooperative) {
  if (opts_.mode != Mode::Timing)
    throw Error(ExitCode::Internal, "Device::start_launch(): only a timing-mode device runs inside a simulation");
  if (pending_) throw Error(ExitCode::Internal, "Device::start_launch(): a launch is still running");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> params;
  const func::LaunchGeometry geom = prepare(m, kernel, grid, block, args, dynamic_shared_bytes, cooperative, params);
  progress_->begin_launch(kernel);
  start_timing(m, kernel, geom, params, t0);
}

LaunchStats Device::finish_launch() {
  if (!pending_) throw Error(ExitCode::Internal, "Device::finish_launch(): no launch is running");
  const std::string kernel = pending_->kernel;
  const auto t0 = pending_->t0;
  const func::LaunchGeometry geom = pending_->geom;
  return record(finish_timing(), kernel, t0, geom, true);
}

LaunchStats Device::record(LaunchStats st, const std::string& kernel, std::chrono::steady_clock::time_point t0,
                           const func::LaunchGeometry& geom, bool timed) {
  if (launches_ == 0) startup_seconds_ = std::chrono::duration<double>(t0 - util::process_start()).count();
  ++launches_;
  st.kernel = kernel;
  st.grid = geom.grid;
  st.block = geom.block;
  st.dynamic_shared_bytes = geom.dynamic_shared_bytes;
  st.timed = timed;
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  totals_.max_stack_depth = std::max(totals_.max_stack_depth, st.max_stack_depth);
  totals_.cycles += st.cycles;
  totals_.ctas += st.ctas;
  totals_.warp_instructions += st.warp_instructions;
  totals_.thread_instructions += st.thread_instructions;
  totals_.wall_seconds += st.wall_seconds;
  totals_.shfl_undefined_reads += st.shfl_undefined_reads;
  launch_log_.push_back(st);
  return st;
}

void Device::annotate_last_launch_cycles(uint64_t cycles) {
  if (launch_log_.empty()) throw Error(ExitCode::Internal, "annotate_last_launch_cycles(): no launch yet");
  LaunchStats& last = launch_log_.back();
  totals_.cycles = totals_.cycles - last.cycles + cycles;
  last.cycles = cycles;
}

// func.shfl_undefined of the machine (the default when there is none).
func::ShflUndefined Device::shfl_policy() const {
  return opts_.machine ? func::shfl_undefined_from_name(opts_.machine->shfl_undefined) : func::ShflUndefined::Zero;
}

namespace {
// A cooperative launch in functional mode: every CTA in flight at once, each
// with its own runner, one slice per CTA in turn until all have finished, so
// a CTA spinning in grid.sync() lets the others reach it.
RunnerStats run_side_by_side(Kernel& k, const func::ExecEnv& launch_env, const func::LaunchGeometry& geom,
                             const std::vector<uint8_t>& params, const DeviceOptions& opts) {
  func::ExecEnv env = launch_env;
  env.record_accesses = false;
  std::vector<std::unique_ptr<func::CtaState>> ctas;
  std::vector<std::unique_ptr<FunctionalRunner>> runners;
  uint64_t index = 0;
  for (uint32_t z = 0; z < geom.grid[2]; ++z)
    for (uint32_t y = 0; y < geom.grid[1]; ++y)
      for (uint32_t x = 0; x < geom.grid[0]; ++x, ++index) {
        ctas.push_back(std::make_unique<func::CtaState>(k.prog, geom, func::Dim3{{x, y, z}}, params));
        runners.push_back(std::make_unique<FunctionalRunner>(k.prog, *k.cfg, *k.exec, opts));
        runners.back()->start_cta(*ctas.back(), index);
      }
  RunnerStats rs;
  std::vector<bool> done(ctas.size(), false);
  for (size_t left = ctas.size(); left > 0;)
    for (size_t i = 0; i < ctas.size(); ++i)
      if (!done[i] && runners[i]->step_cta(*ctas[i], env, rs)) {
        done[i] = true;
        --left;
      }
  return rs;
}
}  // namespace

LaunchStats Device::launch_functional(Module& m, const std::string& kernel, const func::LaunchGeometry& geom,
                                      const std::vector<uint8_t>& params) {
  Kernel& k = m.kernel(kernel);
  func::ExecEnv env;
  env.global = &mem_;
  env.textures = &textures_;
  env.printf_out = opts_.printf_out ? opts_.printf_out : &std::cout;
  env.heap = &heap_;
  env.call_stack_bytes = opts_.call_stack_bytes;
  env.shfl_undefined = shfl_policy();
  env.shfl_log = &k.shfl_log;
  const uint64_t shfl0 = k.shfl_log.reads();
  RunnerStats rs;
  uint64_t index = 0;
  if (geom.grid_workspace) {  // cooperative: every CTA in flight at once
    rs = run_side_by_side(k, env, geom, params, opts_);
    index = geom.ctas();
  } else {
    FunctionalRunner runner(k.prog, *k.cfg, *k.exec, opts_);
    std::optional<func::CtaState> cta;  // one state, reset for each CTA (its buffers stay)
    for (uint32_t z = 0; z < geom.grid[2]; ++z)
      for (uint32_t y = 0; y < geom.grid[1]; ++y)
        for (uint32_t x = 0; x < geom.grid[0]; ++x, ++index) {
          if (cta)
            cta->reset({{x, y, z}});
          else
            cta.emplace(k.prog, geom, func::Dim3{{x, y, z}}, params);
          runner.run_cta(*cta, env, index, rs);
          if (opts_.after_cta) opts_.after_cta(rs.warp_instructions);
          if (progress_->due())
            progress_->report(index + 1, geom.ctas(), 0, totals_.thread_instructions + rs.thread_instructions);
        }
  }
  LaunchStats st;
  st.ctas = index;
  st.warp_instructions = rs.warp_instructions;
  st.thread_instructions = rs.thread_instructions;
  st.max_stack_depth = static_cast<uint32_t>(rs.max_stack_depth);
  st.shfl_undefined_reads = k.shfl_log.reads() - shfl0;
  return st;
}

void Device::start_timing(Module& m, const std::string& kernel, const func::LaunchGeometry& geom,
                          const std::vector<uint8_t>& params, std::chrono::steady_clock::time_point t0) {
  Kernel& k = m.kernel(kernel);
  Timing& t = timing();
  if (!t.platform_memory && !t.memory) {
    t.memory = std::make_unique<mem::BackingMemory>("memory", t.stats, "memory");
    t.gpu->memory_socket.bind(t.memory->socket);
  }
  auto ctx = std::make_shared<sm::KernelContext>();
  ctx->prog = &k.prog;
  ctx->program_owner = k.owner;
  ctx->cfg = k.cfg.get();
  ctx->exec = k.exec.get();
  ctx->du = &k.du;
  ctx->geom = geom;
  ctx->params = params;
  ctx->env.global = &mem_;
  ctx->env.textures = &textures_;
  ctx->env.printf_out = opts_.printf_out ? opts_.printf_out : &std::cout;
  ctx->env.heap = &heap_;
  ctx->env.call_stack_bytes = opts_.call_stack_bytes;
  ctx->env.shfl_undefined = shfl_policy();
  ctx->env.shfl_log = &k.shfl_log;
  ctx->code_base = kCodeBase + (launches_ % 4096) * kCodeRegion;
  ctx->regs_per_thread = k.regs_per_thread;
  ctx->launch_id = launches_;
  ctx->max_warp_instructions = opts_.max_warp_instructions;
  ctx->max_cycles = opts_.max_cycles;
  const uint64_t now = util::now_cycle();
  if (opts_.max_cycles && opts_.max_cycles < ~uint64_t{0} - now) ctx->cycle_limit = now + opts_.max_cycles;
  if (opts_.max_spin_cycles) {
    // Launches run one at a time (start_launch refuses while one runs): the
    // last kernel is done with the watch, though its context may still hold it.
    if (spin_ && spin_->window() == opts_.max_spin_cycles) spin_->restart(now);
    else spin_ = std::make_shared<sm::SpinWatch>(opts_.max_spin_cycles, now);
    ctx->spin = spin_;
  }
  const gpu::CtaFootprint fp = footprint(k, geom.block, geom.dynamic_shared_bytes);

  const stats::Registry& reg = timing_->stats;
  auto p = std::make_unique<Pending>();
  p->kernel = kernel;
  p->t0 = t0;
  p->k = &k;
  p->geom = geom;
  p->fp = fp;
  p->w0 = reg.sum("sm*.warp_instructions");
  p->t0i = reg.sum("sm*.thread_instructions");
  p->shfl0 = k.shfl_log.reads();
  timing_->gpu->start_kernel(ctx, fp);
  pending_ = std::move(p);
}

LaunchStats Device::finish_timing() {
  const std::unique_ptr<Pending> p = std::move(pending_);  // done, whatever happens below
  const stats::Registry& reg = timing_->stats;
  const gpu::CtaFootprint& fp = p->fp;
  LaunchStats st;
  st.cycles = timing_->gpu->finish_kernel();
  if (timing_->warp_trace) timing_->warp_trace->flush();
  st.ctas = p->geom.ctas();
  st.warp_instructions = reg.sum("sm*.warp_instructions") - p->w0;
  st.thread_instructions = reg.sum("sm*.thread_instructions") - p->t0i;
  st.max_stack_depth = timing_->gpu->take_max_stack_depth();
  st.shfl_undefined_reads = p->k->shfl_log.reads() - p->shfl0;
  const gpu::Occupancy occ = gpu::CtaDispatcher::occupancy(fp, opts_.machine->limits);
  st.threads_per_cta = fp.threads;
  st.regs_per_thread = fp.regs_per_thread;
  st.shared_bytes_per_cta = fp.shared_bytes;
  st.ctas_per_sm = occ.ctas_per_sm;
  st.occupancy_limited_by = occ.limited_by;
  return st;
}

}  // namespace simt::runtime
