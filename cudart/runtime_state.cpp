#include "cudart/runtime_state.h"

#include <sys/mman.h>

#include <cerrno>  // program_invocation_name
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include <systemc>

#include "cudart/ptx_files.h"
#include "gpu/machine_config.h"
#include "runtime/run_report.h"
#include "stats/stats.h"
#include "tb/library_options.h"
#include "tb/run_outputs.h"

namespace simt::cudart {

namespace {

RuntimeState* g_state = nullptr;

// Device memory a CUDA context holds before the program allocates: its printf FIFO
// (cudaLimitPrintfFifoSize, 1 MiB by default).
constexpr uint64_t kContextReservedBytes = uint64_t{1} << 20;

// The CUDA error a kernel fault becomes (what a GPU reports for it).
cudaError_t fault_code(const Error& e) {
  const FaultSite* s = e.site();
  if (!s) return abi::cudaErrorLaunchTimeout;  // deadlock, runaway, spin-wait: the watchdog stopped it
  switch (s->kind) {
    case FaultKind::IllegalAddress: return abi::cudaErrorIllegalAddress;
    case FaultKind::Misaligned: return abi::cudaErrorMisalignedAddress;
    case FaultKind::Assert: return abi::cudaErrorAssert;
    case FaultKind::Trap: return abi::cudaErrorLaunchFailure;
    case FaultKind::Other: break;
  }
  return abi::cudaErrorLaunchFailure;
}

void finish_at_exit() {
  if (g_state) g_state->finish();
}

}  // namespace

RuntimeState& RuntimeState::get() {
  // Built once even when host threads race to their first call; it lives
  // until the process ends (entry points run from atexit handlers too).
  static RuntimeState* const state = [] {
    g_state = new RuntimeState();
    std::atexit(finish_at_exit);
    return g_state;
  }();
  return *state;
}

RuntimeState::RuntimeState() {
  // The program sees its own output, not SystemC's banner or notes.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    opts_ = std::make_unique<tb::LibraryOptions>(tb::parse_library_options(tb::tokens_from_environment()));
    const tb::RunOptions& o = opts_->run;
    outputs_ = std::make_unique<tb::RunOutputs>(tb::output_paths(o), stats::csv_header(runtime::launch_csv_columns()));
    // For tests of what follows a defect (docs/cuda-apps.md): launch N fails as an internal error would.
    if (const char* n = std::getenv("SIMTLAB_TEST_FAIL_LAUNCH")) fail_launch_ = std::strtoull(n, nullptr, 10);
  } catch (const Error& e) {
    std::fprintf(stderr, "simtlab: %s\n", e.what());
    std::fflush(stderr);
    std::_Exit(static_cast<int>(e.code()));
  }
}

RuntimeState::~RuntimeState() = default;

const gpu::MachineConfig& RuntimeState::machine() const { return *opts_->machine->config; }

bool RuntimeState::timing() const { return opts_->run.mode == "timing"; }

std::string RuntimeState::machine_name() const { return tb::machine_name(opts_->run); }

void RuntimeState::fatbin_registered(const FatbinRecord& f) {
  const std::string& dir = opts_->run.save_ptx;
  if (dir.empty()) return;
  if (!f.error.empty()) return note("--save-ptx: " + f.where + " has no PTX to save: " + f.error);
  const std::string err = save_fatbin_ptx(f, registry_.fatbin_count(), dir,
                                          std::filesystem::path(program_invocation_name).filename().string());
  if (!err.empty()) note(err);
}

runtime::Device& RuntimeState::device() {
  if (!device_) build_device();
  return *device_;
}

void RuntimeState::build_device() {
  runtime::DeviceOptions d = tb::device_options(opts_->run, *opts_->machine, *outputs_);
  if (!opts_->launches.all()) {
    const tb::LaunchSet set = opts_->launches;
    d.time_launch = [set](uint64_t n) { return set.contains(n); };
  }
  device_ = std::make_unique<runtime::Device>(d);
  // A GPU, not a memory checker: its MMU maps whole pages, so a kernel reading just before or after
  // a buffer (Parboil spmv's x[-1] for padding, Rodinia srad's halo) gets the page's bytes, not a
  // fault; and a CUDA context holds device memory of its own (its printf FIFO, 1 MiB by default)
  // below the program's first allocation.
  func::GlobalMemory& mem = device_->memory();
  mem.set_fault_granule(func::GlobalMemory::kPageSize);
  mem.allocate(kContextReservedBytes);
}

