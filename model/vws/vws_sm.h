// The Variable Warp Sizing SM netlist (seed 000 Figure 6): instantiates its
// blocks and binds them, nothing else. 32 lanes in `slices` slices of
// sm.warp_size lanes (4 x 8 by default; 8 x 4 and 16 x 2 allowed).
//
//   issue        the shared issue stage (sm/issue_unit.h) in slices mode:
//                per-slice I-buffers, scoreboards, PDOM stacks and
//                sm.policy schedulers (scheduler k = slice k), with the warp
//                ganging unit (vws/warp_ganging_unit.h) issuing gangs first
//   slice<k>     a slice: warp fetch scheduler, L0 I-cache (vws.l0i_size,
//                0 = none), decode, and its datapath (4 SP lanes, its share
//                of the SFU lanes)
//   gang<k>      the gang front end: a gang fetch scheduler and decode per
//                gang the ganging unit may issue in a cycle (vws.gangs_per_cycle;
//                4 when unlimited), so fetch keeps up with issue
//   l1i_arbiter  grants the L1I's vws.l1i_ports ports, gangs first (no
//                cycle: the L1I asks it when its requests are visible)
//   l1i, ldst, l1d, l1t   shared: one L1I; one LDST unit that takes the
//                memory instructions of all slices in a cycle as one access;
//                the L1D; the texture cache (l1t.*, as the SIMT SM's)
//   credits / fetched / to_sp / to_sfu / to_tensor / wb_*: the wires between
//                the issue stage and the slices (vws/slice_links.h)
//
// The per-slice issue state sits in the shared issue stage, partitioned by
// slice, rather than in eight blocks: the gang issue scheduler reads every
// member slice's ready bit in the cycle it decides (the paper's ReadyMask
// wires), which a socket between blocks would delay by a cycle.
// Outside connections as sm/core.h.
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
#include "vws/l1_fetch_arbiter_unit.h"
#include "vws/slice_links.h"
#include "vws/warp_ganging_unit.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class WarpTrace; }

namespace simt::vws {

struct VwsParams {
  GangingParams ganging;     // vws.ganging, .gangs_per_cycle, .gang_scheduler, .split_on_memory, .reform
  uint32_t l1i_ports = 2;    // vws.l1i_ports (0 = one per front end)
  uint32_t l0i_size = 256;   // vws.l0i_size: bytes of each slice's L0 I-cache (0 = none)
  uint32_t l0i_line = 64;    // vws.l0i_line

  void bind(config::ParamRegistry& r);
  void validate() const;
};

// One slice's front end and datapath.
class Slice : public sc_core::sc_module {
 public:
  Slice(sc_core::sc_module_name name, const sm::SmParams& p, const VwsParams& v, uint32_t slices,
        stats::Registry& st, const std::string& stats_name, trace::Waveform* wf);
  sm::FetchUnit fetch;
  std::unique_ptr<mem::CacheModule> l0i;  // null when vws.l0i_size = 0
  sm::DecodeUnit decode;
  sm::ExecPipe sp, sfu, tensor;
  // Its reads toward the L1I (the L0's misses, or fetch itself).
  mem::MemRequester& to_l1() { return l0i ? l0i->down : fetch.icache; }
};

// A pipe of the gang front end: one fetch and one decode for all members of a gang.
class GangFrontEnd : public sc_core::sc_module {
 public:
  GangFrontEnd(sc_core::sc_module_name name, const sm::SmParams& p, stats::Registry& st,
               const std::string& stats_name, trace::Waveform* wf);
  sm::FetchUnit fetch;
  sm::DecodeUnit decode;
};

class VwsSm;
// Blocks a technique adds to the netlist once the slices exist (lane power
// controllers on each slice's SP pipe: gpu/core_factory.cpp); they live as
// long as the SM, and those that keep lazy counters are settled with it.
using VwsBlocks = std::function<std::vector<std::unique_ptr<sc_core::sc_module>>(VwsSm&)>;

class VwsSm : public sm::Core {
 public:
  VwsSm(sc_core::sc_module_name name, const sm::SmParams& p, const VwsParams& v,
        std::unique_ptr<sm::BranchUnit> branch, stats::Registry& stats, uint32_t sm_id,
        trace::Waveform* waveform = nullptr, trace::WarpTrace* warp_trace = nullptr,
        const VwsBlocks& add_blocks = {});

  uint32_t slices() const { return static_cast<uint32_t>(slice.size()); }

  sm::IssueUnit issue;
  std::vector<std::unique_ptr<Slice>> slice;
  std::vector<std::unique_ptr<GangFrontEnd>> gang;
  L1FetchArbiterUnit l1i_arbiter;
  mem::CacheModule l1i;
  sm::LdstUnit ldst;
  mem::CacheModule l1d, l1t;
  SliceFanout<sm::FetchCredit> credits;
  SliceFanin<sm::FetchedInstr> fetched;
  SliceFanout<sm::IssuePacket> to_sp, to_sfu, to_tensor;
  SliceFanin<sm::WritebackPacket> wb_sp, wb_sfu, wb_tensor;
  std::vector<std::unique_ptr<sc_core::sc_module>> technique_blocks;  // add_blocks'

  // sm::Core.
  LaunchTarget& launch_socket() override { return issue.launch; }
  DoneInitiator& done_socket() override { return issue.done; }
  mem::MemRequester& instruction_port() override { return l1i.down; }
  mem::MemRequester& data_port() override { return l1d.down; }
  mem::MemRequester* texture_port() override { return &l1t.down; }
  void rethrow_fault() const override { issue.rethrow_fault(); }
  void check_kernel(const std::shared_ptr<const sm::KernelContext>& k) const override { issue.check_kernel(*k); }
  // Also brings the technique blocks' lazily kept counters up to date.
  void sample_until(uint64_t now) override;
  uint32_t take_max_stack_depth() override { return issue.take_max_stack_depth(); }
};

}  // namespace simt::vws
