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
  if (core == "vgiw" && (reconvergence != "pdom" || likely_convergence))
    throw input_error("option gpu.core: the VGIW core schedules blocks, not warps; it takes neither sm.reconvergence "
                      "(other than pdom) nor sm.likely_convergence");
  // VGIW's threads stream through the grid's units one at a time: there are
  // no warps whose threads issue control could move between lanes, and no
  // warp scheduler for Origami's. Gating the FP-ALUs (power.gating) applies.
  if (core == "vgiw" && (power.issue_control() || power.scheduler != "none"))
    throw input_error("option gpu.core: the VGIW core has no warps to compact, split or fold, nor a warp scheduler; "
                      "it takes none of power.compaction, power.split, power.fold, power.lane_shift, "
                      "power.scheduler (power.gating applies to its FP-ALUs)");
  if (core == "vgiw" && power.mode() != power::Gating::None && vgiw.units[vgiw::Unit::FpAlu] > 64)
    throw input_error("option vgiw.units.fp_alu: power.gating handles at most 64 FP-ALUs, not " +
                      std::to_string(vgiw.units[vgiw::Unit::FpAlu]));
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

namespace {

bool uses_power(const power::PowerParams& pw) {
  return pw.mode() != power::Gating::None || pw.issue_control() || pw.scheduler != "none";
}

// power.scheduler = origami: every scheduler of `issue` (the SIMT SM's, or
// each VWS slice's) becomes an Origami scheduler.
void add_origami(sm::IssueUnit& issue, const power::PowerParams& pw, const sm::IssueParams& ip) {
  if (pw.scheduler != "origami") return;
  issue.set_policies([&pw, &ip](uint32_t) {
    return std::make_unique<power::OrigamiPolicy>(ip.policy.active_warps, ip.warp_size, pw.fold_phase,
                                                  pw.origami_switch_phases);
  });
}

// The lane map policy of one SP pipe (stats under <pipe_stats>.issue_control)
// and a lane power controller per unit of it, named <unit><u> (stats under
// <sm>.power.<unit><u>, sums under <sm>.power), or just <unit> when the pipe
// is one slice's (`numbered` false).
void add_power_blocks(sm::ExecPipe& sp, const std::string& unit, bool numbered, const power::PowerParams& pw,
                      stats::Registry& stats, const std::string& sm, const std::string& pipe_stats,
                      trace::Waveform* waveform, uint64_t series_interval,
                      std::vector<std::unique_ptr<sc_core::sc_module>>& blocks) {
  const uint32_t units = sp.unit().units();
  if (pw.issue_control())
    sp.set_lane_policy(std::make_unique<power::IssueControlPolicy>(pw, units, stats, pipe_stats + ".issue_control"));
  if (pw.mode() == power::Gating::None) return;
  for (uint32_t u = 0; u < units; ++u) {
    const std::string n = numbered ? unit + std::to_string(u) : unit;
    auto c = std::make_unique<power::LanePowerController>(("power_" + n).c_str(), pw, sp.unit().lanes(), stats,
                                                          sm + ".power." + n, sm + ".power", waveform,
                                                          series_interval);
    sp.power[u].bind(c->in);
    blocks.push_back(std::move(c));
  }
}

}  // namespace

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
  // SP pipe's lane map policy; the Origami scheduler.
  if (uses_power(t.power)) {
    auto previous = std::move(tech.add_blocks);
    tech.add_blocks = [previous, &t, &p, &stats, name, waveform, id](sm::Sm& s) {
      std::vector<std::unique_ptr<sc_core::sc_module>> blocks;
      if (previous) blocks = previous(s);
      add_origami(s.issue, t.power, p.issue);
      add_power_blocks(s.sp, "sp", true, t.power, stats, name, name + ".sp", waveform,
                       id == 0 ? p.issue.sample_interval : 0, blocks);
      return blocks;
    };
  }
  return std::make_unique<sm::Sm>(name.c_str(), p, std::move(tech), stats, id, waveform, warp_trace);
}

std::unique_ptr<sm::Core> make_core(const MachineConfig& cfg, stats::Registry& stats, uint32_t id,
                                    trace::Waveform* waveform, trace::WarpTrace* warp_trace) {
  if (cfg.technique.core == "vgiw") {
    const std::string name = "sm" + std::to_string(id);
    // Lane power gating of the grid's FP-ALUs: one controller, a lane per unit.
    vgiw::VgiwCore::Blocks blocks;
    const TechniqueParams& t = cfg.technique;
    const uint64_t series = id == 0 ? cfg.sm.issue.sample_interval : 0;
    if (t.power.mode() != power::Gating::None)
      blocks = [&t, &stats, name, waveform, series](vgiw::VgiwCore& c) {
        std::vector<std::unique_ptr<sc_core::sc_module>> out;
        auto pc = std::make_unique<power::LanePowerController>("power_fp_alu", t.power, t.vgiw.units[vgiw::Unit::FpAlu],
                                                               stats, name + ".power.fp_alu", name + ".power",
                                                               waveform, series);
        c.grid.power.bind(pc->in);
        out.push_back(std::move(pc));
        return out;
      };
    return std::make_unique<vgiw::VgiwCore>(name.c_str(), cfg.sm, t.vgiw, stats, id, waveform, blocks);
  }
  if (cfg.technique.core == "vws") {
    const std::string name = "sm" + std::to_string(id);
    // Lane power gating and issue control on each slice's SP pipe (a
    // controller per slice: power.domain = unit gates the slice's lanes together).
    vws::VwsBlocks blocks;
    const TechniqueParams& t = cfg.technique;
    const sm::IssueParams& ip = cfg.sm.issue;
    if (uses_power(t.power))
      blocks = [&t, &ip, &stats, name, waveform, id](vws::VwsSm& s) {
        std::vector<std::unique_ptr<sc_core::sc_module>> out;
        add_origami(s.issue, t.power, ip);
        for (uint32_t k = 0; k < s.slices(); ++k) {
          const std::string slice = "slice" + std::to_string(k);
          add_power_blocks(s.slice[k]->sp, slice, false, t.power, stats, name, name + "." + slice + ".sp", waveform,
                           id == 0 ? ip.sample_interval : 0, out);
        }
        return out;
      };
    return std::make_unique<vws::VwsSm>(name.c_str(), cfg.sm, t.vws, make_branch_unit(t, ip), stats, id,
                                        waveform, warp_trace, blocks);
  }
  return make_sm(cfg.sm, cfg.technique, stats, id, waveform, warp_trace);
}

bool has_texture_cache(const MachineConfig& cfg) { return cfg.technique.core != "vgiw"; }

}  // namespace simt::gpu