cudaError_t RuntimeState::take_last_error() {
  const cudaError_t e = sticky_ != abi::cudaSuccess ? sticky_ : last_;
  last_ = abi::cudaSuccess;
  return e;
}

void RuntimeState::note(const std::string& message) {
  std::fflush(stdout);  // the program's output so far comes first
  std::fprintf(stderr, "simtlab: %s\n", message.c_str());
  std::fflush(stderr);
}

cudaError_t RuntimeState::fail(cudaError_t code, const std::string& message) {
  last_ = code;
  if (!message.empty() && printed_.insert(message).second) note(message);
  return code;
}

cudaError_t RuntimeState::fail(const Error& e, const char* call) {
  switch (e.code()) {
    case ExitCode::KernelFault:
      sticky_ = fault_code(e);
      return fail(sticky_, e.what());
    case ExitCode::BadInput: return fail(abi::cudaErrorInvalidValue, std::string(call) + ": " + e.what());
    case ExitCode::HostResources: return fail(abi::cudaErrorMemoryAllocation, std::string(call) + ": " + e.what());
    case ExitCode::Internal: return internal_error(call, e.what());
    default: return fail(abi::cudaErrorUnknown, std::string(call) + ": " + e.what());
  }
}

cudaError_t RuntimeState::internal_error(const char* call, const std::string& what) {
  internal_error_ = true;
  sticky_ = abi::cudaErrorUnknown;
  return fail(sticky_, std::string(call) + ": internal error: " + what +
                           " (a defect of simtlab; every later CUDA call returns cudaErrorUnknown)");
}

KernelRecord& RuntimeState::kernel(const void* host_fun) {
  KernelRecord* k = registry_.kernel(host_fun);
  if (!k) throw CudaError{abi::cudaErrorInvalidDeviceFunction, "not a registered __global__ function"};
  return *k;
}

runtime::Module& RuntimeState::load(FatbinRecord& f) {
  const bool fresh = f.module == nullptr;
  runtime::Module& m = registry_.load(f, device());
  if (fresh)
    for (VarRecord* v : registry_.managed_vars())
      if (v->fatbin == &f) {
        void* host = managed_malloc(v->size);
        device().place_variable(m, v->name, addr(host));
        *v->managed_ptr = host;
      }
  return m;
}

void* RuntimeState::managed_malloc(uint64_t bytes) {
  // Whole device pages at a page-aligned host address: map a page more and trim to the boundary.
  constexpr uint64_t page = func::GlobalMemory::kPageSize;
  const uint64_t size = (std::max<uint64_t>(bytes, 1) + page - 1) / page * page;
  const uint64_t raw_bytes = size + page;
  void* raw = mmap(nullptr, raw_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED)
    throw CudaError{abi::cudaErrorMemoryAllocation, "cannot map " + std::to_string(size) + " bytes of unified memory"};
  const uint64_t base = (addr(raw) + page - 1) / page * page;
  try {
    device().memory().map_host(reinterpret_cast<uint8_t*>(base), size);
  } catch (...) {
    munmap(raw, raw_bytes);
    throw;
  }
  managed_[base] = Mapping{raw, raw_bytes};
  return ptr(base);
}

bool RuntimeState::is_managed_range(const void* p) const {
  auto it = managed_.upper_bound(addr(p));
  if (it == managed_.begin()) return false;
  --it;
  return device_ && device_->memory().mapped(addr(p), 1) && addr(p) - it->first < it->second.raw_bytes;
}

// The module `what` lives in; a fatbin that cannot load is what a GPU
// without a usable image answers: cudaErrorNoKernelImageForDevice.
runtime::Module& RuntimeState::load_for(FatbinRecord& f, const std::string& what) {
  try {
    return load(f);
  } catch (const Error& e) {
    if (e.code() != ExitCode::BadInput) throw;
    throw CudaError{abi::cudaErrorNoKernelImageForDevice, what + ": " + e.what()};
  }
}

