// The host's view of the simulated GPU: load PTX, allocate and copy device
// memory, launch kernels. This is what workloads and manifests drive; the
// same calls later dispatch to the timing model instead of the functional one.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <tlm>

#include "func/cta_state.h"
#include "func/device_heap.h"
#include "func/global_memory.h"
#include "func/shfl_undefined.h"
#include "func/texture.h"
#include "ptx/ir.h"
#include "trace/progress.h"
#include "trace/warp_trace.h"
#include "trace/waveform.h"

namespace simt::gpu { struct MachineConfig; }
namespace simt::stats { class Registry; }
namespace simt::sm { class SpinWatch; }

namespace simt::runtime {

using func::Dim3;

// How the functional runner groups the threads of a CTA into warps.
enum class Grouping : uint8_t {
  Static,  // warp w = threads [w*warp_size, (w+1)*warp_size)
  Random,  // a seeded random permutation of the CTA's threads cut into warps
};

enum class Mode : uint8_t {
  Functional,  // every CTA runs to completion in turn; no time
  Timing,      // the cycle-level SystemC model of the machine in `machine`
};

// Runaway guards on by default (both 0 = no limit). A CTA that issues more
// warp instructions than this stops the run with a kernel fault (both
// modes); so does a timing launch that runs longer than kDefaultMaxCycles.
// Built-in workloads at size large stay far below both; a kernel meant to
// run longer raises them (--max-warp-instructions, --max-cycles).
inline constexpr uint64_t kDefaultMaxWarpInstructions = 50'000'000;
inline constexpr uint64_t kDefaultMaxCycles = 2'000'000'000;
// Timing mode: a launch in which for this many cycles no thread stored,
// ran an atomic, exited or reached a barrier while its loads kept
// re-reading the same few lines is a spin-wait on a value nothing changes
// (sm/spin_watch.h). About 30 s of simulation on a fully loaded 15-SM
// machine; no built-in workload comes near it (--max-spin-cycles).
inline constexpr uint64_t kDefaultMaxSpinCycles = 1'500'000;

// CUDA's launch limits per dimension (x, y, z); with them the CTA count of a
// grid fits in 63 bits and never wraps.
inline constexpr Dim3 kMaxGrid{{2147483647u, 65535u, 65535u}};
inline constexpr Dim3 kMaxBlock{{1024u, 1024u, 64u}};

struct DeviceOptions {
  Mode mode = Mode::Functional;
  // Timing mode: the machine (finalized MachineConfig; its sm.warp_size is
  // the warp size) and optional waveforms.
  std::shared_ptr<const gpu::MachineConfig> machine;
  trace::WaveformOptions waveform;
  // Timing mode: --trace-warps FILE (empty = off) and its --trace-filter.
  std::string warp_trace_path;
  trace::WarpTraceFilter warp_trace_filter;
  // Progress lines on stderr every ~2 s of wall time (simtlab: unless --quiet).
  bool progress = false;
  uint32_t warp_size = 32;     // 4..64 (functional mode)
  Grouping grouping = Grouping::Static;
  uint64_t grouping_seed = 1;
  std::ostream* printf_out = nullptr;  // device printf goes here (stdout when null)
  // Runaway limits, 0 = none: warp instructions per CTA (both modes) and
  // cycles per launch (timing mode); exceeding one is a kernel fault.
  uint64_t max_warp_instructions = kDefaultMaxWarpInstructions;
  uint64_t max_cycles = kDefaultMaxCycles;
  uint64_t max_spin_cycles = kDefaultMaxSpinCycles;  // timing mode, 0 = off
  // Device memory is materialised in 64 KiB pages on first touch; more than
  // this many bytes of them is a resource error (exit 5) rather than the
  // host's out-of-memory killer. 0 = 3/4 of the host's physical memory.
  uint64_t max_device_memory = 0;
  // Bytes of saved frames each thread's call stack holds (recursive calls
  // save the callee's registers and local frame there); deeper is a kernel fault.
  uint32_t call_stack_bytes = func::kDefaultCallStackBytes;
  // Functional mode: called after each CTA with the launch's warp
  // instructions so far (a loosely-timed runtime::GpuDevice advances its
  // time here, and may wait()).
  std::function<void(uint64_t warp_instructions)> after_cta;
  // Timing mode: the launches (numbered from 1 in launch order) that run on
  // the timing model; the others run functionally (fast-forward, as with
  // GPGPU-Sim's kernel ranges). Null: every launch is timed.
  std::function<bool(uint64_t launch_number)> time_launch;
  void validate() const;               // throws simt::Error naming the option
};

// Kernel arguments packed as the PTX .param layout expects (natural alignment).
class KernelArgs {
 public:
  template <class T>
  KernelArgs& push(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    return push_bytes(&v, sizeof(T), alignof(T));
  }
  KernelArgs& push_bytes(const void* p, size_t n, size_t align);
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Byte offset of each pushed argument, to check against the kernel's layout.
  const std::vector<size_t>& offsets() const { return offsets_; }
  const std::vector<size_t>& sizes() const { return sizes_; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<size_t> offsets_, sizes_;
};

struct LaunchStats {
  std::string kernel;                // per-launch records: the kernel's name (empty in totals())
  Dim3 grid{{0, 0, 0}}, block{{0, 0, 0}};  // per-launch records: the launch's shape
  uint32_t dynamic_shared_bytes = 0;
  bool timed = false;                // ran on the timing model (else functionally)
  uint64_t cycles = 0;               // timing mode: simulated core cycles
  uint64_t warp_instructions = 0;    // instructions issued per warp (any active thread)
  uint64_t thread_instructions = 0;  // sum of active threads over issued instructions
  uint64_t ctas = 0;
  uint32_t max_stack_depth = 0;      // deepest reconvergence stack (totals(): over every launch)
  uint64_t shfl_undefined_reads = 0;  // shfl.sync reads of an inactive / non-member lane (func.shfl_undefined)
  double wall_seconds = 0;
  // Timing mode, per launch: what one CTA takes and how many fit on an SM.
  uint32_t threads_per_cta = 0, regs_per_thread = 0, shared_bytes_per_cta = 0;
  uint32_t ctas_per_sm = 0;            // the occupancy limit
  std::string occupancy_limited_by;    // max_ctas | threads | registers | shared_bytes
};

class Module;  // a loaded PTX module (opaque)

class Device {
 public:
  explicit Device(DeviceOptions opts = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Parses and loads PTX (module-scope .global/.const variables are placed in
  // device memory and initialised). `name` is used in messages (a file path).
  // Throws simt::Error(BadInput) with file:line:col on malformed PTX.
  Module& load_ptx(const std::string& text, const std::string& name);
  // The same for a module already parsed (e.g. several units joined by
  // ptx::merge_modules()); `name` becomes its path in messages.
  Module& load_module(ptx::Module ir, const std::string& name);
  Module& load_ptx_file(const std::string& path);

  // Reserves address space only: pages take host memory when first touched.
  uint64_t malloc(uint64_t bytes);
  // Throws simt::Error (BadInput) for an address malloc() did not return,
  // including a block of the device heap (only a kernel's free() releases those).
  void free(uint64_t addr);

  // cudaDeviceSetLimit(cudaLimitMallocHeapSize): the bytes of the heap that
  // device-side malloc/free use (default 8 MiB, func::DeviceHeap). The heap
  // is allocated in device memory at the first launch of a kernel that calls
  // malloc or free and lasts as long as the device; from then on its size
  // cannot change (simt::Error, BadInput), as in CUDA.
  void set_malloc_heap_size(uint64_t bytes) { heap_.set_size(bytes); }
  uint64_t malloc_heap_size() const { return heap_.size(); }
  const func::DeviceHeap& heap() const { return heap_; }
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, uint64_t src, uint64_t bytes) const;
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);

  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = malloc(v.size() * sizeof(T));
    copy_to_device(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, size_t count) const {
    std::vector<T> v(count);
    copy_to_host(v.data(), addr, count * sizeof(T));
    return v;
  }

