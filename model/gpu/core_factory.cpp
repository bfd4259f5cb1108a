#include "gpu/core_factory.h"

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "power/issue_control_policy.h"
#include "power/lane_power_controller.h"
#include "power/origami_policy.h"
#include "sm/pdom_branch_unit.h"
#include "tbc/dwf_branch_unit.h"
#include "tbc/tbc_branch_unit.h"
#include "util/error.h"

namespace simt::gpu {

void TechniqueParams::bind(config::ParamRegistry& r) {
  r.add_choice("sm.reconvergence", reconvergence, branch_unit_names(),
               "branch unit: pdom (per-warp reconvergence stacks), tbc (thread block compaction, "
               "seed 001), dwf (dynamic warp formation)");
  r.add("sm.likely_convergence", likely_convergence,
        "likely-convergence points for pdom and tbc (seed 001 §4: closest enclosing backward branch)");
  r.add("tbc.compaction", compaction,
        "tbc: compact block-wide masks into warps (false: keep static warps, for warp-synchronous code)");
  compactor.bind(r, "tbc");
  r.add("dwf.warp_barrier", warp_barrier,
        "dwf: warp barriers at the reconvergence point of top-level divergence (DWF-WB, seed 001 §2.4)");
  r.add("dwf.extra_slots", extra_slots,
        "dwf: warp slots each CTA holds beyond its static warps, for the warps DWF forms (at most "
        "sm.max_warps in all); a launch waits until the SM has them free, so raise sm.max_warps with it",
        0, 1024);
  r.add_choice("dwf.pool", pool, {"cta", "sm"},
               "dwf: where threads regroup: cta (threads of one CTA merge, its warps use its slots) or sm "
               "(threads of every CTA of the kernel on the SM merge and use any free slot, as Fung et al.'s warp pool)");
  r.add_choice("gpu.core", core, {"simt", "vws", "vgiw"},
               "SM netlist: simt (the SIMT SM), vws (seed 000's Variable Warp Sizing SM: 32 lanes in slices of "
               "sm.warp_size, with the warp ganging unit; vws.*) or vgiw (seed 002's dataflow core: basic block "
               "scheduler, control vector table, live value cache, MT-CGRF grid; vgiw.*, lvc.*)");
  vws.bind(r);
  vgiw.bind(r);
  power.bind(r);
  energy.bind(r);
}

void TechniqueParams::validate() const {
  bool known = false;
  for (const std::string& n : branch_unit_names()) known = known || n == reconvergence;
  if (!known)
    throw input_error("option sm.reconvergence: unknown branch unit '" + reconvergence + "' (pdom, tbc, dwf)");
  if (reconvergence == "dwf" && likely_convergence)
    throw input_error("option sm.likely_convergence: applies to pdom and tbc, not dwf");
  if (reconvergence != "dwf" && extra_slots > 0)
    throw input_error("option dwf.extra_slots: applies to sm.reconvergence = dwf, not " + reconvergence);
  if (extra_slots > 1024) throw input_error("option dwf.extra_slots: must be 0..1024");
  if (pool != "cta" && pool != "sm") throw input_error("option dwf.pool: must be cta or sm");
  if (reconvergence != "dwf" && pool != "cta")
    throw input_error("option dwf.pool: applies to sm.reconvergence = dwf, not " + reconvergence);
  compactor.validate("tbc");
  if (core != "simt" && core != "vws" && core != "vgiw")
    throw input_error("option gpu.core: must be simt, vws or vgiw");
  if (core == "vws" && (reconvergence != "pdom" || likely_convergence))
    throw input_error("option gpu.core: the VWS SM keeps a PDOM stack per narrow warp; it needs "
                      "sm.reconvergence = pdom without sm.likely_convergence");
  vws.validate();
  vgiw.validate();
  power.validate();
  energy.validate();
  if (core == "vgiw" && (reconvergence != "pdom" || likely_convergence || power.mode() != power::Gating::None ||
                         power.issue_control() || power.scheduler != "none"))
    throw input_error("option gpu.core: the VGIW core schedules blocks, not warps; it takes none of sm.reconvergence "
                      "(other than pdom), sm.likely_convergence, power.gating or thread issue control");
  if (core == "vws" && power.mode() != power::Gating::None)
    throw input_error("option power.gating: lane power gating is built for the SIMT SM (gpu.core = simt), not vws");
  if (core == "vws" && (power.issue_control() || power.scheduler != "none"))
    throw input_error("option power.*: thread issue control (compaction, splitting, folding, lane shifting, the Origami "
                      "scheduler) is built for the SIMT SM (gpu.core = simt), not vws");
}

const std::vector<std::string>& branch_unit_names() {
  static const std::vector<std::string> names = {"pdom", "tbc", "dwf"};
  return names;
}

std::unique_ptr<sm::BranchUnit> make_branch_unit(const TechniqueParams& t, const sm::IssueParams& issue) {
  t.validate();
  const uint32_t slots = issue.max_warps, width = issue.warp_size;
  using tbc::TbcBranchUnit;
  if (t.reconvergence == "pdom" && !t.likely_convergence) return std::make_unique<sm::PdomBranchUnit>(slots, width);
  if (t.reconvergence == "pdom")
    return std::make_unique<TbcBranchUnit>(slots, width, TbcBranchUnit::Scope::Warp, false, true);
  if (t.reconvergence == "tbc")
    return std::make_unique<TbcBranchUnit>(slots, width, TbcBranchUnit::Scope::Cta, t.compaction,
                                           t.likely_convergence);
  if (t.reconvergence == "dwf")
    return std::make_unique<tbc::DwfBranchUnit>(slots, width, t.warp_barrier, t.extra_slots,
                                                t.pool == "sm" ? tbc::DwfBranchUnit::Pool::Sm
                                                               : tbc::DwfBranchUnit::Pool::Cta);
  throw input_error("option sm.reconvergence: branch unit '" + t.reconvergence + "' has no factory entry");
}

std::unique_ptr<sm::Sm> make_sm(const sm::SmParams& p, const TechniqueParams& t, stats::Registry& stats,
                                uint32_t id, trace::Waveform* waveform, trace::WarpTrace* warp_trace) {
  const std::string name = "sm" + std::to_string(id);
  sm::SmTechnique tech;
  tech.branch = make_branch_unit(t, p.issue);
  // TBC: block-wide masks -> thread compactor -> warp buffer.
  if (t.reconvergence == "tbc") {
    tech.add_blocks = [&t, &stats, name, waveform](sm::Sm& s) {
      auto c = std::make_unique<tbc::ThreadCompactorUnit>("compactor", t.compactor, stats, name + ".compactor",
                                                          waveform);
      s.issue.to_compactor.bind(c->in);
      c->out.bind(s.issue.from_compactor);
      std::vector<std::unique_ptr<sc_core::sc_module>> blocks;
      blocks.push_back(std::move(c));
      return blocks;
    };
  }
  // Power gating: one lane power controller per SP unit; issue control: the
  // SP pipe's lane map policy.
  if (t.power.mode() != power::Gating::None || t.power.issue_control() || t.power.scheduler != "none") {
    auto previous = std::move(tech.add_blocks);
    tech.add_blocks = [previous, &t, &p, &stats, name, waveform, id](sm::Sm& s) {
      std::vector<std::unique_ptr<sc_core::sc_module>> blocks;
      if (previous) blocks = previous(s);
      if (t.power.scheduler == "origami")
        s.issue.set_policies([&t, &p](uint32_t) {
          return std::make_unique<power::OrigamiPolicy>(p.issue.policy.active_warps, p.issue.warp_size,
                                                        t.power.fold_phase, t.power.origami_switch_phases);
        });
      if (t.power.issue_control())
        s.sp.set_lane_policy(
            std::make_unique<power::IssueControlPolicy>(t.power, p.sp.units, stats, name + ".sp.issue_control"));
      for (uint32_t u = 0; u < p.sp.units && t.power.mode() != power::Gating::None; ++u) {
        const std::string unit = "sp" + std::to_string(u);
        auto c = std::make_unique<power::LanePowerController>(("power_" + unit).c_str(), t.power, p.sp.lanes, stats,
                                                              name + ".power." + unit, name + ".power", waveform,
                                                              id == 0 ? p.issue.sample_interval : 0);
        s.sp.power[u].bind(c->in);
        blocks.push_back(std::move(c));
      }
      return blocks;
    };
  }
  return std::make_unique<sm::Sm>(name.c_str(), p, std::move(tech), stats, id, waveform, warp_trace);
}

std::unique_ptr<sm::Core> make_core(const MachineConfig& cfg, stats::Registry& stats, uint32_t id,
                                    trace::Waveform* waveform, trace::WarpTrace* warp_trace) {
  if (cfg.technique.core == "vgiw") {
    const std::string name = "sm" + std::to_string(id);
    return std::make_unique<vgiw::VgiwCore>(name.c_str(), cfg.sm, cfg.technique.vgiw, stats, id, waveform);
  }
  if (cfg.technique.core == "vws") {
    const std::string name = "sm" + std::to_string(id);
    return std::make_unique<vws::VwsSm>(name.c_str(), cfg.sm, cfg.technique.vws,
                                        make_branch_unit(cfg.technique, cfg.sm.issue), stats, id, waveform,
                                        warp_trace);
  }
  return make_sm(cfg.sm, cfg.technique, stats, id, waveform, warp_trace);
}

bool has_texture_cache(const MachineConfig& cfg) { return cfg.technique.core != "vgiw"; }

}  // namespace simt::gpu