runtime::Module& RuntimeState::module_of(KernelRecord& k) { return load_for(*k.fatbin, "kernel '" + k.name + "'"); }

runtime::Module& RuntimeState::module_of(VarRecord& v) { return load_for(*v.fatbin, "variable '" + v.name + "'"); }

void RuntimeState::check_stream(abi::cudaStream_t s) const {
  if (!clock_.valid(s)) throw CudaError{abi::cudaErrorInvalidResourceHandle, "not a live stream"};
}

void RuntimeState::launch(KernelRecord& k, abi::dim3 grid, abi::dim3 block, void** args, uint64_t shared_bytes,
                          abi::cudaStream_t stream, bool cooperative) {
  // A kernel this machine cannot run (a PTX feature or a combination it does not model) is the
  // model's limit, not the program's fault: the report lists it, so that no sweep takes the run
  // for a complete one.
  const uint64_t number = launch_count_ + 1;
  try {
    start_launch(k, grid, block, args, shared_bytes, stream, cooperative);
  } catch (const Error& e) {
    if (e.code() == ExitCode::BadInput) refused_.push_back({number, k.name, e.what()});
    throw;
  } catch (const CudaError& e) {
    if (e.code == abi::cudaErrorNoKernelImageForDevice) refused_.push_back({number, k.name, e.message});
    throw;
  }
}

void RuntimeState::start_launch(KernelRecord& k, abi::dim3 grid, abi::dim3 block, void** args, uint64_t shared_bytes,
                                abi::cudaStream_t stream, bool cooperative) {
  check_stream(stream);
  runtime::Device& dev = device();
  runtime::Module& m = module_of(k);
  const ptx::Program& prog = dev.program(m, k.name);
  const runtime::Dim3 g{{grid.x, grid.y, grid.z}}, b{{block.x, block.y, block.z}};
  const std::string what = "launch of kernel '" + k.name + "'";
  // The checks a GPU makes before it starts a kernel, with its error codes.
  for (int i = 0; i < 3; ++i)
    if (g[i] == 0 || b[i] == 0 || g[i] > runtime::kMaxGrid[i] || b[i] > runtime::kMaxBlock[i])
      throw CudaError{abi::cudaErrorInvalidConfiguration, what + ": grid or block dimension out of range"};
  const uint64_t threads = uint64_t{b[0]} * b[1] * b[2];
  const runtime::Device::KernelInfo info = dev.kernel_info(m, k.name);
  if (threads > info.max_threads_per_block)
    throw CudaError{abi::cudaErrorInvalidConfiguration,
                    what + ": " + std::to_string(threads) + " threads per block, the kernel allows " +
                        std::to_string(info.max_threads_per_block)};
  if (shared_bytes > UINT32_MAX)
    throw CudaError{abi::cudaErrorInvalidValue, what + ": dynamic shared memory too large"};
  const runtime::Device::Occupancy occ = dev.occupancy(m, k.name, b, static_cast<uint32_t>(shared_bytes));
  if (occ.ctas_per_sm == 0) {
    const bool regs = occ.limited_by == "registers";
    throw CudaError{regs ? abi::cudaErrorLaunchOutOfResources
                         : occ.limited_by == "threads" ? abi::cudaErrorInvalidConfiguration : abi::cudaErrorInvalidValue,
                    what + ": one CTA of " + std::to_string(threads) + " threads does not fit on an SM of this "
                        "machine (limited by " + occ.limited_by + ")"};
  }
  if (cooperative && uint64_t{occ.ctas_per_sm} * machine().num_sms < uint64_t{g[0]} * g[1] * g[2])
    throw CudaError{abi::cudaErrorCooperativeLaunchTooLarge,
                    what + ": a cooperative grid must fit on the machine at once"};
  runtime::KernelArgs packed;
  for (const ptx::ParamSlot& p : prog.params) {
    const size_t i = &p - prog.params.data();
    if (!args || !args[i]) throw CudaError{abi::cudaErrorInvalidValue, what + ": argument " + std::to_string(i) + " is null"};
    packed.push_bytes(args[i], p.size, p.align ? p.align : 1);
  }
  if (++launch_count_ == fail_launch_)
    throw std::logic_error("launch " + std::to_string(fail_launch_) + " fails on purpose (SIMTLAB_TEST_FAIL_LAUNCH)");
  const runtime::LaunchStats st = dev.launch(m, k.name, g, b, packed, static_cast<uint32_t>(shared_bytes), cooperative);
  if (st.timed) clock_.advance(st.cycles, machine().sm.issue.clock_mhz);
}