  // Runs the kernel to completion (functional execution). Throws simt::Error:
  // BadInput for an unknown kernel or argument mismatch, KernelFault (with
  // kernel/CTA/thread/PC/address) for a bad access, trap or barrier deadlock.
  //
  // `cooperative` is cudaLaunchCooperativeKernel: every CTA must be resident
  // at once (BadInput naming the limit when the machine cannot hold the
  // grid), and the kernel gets the grid-sync workspace that
  // cooperative_groups' grid.sync() uses (%envreg1/%envreg2). Functional
  // mode then runs the CTAs side by side, a slice at a time.
  LaunchStats launch(Module& m, const std::string& kernel, Dim3 grid, Dim3 block,
                     const KernelArgs& args, uint32_t dynamic_shared_bytes = 0, bool cooperative = false);

  // The CTAs of `kernel` with this block that the machine holds at once
  // (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs): the most a
  // cooperative launch may have. A device without a machine (functional
  // mode from the library) holds any grid: UINT64_MAX.
  uint64_t max_resident_ctas(Module& m, const std::string& kernel, Dim3 block, uint32_t dynamic_shared_bytes = 0);

  // Timing mode inside a simulation someone else runs (gpu::GpuDevice,
  // docs/virtual-platform.md): start_launch() checks the launch as launch()
  // does and starts it on the GPU, then returns; the caller's simulation runs
  // it; finish_launch(), once the GPU is idle (util::Clock::idle()), returns
  // and records its statistics, or throws its fault or deadlock as launch()
  // would. One launch at a time.
  void start_launch(Module& m, const std::string& kernel, Dim3 grid, Dim3 block, const KernelArgs& args,
                    uint32_t dynamic_shared_bytes = 0, bool cooperative = false);
  LaunchStats finish_launch();
  bool launch_running() const { return pending_ != nullptr; }

