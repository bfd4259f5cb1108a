// The one place that picks techniques (DESIGN.md, "dependencies point one
// way"): which branch unit the SIMT SM's issue stage uses and which
// technique blocks join its netlist. sm/ never names a technique; adding
// one adds its options and a case here.
//
//   sm.reconvergence = pdom                        per-warp PDOM stacks (baseline)
//   pdom + sm.likely_convergence                   per-warp block stacks with likely points
//   tbc  (+ likely_convergence, tbc.compaction)    thread block compaction + thread compactor
//   dwf  (+ dwf.warp_barrier, .extra_slots, .pool)  dynamic warp formation / DWF-WB
// and which SM netlist each core is (gpu.core):
//   simt  the SIMT SM (sm/sm.h) with the branch unit above
//   vws   seed 000's Variable Warp Sizing SM (vws/vws_sm.h, vws.*): slices of
//         sm.warp_size lanes, per-warp PDOM stacks, the warp ganging unit
//   vgiw  seed 002's VGIW core (vgiw/vgiw_core.h, vgiw.*, lvc.*)
// and, with power.gating other than none, a lane power controller per SP
// unit of the SIMT SM, per slice of the VWS SM, or one for the VGIW grid's
// FP-ALUs (power/lane_power_controller.h, power.*); issue control and the
// Origami scheduler on the SIMT and VWS SMs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "power/energy_model.h"
#include "power/power_params.h"
#include "sm/sm.h"
#include "tbc/thread_compactor_unit.h"
#include "vgiw/vgiw_core.h"
#include "vgiw/vgiw_params.h"
#include "vws/vws_sm.h"

namespace simt::config { class ParamRegistry; }
namespace simt::stats { class Registry; }
namespace simt::trace { class Waveform; class WarpTrace; }

namespace simt::gpu {

struct MachineConfig;

struct TechniqueParams {
  std::string reconvergence = "pdom";    // sm.reconvergence
  bool likely_convergence = false;       // sm.likely_convergence (pdom, tbc)
  bool compaction = true;                // tbc.compaction
  tbc::ThreadCompactorParams compactor;  // tbc.compactor_queue
  bool warp_barrier = false;             // dwf.warp_barrier
  // dwf.extra_slots: warp slots a CTA holds beyond its static warps, empty
  // at launch, for the warps DWF forms (sm/branch_unit.h, extra_slots()).
  uint32_t extra_slots = 0;
  // dwf.pool: cta (threads merge within their CTA, a CTA's warps use its
  // slots) or sm (threads of all CTAs of a kernel on the SM merge; warps use
  // any free slot of the kernel: Fung et al.'s warp pool).
  std::string pool = "cta";
  std::string core = "simt";             // gpu.core: simt | vws | vgiw
  vws::VwsParams vws;                    // vws.*
  vgiw::VgiwParams vgiw;                 // vgiw.*, lvc.*
  power::PowerParams power;              // power.*
  power::EnergyParams energy;            // energy.* (read back by the run report)

  void bind(config::ParamRegistry& r);
  // Throws simt::input_error naming the option for a bad combination.
  void validate() const;
};

const std::vector<std::string>& branch_unit_names();
// The branch unit for an issue stage with `issue.max_warps` slots of
// `issue.warp_size` threads.
std::unique_ptr<sm::BranchUnit> make_branch_unit(const TechniqueParams& t, const sm::IssueParams& issue);

// The SIMT SM `id`: the baseline netlist plus the technique's branch unit
// and blocks. `waveform` and `warp_trace` may be null.
std::unique_ptr<sm::Sm> make_sm(const sm::SmParams& p, const TechniqueParams& t, stats::Registry& stats,
                                uint32_t id, trace::Waveform* waveform, trace::WarpTrace* warp_trace);

// Core `id` of the machine, as the GPU top binds it (sm/core.h): the SIMT
// SM, the VWS SM or the VGIW core (gpu.core).
std::unique_ptr<sm::Core> make_core(const MachineConfig& cfg, stats::Registry& stats, uint32_t id,
                                    trace::Waveform* waveform, trace::WarpTrace* warp_trace);

// Whether the machine's cores have a texture cache (sm::Core::texture_port()
// not null): the SIMT and VWS SMs do, the VGIW core does not (its texture
// reads go through its L1D). The GPU top sizes its crossbar by it before it
// builds the cores.
bool has_texture_cache(const MachineConfig& cfg);

}  // namespace simt::gpu
