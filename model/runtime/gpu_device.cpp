#include "runtime/gpu_device.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "gpu/machine_config.h"
#include "ptx/ir.h"
#include "simt_version.h"
#include "util/clock.h"
#include "util/cycle.h"
#include "util/error.h"
#include "util/fault_latch.h"
#include "util/tlm_payload.h"

namespace simt::runtime {

namespace {

uint32_t version_word() {
  unsigned major = 0, minor = 0, patch = 0;
  std::sscanf(kVersion, "%u.%u.%u", &major, &minor, &patch);
  return (major & 0xffff) << 16 | (minor & 0xff) << 8 | (patch & 0xff);
}

// The largest power of two (up to 16) dividing `offset`: pushing an argument
// with it as alignment after the previous one lands it at `offset` in a
// natural .param layout.
size_t align_of_offset(size_t offset) {
  size_t a = 16;
  while (a > 1 && offset % a) a /= 2;
  return a;
}

bool read_only(uint32_t off) {
  switch (off) {
    case GpuDevice::kId: case GpuDevice::kVersion: case GpuDevice::kStatus: case GpuDevice::kFaultCode:
    case GpuDevice::kModules: case GpuDevice::kKernels:
      return true;
    default:
      return (off >= GpuDevice::kCycles && off < GpuDevice::kFaultCode) ||
             (off >= GpuDevice::kFaultCta && off <= GpuDevice::kFaultAddr + 4) || off >= GpuDevice::kFaultText;
  }
}

}  // namespace

GpuDevice::GpuDevice(sc_core::sc_module_name name, Options o)
    : sc_core::sc_module(name), regs("regs"), irq("irq"), opt_(std::move(o)) {
  const bool lt = opt_.mode == Mode::LooselyTimed;
  DeviceOptions d;
  d.mode = lt ? runtime::Mode::Functional : runtime::Mode::Timing;
  if (opt_.machine) {
    d.machine = opt_.machine;
  } else {
    auto m = std::make_shared<gpu::MachineConfig>();
    m->finalize();
    d.machine = m;
  }
  d.warp_size = d.machine->sm.issue.warp_size;  // loosely timed: warps as the machine forms them
  if (lt) {
    lt_cost_ = opt_.lt_cycles_per_warp_instruction > 0 ? opt_.lt_cycles_per_warp_instruction
                                                       : 1.0 / (2.0 * d.machine->num_sms);
    d.after_cta = [this](uint64_t w) { lt_advance(w); };
  }
  dev_ = std::make_unique<Device>(d);
  for (const auto& [base, size] : opt_.windows) dev_->memory().map_platform(base, size);
  for (const std::string& f : opt_.ptx_files) modules_.push_back(&dev_->load_ptx_file(f));
  for (const auto& [n, text] : opt_.ptx_texts) modules_.push_back(&dev_->load_ptx(text, n));
  if (lt && opt_.lt_memory_timing) {
    timed_ = std::make_unique<TimedMemoryPort>("memory", lt_stats_, "memory_port",
                                               opt_.tolerate_incomplete_response);  // serves from start_of_simulation()
  } else if (lt) {
    port_ = std::make_unique<gpu::MemoryPort>("memory", lt_stats_, "memory_port");
    port_->serve(dev_->memory());
  } else {
    dev_->memory_socket();  // builds the machine now, while SystemC elaborates
  }
  regs.register_b_transport(this, &GpuDevice::b_transport);
  regs.register_transport_dbg(this, &GpuDevice::transport_dbg);
  r_[kId / 4] = kIdValue;
  r_[kVersion / 4] = version_word();
  r_[kModules / 4] = static_cast<uint32_t>(modules_.size());
  for (uint32_t i : {kGridX, kGridY, kGridZ, kBlockX, kBlockY, kBlockZ}) r_[i / 4] = 1;
  // A fault in a block must not stop the platform: note it and wake run().
  if (!lt)
    util::fault_handler() = [this] {
      faulted_ = true;
      fault_.notify(sc_core::SC_ZERO_TIME);
    };
  SC_THREAD(run);
  SC_METHOD(drive_irq);
  sensitive << irq_changed_;
  dont_initialize();
}

GpuDevice::~GpuDevice() {
  if (opt_.mode == Mode::Cycle) util::fault_handler() = nullptr;
  // A platform that never calls sc_stop() gets no end_of_simulation().
  if (sc_core::sc_start_of_simulation_invoked()) warn_if_debug_path();
}

void GpuDevice::start_of_simulation() {
  if (timed_) dev_->memory().use_storage(timed_.get());  // every socket is bound now
}

void GpuDevice::end_of_simulation() { warn_if_debug_path(); }

const stats::Registry& GpuDevice::stats() const {
  const stats::Registry* machine = dev_->timing_stats();  // cycle mode: built in the constructor
  return machine ? *machine : lt_stats_;
}

GpuDevice::MemoryPortCounters GpuDevice::memory_port_counters() const {
  const stats::Registry& r = stats();
  MemoryPortCounters c;
  c.dmi_grants = r.value("memory_port.dmi_grants");
  c.dmi_refusals = r.value("memory_port.dmi_refusals");
  c.dmi_invalidations = r.value("memory_port.dmi_invalidations");
  c.debug_reads = r.value("memory_port.debug_reads");
  c.debug_writes = r.value("memory_port.debug_writes");
  c.b_transports = r.value("memory_port.b_transports");
  c.incomplete_responses = r.value("memory_port.incomplete_responses");
  if (!timed_) c.dmi_accesses = dev_->memory().direct_accesses();
  return c;
}

// An interconnect that does not forward get_direct_mem_ptr leaves every
// access on transport_dbg: correct, but one TLM call per thread's access.
void GpuDevice::warn_if_debug_path() {
  if (warned_debug_path_ || timed_) return;
  warned_debug_path_ = true;
  const MemoryPortCounters c = memory_port_counters();
  const uint64_t debug = c.debug_reads + c.debug_writes;
  if (debug == 0 || debug <= c.dmi_accesses) return;
  std::fprintf(stderr,
               "simtlab: warning: %s: %llu of the GPU's %llu accesses to platform memory went by debug transport "
               "(%llu pages refused DMI, %llu DMI grants): the slow path. Let the interconnect forward "
               "get_direct_mem_ptr, or bind the GPU's memory socket to a port of the memory that grants DMI "
               "(docs/virtual-platform.md)\n",
               name(), static_cast<unsigned long long>(debug), static_cast<unsigned long long>(debug + c.dmi_accesses),
               static_cast<unsigned long long>(c.dmi_refusals), static_cast<unsigned long long>(c.dmi_grants));
}

tlm::tlm_initiator_socket<>& GpuDevice::memory() {
  if (timed_) return timed_->socket;
  if (port_) return port_->socket;
  return dev_->memory_socket();
}

bool GpuDevice::access(uint32_t off, bool write, uint32_t& v, const sc_core::sc_time& delay) {
  if (off % 4 || off >= kMapEnd) return false;
  if (off == 0x06C || (off > kFaultAddr + 4 && off < kFaultText)) return false;  // reserved
  if (!write) {
    if (off == kKernels) {
      const uint32_t m = r_[kModule / 4];
      uint32_t n = 0;
      if (m < modules_.size())
        for (const auto& f : dev_->ptx_module(*modules_[m]).functions) n += f.is_entry;
      v = n;
    } else if (off >= kFaultText) {
      uint8_t b[4] = {};
      for (uint32_t i = 0; i < 4; ++i) {
        const size_t k = off - kFaultText + i;
        b[i] = k < fault_text_.size() ? static_cast<uint8_t>(fault_text_[k]) : 0;
      }
      std::memcpy(&v, b, 4);
    } else {
      v = r_[off / 4];
    }
    return true;
  }
  if (read_only(off)) return false;
  switch (off) {
    case kControl:
      if ((v & 2) && r_[kStatus / 4] != kRunning) r_[kStatus / 4] = kIdle;
      if ((v & 5) && r_[kStatus / 4] != kRunning && !command_) {
        command_ = v & 5;  // kept: the thread may not be waiting yet (a write before simulation starts)
        doorbell_.notify(delay);  // at the end of the write's annotated time
      }
      return true;
    case kIrqStatus:
      r_[kIrqStatus / 4] &= ~v;
      update_irq();
      return true;
    case kIrqEnable:
      r_[kIrqEnable / 4] = v & 1;
      update_irq();
      return true;
    default:
      r_[off / 4] = v;
      return true;
  }
}

void GpuDevice::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  t += opt_.register_latency;
  if (gp.get_byte_enable_ptr()) return gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  if (util::asks_streaming(gp)) return gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
  const uint64_t a = gp.get_address();
  uint32_t v = 0;
  if (gp.get_data_length() != 4 || a >= kMapEnd) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  const bool write = gp.is_write();
  if (write) std::memcpy(&v, gp.get_data_ptr(), 4);
  if (!gp.is_read() && !write) return gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  if (!access(static_cast<uint32_t>(a), write, v, t)) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (!write) std::memcpy(gp.get_data_ptr(), &v, 4);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int GpuDevice::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Reads only, word by word: a debugger looking at the registers changes nothing.
  if (!gp.is_read()) return 0;
  const uint64_t a = gp.get_address();
  const unsigned n = gp.get_data_length();
  unsigned done = 0;
  while (done < n && a + done < kMapEnd) {
    uint32_t v = 0;
    const uint32_t word = static_cast<uint32_t>((a + done) & ~uint64_t{3});
    access(word, false, v);
    const unsigned from = static_cast<unsigned>((a + done) - word);
    const unsigned k = std::min(4 - from, n - done);
    std::memcpy(gp.get_data_ptr() + done, reinterpret_cast<uint8_t*>(&v) + from, k);
    done += k;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return done;
}

// The line has one driver, the device's own method: a register write comes
// from the CPU's process, and a signal takes writes from one process only.
void GpuDevice::update_irq() { irq_changed_.notify(sc_core::SC_ZERO_TIME); }
void GpuDevice::drive_irq() { irq.write((r_[kIrqStatus / 4] & r_[kIrqEnable / 4] & 1) != 0); }

void GpuDevice::end_launch(Status s, FaultCode code, const std::string& text, const FaultSite* site) {
  r_[kStatus / 4] = s;
  r_[kFaultCode / 4] = code;
  for (uint32_t off = kFaultCta; off <= kFaultAddr + 4; off += 4) r_[off / 4] = 0;
  if (site) {
    for (uint32_t i = 0; i < 3; ++i) {
      r_[kFaultCta / 4 + i] = site->cta[i];
      r_[kFaultTid / 4 + i] = site->thread[i];
    }
    r_[kFaultPc / 4] = site->pc;
    r_[kFaultFlags / 4] = 1u | (site->has_addr ? 2u : 0u);
    r_[kFaultAddr / 4] = static_cast<uint32_t>(site->addr);
    r_[kFaultAddr / 4 + 1] = static_cast<uint32_t>(site->addr >> 32);
  }
  fault_text_ = text.substr(0, kMapEnd - kFaultText - 1);
  r_[kIrqStatus / 4] |= 1;
  update_irq();
}

void GpuDevice::run() {
  for (;;) {
    while (!command_) sc_core::wait(doorbell_);
    const uint32_t c = command_;
    command_ = 0;
    r_[kStatus / 4] = kRunning;
    if (c & 1) set_counters(LaunchStats{});  // a refused launch shows no earlier launch's counts
    if (c & 4) load_module();  // a load and a launch written together: the load first
    if ((c & 1) && r_[kStatus / 4] != kFault) {  // (a failed load cancels the launch)
      r_[kStatus / 4] = kRunning;
      launch_one();
    }
  }
}

void GpuDevice::load_module() {
  const uint64_t addr = r_[kModuleAddr / 4] | uint64_t{r_[kModuleAddr / 4 + 1]} << 32;
  const uint32_t size = r_[kModuleSize / 4];
  char where[64];
  std::snprintf(where, sizeof where, "platform memory at 0x%llx", static_cast<unsigned long long>(addr));
  if (size == 0 || !dev_->memory().mapped(addr, size))
    return end_launch(kFault, kBadModule,
                      std::string("MODULE_ADDR/MODULE_SIZE: ") + where + " (" + std::to_string(size) +
                          " bytes) is not in a platform memory window");
  std::string text(size, '\0');
  dev_->memory().read(addr, text.data(), size);
  text.resize(std::strlen(text.c_str()));  // a NUL ends the text early
  try {
    modules_.push_back(&dev_->load_ptx(text, where));
  } catch (const Error& e) {
    return end_launch(kFault, kBadModule, e.what());
  }
  r_[kModules / 4] = static_cast<uint32_t>(modules_.size());
  end_launch(kDone, kNoFault, "");
}

void GpuDevice::launch_one() {
  if (halted_) return end_launch(kFault, kHalted, "the GPU halted after a kernel fault; it takes no more launches");
  // The launch's arguments, checked as a host API checks them.
  std::string kernel;
  try {
    const uint32_t mi = r_[kModule / 4], ki = r_[kKernel / 4];
    if (mi >= modules_.size())
      throw input_error("MODULE = " + std::to_string(mi) + ": " + std::to_string(modules_.size()) +
                        " modules are loaded");
    Module& m = *modules_[mi];
    std::vector<std::string> entries;
    for (const auto& f : dev_->ptx_module(m).functions)
      if (f.is_entry) entries.push_back(f.name);
    if (ki >= entries.size())
      throw input_error("KERNEL = " + std::to_string(ki) + ": module " + std::to_string(mi) + " has " +
                        std::to_string(entries.size()) + " kernels");
    kernel = entries[ki];
    const ptx::Program& p = dev_->program(m, kernel);
    const uint64_t addr = r_[kParamAddr / 4] | uint64_t{r_[kParamAddr / 4 + 1]} << 32;
    const uint32_t size = r_[kParamSize / 4];
    if (size < p.param_bytes)
      throw input_error("PARAM_SIZE = " + std::to_string(size) + ": kernel '" + kernel + "' takes " +
                        std::to_string(p.param_bytes) + " bytes of parameters");
    std::vector<uint8_t> buf(size);
    if (size) {
      if (!dev_->memory().mapped(addr, size))
        throw input_error("PARAM_ADDR 0x" + [&] {
          char h[24];
          std::snprintf(h, sizeof h, "%llx", static_cast<unsigned long long>(addr));
          return std::string(h);
        }() + ": the parameter buffer is not in a platform memory window");
      dev_->memory().read(addr, buf.data(), size);
    }
    KernelArgs args;
    for (const auto& prm : p.params) args.push_bytes(buf.data() + prm.offset, prm.size, align_of_offset(prm.offset));
    const Dim3 grid{{r_[kGridX / 4], r_[kGridY / 4], r_[kGridZ / 4]}};
    const Dim3 block{{r_[kBlockX / 4], r_[kBlockY / 4], r_[kBlockZ / 4]}};
    if (opt_.mode == Mode::LooselyTimed) return launch_lt(m, kernel, grid, block, args);
    faulted_ = false;
    dev_->start_launch(m, kernel, grid, block, args, r_[kDynShared / 4]);
  } catch (const Error& e) {
    return end_launch(kFault, kBadLaunch, e.what());
  }
  // The platform's simulation runs the GPU; the launch is over when the GPU
  // has gone idle (or a block faulted).
  util::Clock& clock = util::Clock::get();
  while (!faulted_) {
    sc_core::wait(clock.idle_event() | fault_);
    if (!faulted_ && clock.idle()) break;
  }
  if (faulted_) clock.halt();  // its SMs hold the faulted kernel: nothing more runs
  try {
    set_counters(dev_->finish_launch());
    end_launch(kDone, kNoFault, "");
  } catch (const Error& e) {
    halted_ = true;
    util::Clock::get().halt();
    end_launch(kFault, kKernelFault, e.what(), e.site());
  }
}

void GpuDevice::set_counters(const LaunchStats& st) {
  auto put = [this](uint32_t reg, uint64_t v) {
    r_[reg / 4] = static_cast<uint32_t>(v);
    r_[reg / 4 + 1] = static_cast<uint32_t>(v >> 32);
  };
  put(kCycles, st.cycles);
  put(kWarpInstrs, st.warp_instructions);
  put(kThreadInstrs, st.thread_instructions);
}

// Loosely timed: the launch runs functionally in this thread; lt_advance()
// waits out each quantum of annotated time between CTAs.
void GpuDevice::launch_lt(Module& m, const std::string& kernel, Dim3 grid, Dim3 block, const KernelArgs& args) {
  lt_seen_ = 0;
  lt_owed_ = 0;
  lt_waited_ = 0;
  if (timed_) timed_->take_delay();  // e.g. the parameter block's read
  LaunchStats st;
  struct Timed {  // b_transports only while the launch runs, also when it throws
    TimedMemoryPort* p;
    explicit Timed(TimedMemoryPort* q) : p(q) { if (p) p->begin(); }
    ~Timed() { if (p) p->end(); }
  };
  try {
    const Timed timing(timed_.get());
    st = dev_->launch(m, kernel, grid, block, args, r_[kDynShared / 4]);
  } catch (const Error& e) {
    return end_launch(kFault, e.code() == ExitCode::BadInput ? kBadLaunch : kKernelFault, e.what(), e.site());
  }
  lt_advance(st.warp_instructions);
  const uint64_t rest = static_cast<uint64_t>(std::ceil(lt_owed_));
  if (rest) sc_core::wait(util::cycles(rest));
  st.cycles = lt_waited_ + rest;
  dev_->annotate_last_launch_cycles(st.cycles);
  set_counters(st);
  end_launch(kDone, kNoFault, "");
}

void GpuDevice::lt_advance(uint64_t warp_instructions) {
  lt_owed_ += static_cast<double>(warp_instructions - lt_seen_) * lt_cost_;
  if (timed_) lt_owed_ += timed_->take_delay().to_seconds() / util::cycle_time().to_seconds();
  lt_seen_ = warp_instructions;
  const sc_core::sc_time q = tlm::tlm_global_quantum::instance().get() != sc_core::SC_ZERO_TIME
                                 ? tlm::tlm_global_quantum::instance().get()
                                 : opt_.lt_quantum;
  const double quantum = q.to_seconds() / util::cycle_time().to_seconds();
  if (lt_owed_ < quantum) return;
  const uint64_t whole = static_cast<uint64_t>(lt_owed_);
  sc_core::wait(util::cycles(whole));  // the platform runs meanwhile
  lt_owed_ -= static_cast<double>(whole);
  lt_waited_ += whole;
}

}  // namespace simt::runtime