  // A module's .global/.const variable (what cudaMemcpyToSymbol names): its
  // device address and size in bytes. Throws simt::Error(BadInput) naming
  // the module for an unknown name or one without storage (extern).
  struct Symbol {
    uint64_t addr = 0, bytes = 0;
  };
  Symbol symbol(Module& m, const std::string& name) const;
  // Moves module variable `name` to `addr` (device memory the caller
  // mapped, e.g. host-backed memory for a __managed__ variable), carrying
  // its initial bytes. Only before the first kernel of `m` is linked
  // (simt::Error(Internal) after). Address initialisers of other variables
  // that named it keep the old address.
  void place_variable(Module& m, const std::string& name, uint64_t addr);

  // Texture and surface objects (cudaCreateTextureObject /
  // cudaCreateSurfaceObject): the handle a kernel receives as its
  // cudaTextureObject_t / cudaSurfaceObject_t argument. The texels must lie
  // in device memory (layout.base .. + span()). Throws simt::Error(BadInput)
  // naming `what` for an unusable description or memory outside every
  // allocation. Objects live as long as the device.
  uint64_t create_texture(const func::TextureDesc& t, const std::string& what = "texture");
  uint64_t create_surface(const func::SurfaceDesc& s, const std::string& what = "surface");
  const func::TextureTable& textures() const { return textures_; }

  // What the CUDA runtime reports of a kernel (cudaFuncGetAttributes) and
  // how many of its CTAs with `block` one SM of the machine holds
  // (cudaOccupancyMaxActiveBlocksPerMultiprocessor); without a machine, the
  // occupancy is CUDA's per-CTA limits only.
  struct KernelInfo {
    uint32_t regs_per_thread = 0, local_bytes = 0, param_bytes = 0;
    uint64_t static_shared_bytes = 0;
    uint32_t max_threads_per_block = 1024;  // .maxntid / .reqntid, else 1024
  };
  KernelInfo kernel_info(Module& m, const std::string& kernel);
  struct Occupancy {
    uint32_t ctas_per_sm = 0;
    std::string limited_by;  // max_ctas | threads | registers | shared_bytes
  };
  Occupancy occupancy(Module& m, const std::string& kernel, Dim3 block, uint32_t dynamic_shared_bytes);