uint64_t RuntimeState::device_malloc(uint64_t bytes) {
  const func::GlobalMemory& mem = device().memory();
  const uint64_t total = mem.touch_limit();
  if (total && (bytes > total || mem.bytes_allocated() > total - bytes))
    throw CudaError{abi::cudaErrorMemoryAllocation,
                    std::to_string(bytes) + " bytes do not fit in the device's " + std::to_string(total) +
                        " (option --max-device-memory)"};
  const uint64_t a = device().malloc(bytes ? bytes : 1);
  device_allocs_.insert(a);
  return a;
}

void RuntimeState::device_free(uint64_t a) {
  auto m = managed_.find(a);
  if (m != managed_.end()) {
    device().memory().release(a);
    munmap(m->second.raw, m->second.raw_bytes);
    managed_.erase(m);
    return;
  }
  if (!device_allocs_.count(a))
    throw CudaError{abi::cudaErrorInvalidValue, "free of an address cudaMalloc did not return"};
  device().free(a);
  device_allocs_.erase(a);
}

DeviceArray& RuntimeState::array(const void* handle) {
  auto it = arrays_.find(handle);
  if (it == arrays_.end()) throw CudaError{abi::cudaErrorInvalidResourceHandle, "not a live CUDA array"};
  return *it->second;
}

void RuntimeState::reset() {
  if (!device_) return;
  for (uint64_t a : device_allocs_) device_->free(a);
  device_allocs_.clear();
  for (auto& [h, arr] : arrays_) device_->free(arr->addr);
  arrays_.clear();
  for (auto& [a, m] : managed_) {
    device_->memory().release(a);
    munmap(m.raw, m.raw_bytes);
  }
  managed_.clear();
  last_ = abi::cudaSuccess;
}

bool RuntimeState::is_device(const void* p, uint64_t bytes) {
  return device().memory().mapped(addr(p), bytes ? bytes : 1);
}

void RuntimeState::finish() {
  if (finished_) return;
  finished_ = true;
  write_outputs();
  if (internal_error_) {
    note("the run stopped at an internal error (above): its results are not valid; exit status 6");
    std::fflush(nullptr);
    std::_Exit(static_cast<int>(ExitCode::Internal));
  }
}

void RuntimeState::write_outputs() {
  try {
    const tb::RunOptions& o = opts_->run;
    if (!device_ && o.stats_file.empty() && o.csv_file.empty()) return;  // no CUDA work, nothing asked for
    device();  // a program that launched nothing still gets its (empty) report
    if (!o.stats_file.empty() || !o.csv_file.empty()) {
      runtime::RunInfo info;
      info.what = std::string("program ") + program_invocation_name;
      info.mode = o.mode;
      info.config_files = o.configs;
      for (const auto& [key, value] : opts_->machine->registry.cli_assignments()) info.sets.push_back(key + "=" + value);
      info.machine = tb::machine_name(o);
      info.warp_size = machine().sm.issue.warp_size;
      nlohmann::json report = runtime::run_report(*device_, info, opts_->machine->registry.to_json());
      nlohmann::json& refused = report["refused_launches"] = nlohmann::json::array();
      for (const Refusal& r : refused_) refused.push_back({{"launch", r.launch}, {"kernel", r.kernel}, {"reason", r.reason}});
      outputs_->write_report(report, runtime::launch_csv_columns(), runtime::launch_csv_rows(report));
    }
    device_.reset();  // SystemC closes the waveform here
    outputs_->finish_traces();
  } catch (const Error& e) {
    note(std::string("writing the run's outputs: ") + e.what());
  }
}

}  // namespace simt::cudart
