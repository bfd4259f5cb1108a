// The VGIW core netlist (seed 002 Figure 4): instantiates its blocks and
// binds them, nothing else. It replaces the SIMT SM in the same GPU (same
// CTA dispatcher, crossbar, L2 and DRAM) when gpu.core = vgiw.
//
//   dispatcher --launch--> BBS --done--> dispatcher
//   BBS <--CvtAccess--> CVT
//   BBS --GridConfigure / ThreadBatch--> MT-CGRF --BatchReturn--> BBS
//   MT-CGRF LDST units (one port each) --> L1D (banked, write-back) --> crossbar
//   MT-CGRF LVUs (one port each)       --> LVC (write-validate)    --> crossbar
// VGIW fetches no instructions (the BBS holds the block configurations),
// so the LVC's misses and write-backs use the crossbar port the SIMT SM's
// L1I uses (instruction_port()).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mem/cache_module.h"
#include "sm/core.h"
#include "sm/sm.h"
#include "stats/stats.h"
#include "vgiw/bbs.h"
#include "vgiw/cvt.h"
#include "vgiw/mt_cgrf.h"
#include "vgiw/vgiw_params.h"

namespace simt::trace { class Waveform; }

namespace simt::vgiw {

class VgiwCore : public sm::Core {
 public:
  // `sm` gives the L1D (l1d.*), the operation latencies (sp.*, sfu.*,
  // ops.*) and shmem.latency. Stats under "sm<id>".
  // `add_blocks` (may be empty): blocks a technique adds once the core's
  // blocks exist (gpu/core_factory.cpp: the FP-ALUs' lane power controller
  // on grid.power); those that keep lazy counters are settled with the core.
  using Blocks = std::function<std::vector<std::unique_ptr<sc_core::sc_module>>(VgiwCore&)>;
  VgiwCore(sc_core::sc_module_name name, const sm::SmParams& sm, const VgiwParams& v, stats::Registry& stats,
           uint32_t id, trace::Waveform* waveform = nullptr, const Blocks& add_blocks = {});

  Bbs bbs;
  Cvt cvt;
  MtCgrf grid;
  mem::CacheModule l1d, lvc;
  std::vector<std::unique_ptr<sc_core::sc_module>> technique_blocks;  // add_blocks'

  LaunchTarget& launch_socket() override { return bbs.launch; }
  DoneInitiator& done_socket() override { return bbs.done; }
  mem::MemRequester& instruction_port() override { return lvc.down; }
  mem::MemRequester& data_port() override { return l1d.down; }
  void rethrow_fault() const override {
    bbs.rethrow_fault();
    grid.rethrow_fault();
  }
  void check_kernel(const std::shared_ptr<const sm::KernelContext>& k) const override { bbs.check_kernel(k); }
  void sample_until(uint64_t now) override;
  uint32_t take_max_stack_depth() override { return 0; }  // no reconvergence stacks
};

}  // namespace simt::vgiw