  // The linked program of a kernel (for inspection and timing models).
  const ptx::Program& program(Module& m, const std::string& kernel);
  const ptx::Module& ptx_module(Module& m) const;

  // Timing mode: the GPU's global-memory socket (TLM-2.0 base protocol,
  // 32-bit bus width). By default the first launch binds it to our own
  // mem::BackingMemory; a virtual platform that calls this instead binds it
  // to its own memory target before the first launch (SystemC binds during
  // elaboration). From the first launch on, device memory lives in that
  // target: what the host wrote before is copied there at the start of
  // simulation, later host copies and every kernel access go through DMI
  // (or debug transport where the target refuses DMI). See
  // docs/virtual-platform.md. Throws simt::Error in functional mode or after
  // the first timing launch.
  tlm::tlm_initiator_socket<>& memory_socket();

  // Device memory (allocation map + bytes), whichever storage holds them.
  func::GlobalMemory& memory() { return mem_; }
  const func::GlobalMemory& memory() const { return mem_; }
  const DeviceOptions& options() const { return opts_; }
  // Totals over every launch so far.
  const LaunchStats& totals() const { return totals_; }
  // Host seconds from the process's start (util::process_start()) to the
  // beginning of this device's first launch: loading, parsing and linking
  // PTX, input set-up; negative before the first launch.
  double startup_seconds() const { return startup_seconds_; }
  // One record per launch so far, in launch order (the run report's "kernels").
  const std::vector<LaunchStats>& launches() const { return launch_log_; }
  // Progress lines (e.g. set_launch_count() when the number of launches is known).
  trace::Progress& progress() { return *progress_; }
  // Timing mode: every block's counters (null before the first timing launch).
  const stats::Registry* timing_stats() const;
  // Loosely timed (runtime::GpuDevice): the cycles a caller annotated for the
  // last functional launch, recorded in launches().back() and totals().
  void annotate_last_launch_cycles(uint64_t cycles);

 private:
  LaunchStats launch_functional(Module& m, const std::string& kernel, const func::LaunchGeometry& geom,
                                const std::vector<uint8_t>& params);
  // A launch's checked geometry and parameter buffer; a cooperative one
  // also gets its (zeroed) grid-sync workspace after the residency check.
  func::LaunchGeometry prepare(Module& m, const std::string& kernel, Dim3 grid, Dim3 block, const KernelArgs& args,
                               uint32_t dynamic_shared_bytes, bool cooperative, std::vector<uint8_t>& params);
  uint64_t grid_workspace_ = 0;  // allocated at the first cooperative launch
  struct Pending;  // a timing launch between start and finish
  void start_timing(Module& m, const std::string& kernel, const func::LaunchGeometry& geom,
                    const std::vector<uint8_t>& params, std::chrono::steady_clock::time_point t0);
  LaunchStats finish_timing();
  LaunchStats record(LaunchStats st, const std::string& kernel, std::chrono::steady_clock::time_point t0,
                     const func::LaunchGeometry& geom, bool timed);
  func::ShflUndefined shfl_policy() const;
  struct Timing;  // the SystemC machine, built at the first timing launch (or memory_socket())
  Timing& timing();

  DeviceOptions opts_;
  std::unique_ptr<trace::Progress> progress_;
  std::unique_ptr<Timing> timing_;
  std::unique_ptr<Pending> pending_;
  std::shared_ptr<sm::SpinWatch> spin_;  // restarted by each timing launch (its tables are 288 KiB)
  uint64_t launches_ = 0;
  double startup_seconds_ = -1;
  func::GlobalMemory mem_;
  func::DeviceHeap heap_;  // device-side malloc; its region is part of mem_
  func::TextureTable textures_;
  std::vector<std::unique_ptr<Module>> modules_;
  LaunchStats totals_;
  std::vector<LaunchStats> launch_log_;
};

}  // namespace simt::runtime
