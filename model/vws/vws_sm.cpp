#include "vws/vws_sm.h"

#include <algorithm>

#include "config/param_registry.h"
#include "sm/stats_settler.h"
#include "util/error.h"

namespace simt::vws {

void VwsParams::bind(config::ParamRegistry& r) {
  r.add("vws.ganging", ganging.ganging,
        "gang the narrow warps of each 32-thread warp (seed 000's VWS); false: every warp stays with its slice "
        "(the WS4/WS8/WS16 machines)");
  r.add("vws.gangs_per_cycle", ganging.gangs_per_cycle, "gangs the gang issue scheduler issues per cycle (0 = unlimited)",
        0, 8);
  r.add_choice("vws.gang_scheduler", ganging.gang_scheduler, {"bgto", "lgto", "gto", "lrr", "lpc"},
               "gang issue order: big gangs then oldest, little gangs then oldest, greedy-then-oldest, loose round "
               "robin, lowest PC");
  r.add_choice("vws.split_on_memory", ganging.split_on_memory, {"none", "impatient", "group"},
               "gang splitting on memory latency divergence: none (I-VWS), impatient (every member leaves), group "
               "(the members ready together stay a gang)");
  r.add_choice("vws.reform", ganging.reform, {"none", "opportunistic"},
               "gang reformation: none (I-VWS) or opportunistic (E-VWS: one original gang a cycle, equal PCs merge)");
  r.add("vws.sync_wait", ganging.sync_wait,
        "cycles a gang or warp of a split original gang waits at a reconvergence point to be reganged (E-VWS-Sync<N>; "
        "0 = none; needs vws.reform = opportunistic)",
        0, 1000000);
  r.add("vws.l1i_ports", l1i_ports, "L1 I-cache ports shared by the gang and slice fetch schedulers (0 = one each)", 0,
        9);
  r.add("vws.l0i_size", l0i_size, "bytes of each slice's L0 I-cache, probed first by the slice's fetches (0 = none)", 0,
        65536);
  r.add("vws.l0i_line", l0i_line, "line size of the L0 I-caches in bytes", 8, 4096);
}

void VwsParams::validate() const {
  auto bad = [](const std::string& o, const std::string& why) { return input_error("option vws." + o + ": " + why); };
  if (l0i_size && (l0i_line & (l0i_line - 1))) throw bad("l0i_line", "must be a power of two");
  if (l0i_size && (l0i_size % l0i_line || l0i_size < l0i_line))
    throw bad("l0i_size", "must be a multiple of vws.l0i_line (" + std::to_string(l0i_line) + ")");
  if (ganging.gangs_per_cycle > 8) throw bad("gangs_per_cycle", "must be 0..8");
  if (ganging.sync_wait && (!ganging.ganging || ganging.reform != "opportunistic"))
    throw bad("sync_wait", "waiting at reconvergence points needs vws.ganging = true and vws.reform = opportunistic");
}

namespace {

std::string sm_name(uint32_t id) { return "sm" + std::to_string(id); }

uint32_t slices_of(const sm::SmParams& p) {
  const uint32_t w = p.issue.warp_size;
  if (w != 4 && w != 8 && w != 16)
    throw input_error("option sm.warp_size: the VWS SM (gpu.core = vws) slices 32 lanes into warps of 4, 8 or 16, not " +
                      std::to_string(w));
  return 32 / w;
}

// The issue stage of a VWS SM: one scheduler per slice.
sm::IssueParams slice_issue(const sm::SmParams& p) {
  sm::IssueParams q = p.issue;
  q.schedulers = slices_of(p);
  if (q.max_warps % q.schedulers)
    throw input_error("option sm.max_warps: the VWS SM needs a multiple of its " + std::to_string(q.schedulers) +
                      " slices");
  return q;
}

sm::PipeParams slice_pipe(const sm::PipeParams& whole, uint32_t slices) {
  sm::PipeParams q = whole;
  q.lanes = std::max(1u, whole.lanes * whole.units / slices);  // the slice's share of the SM's lanes
  q.units = 1;
  return q;
}

mem::CacheParams l0_params(const sm::SmParams& p, const VwsParams& v) {
  mem::CacheParams c = p.l1i;
  c.size = v.l0i_size;
  c.line = v.l0i_line;
  c.assoc = v.l0i_size / v.l0i_line;  // fully associative (not in the paper)
  c.hit_latency = 1;
  c.mshrs = 4;
  return c;
}

// Gang fetch pipes: as many as gangs may issue in a cycle (not in the paper,
// which does not give the gang front end's bandwidth).
uint32_t gang_pipes(const sm::SmParams& p, const VwsParams& v) {
  if (!v.ganging.ganging) return 1;  // unused
  return v.ganging.gangs_per_cycle ? v.ganging.gangs_per_cycle : slices_of(p) / 2;
}

// The L1I: one input port per front end (slices, then gang pipes), at least
// as many lookups a cycle as the arbiter grants.
mem::CachePortParams l1i_ports(const sm::SmParams& p, const VwsParams& v) {
  mem::CachePortParams q = p.l1i_port;
  q.up_ports = slices_of(p) + gang_pipes(p, v);
  q.ports = std::max(q.ports, v.l1i_ports ? v.l1i_ports : q.up_ports);
  return q;
}

}  // namespace

Slice::Slice(sc_core::sc_module_name name, const sm::SmParams& p, const VwsParams& v, uint32_t slices,
             stats::Registry& st, const std::string& n, trace::Waveform* wf)
    : sc_core::sc_module(name),
      fetch("fetch", p.fetch, p.issue.max_warps, st, n + ".fetch", wf),
      decode("decode", p.decode, st, n + ".decode", wf),
      sp("sp", slice_pipe(p.sp, slices), p.ops, st, n + ".sp", wf),
      sfu("sfu", slice_pipe(p.sfu, slices), p.ops, st, n + ".sfu", wf),
      tensor("tensor", slice_pipe(p.tensor, slices), p.ops, st, n + ".tensor", wf) {
  if (v.l0i_size) {
    l0i = std::make_unique<mem::CacheModule>("l0i", l0_params(p, v), mem::CachePortParams{}, st, n + ".l0i", wf);
    fetch.icache.socket.bind(l0i->up.socket);
  }
  fetch.out.bind(decode.in);
}

GangFrontEnd::GangFrontEnd(sc_core::sc_module_name name, const sm::SmParams& p, stats::Registry& st,
                           const std::string& n, trace::Waveform* wf)
    : sc_core::sc_module(name),
      fetch("fetch", p.fetch, p.issue.max_warps, st, n + ".fetch", wf),
      decode("decode", p.decode, st, n + ".decode", wf) {
  fetch.out.bind(decode.in);
}

VwsSm::VwsSm(sc_core::sc_module_name name, const sm::SmParams& p, const VwsParams& v,
             std::unique_ptr<sm::BranchUnit> branch, stats::Registry& st, uint32_t id, trace::Waveform* wf,
             trace::WarpTrace* wt, const VwsBlocks& add_blocks)
    : sm::Core(name),
      issue("issue", slice_issue(p), std::move(branch), st, sm_name(id), id, wf, wt),
      l1i_arbiter("l1i_arbiter", slices_of(p), gang_pipes(p, v), v.l1i_ports, st, sm_name(id) + ".l1i_arbiter"),
      l1i("l1i", p.l1i, l1i_ports(p, v), st,
          sm_name(id) + ".l1i", wf),
      ldst("ldst", p.ldst_unit_params(), st, sm_name(id) + ".ldst", id, wf),
      l1d("l1d", p.l1d, p.l1d_port, st, sm_name(id) + ".l1d", wf),
      l1t("l1t", p.l1t, p.l1t_port, st, sm_name(id) + ".l1t", wf),
      credits("credits", slices_of(p), slices_of(p) + gang_pipes(p, v)),
      fetched("fetched", slices_of(p) + gang_pipes(p, v)),
      to_sp("to_sp", slices_of(p), slices_of(p)),
      to_sfu("to_sfu", slices_of(p), slices_of(p)),
      to_tensor("to_tensor", slices_of(p), slices_of(p)),
      wb_sp("wb_sp", slices_of(p)),
      wb_sfu("wb_sfu", slices_of(p)),
      wb_tensor("wb_tensor", slices_of(p)) {
  v.validate();
  const uint32_t n = slices_of(p);
  issue.set_lockstep(std::make_unique<WarpGangingUnit>(v.ganging, p.issue.max_warps, n));
  // Front ends: credits -> slice or gang fetch -> (L0) -> L1I, whose input
  // ports the L1 fetch arbiter grants; decode -> I-buffers.
  issue.credits.bind(credits.in);
  fetched.out.bind(issue.fetched);
  for (uint32_t k = 0; k < n; ++k) {
    slice.push_back(std::make_unique<Slice>(("slice" + std::to_string(k)).c_str(), p, v, n, st,
                                            sm_name(id) + ".slice" + std::to_string(k), wf));
    Slice& s = *slice.back();
    credits.out[k]->bind(s.fetch.credits);
    s.to_l1().socket.bind(l1i.up_port(k).socket);
    s.decode.out.bind(*fetched.in[k]);
    // Datapath: issue -> the slice's pipes -> write-back.
    to_sp.out[k]->bind(s.sp.in);
    to_sfu.out[k]->bind(s.sfu.in);
    to_tensor.out[k]->bind(s.tensor.in);
    s.sp.writeback.bind(*wb_sp.in[k]);
    s.sfu.writeback.bind(*wb_sfu.in[k]);
    s.tensor.writeback.bind(*wb_tensor.in[k]);
  }
  for (uint32_t k = 0; k < gang_pipes(p, v); ++k) {
    gang.push_back(std::make_unique<GangFrontEnd>(("gang" + std::to_string(k)).c_str(), p, st,
                                                  sm_name(id) + ".gang" + std::to_string(k), wf));
    credits.out[n + k]->bind(gang.back()->fetch.credits);
    gang.back()->fetch.icache.socket.bind(l1i.up_port(n + k).socket);
    gang.back()->decode.out.bind(*fetched.in[n + k]);
  }
  l1i.arbiter.bind(l1i_arbiter.grants);
  issue.to_sp.bind(to_sp.in);
  issue.to_sfu.bind(to_sfu.in);
  issue.to_tensor.bind(to_tensor.in);
  wb_sp.out.bind(issue.wb_sp);
  wb_sfu.out.bind(issue.wb_sfu);
  wb_tensor.out.bind(issue.wb_tensor);
  // Memory: one LDST unit for all slices.
  issue.to_ldst.bind(ldst.in);
  ldst.writeback.bind(issue.wb_ldst);
  ldst.l1d.socket.bind(l1d.up.socket);
  ldst.tex.socket.bind(l1t.up.socket);
  if (add_blocks) technique_blocks = add_blocks(*this);
}

void VwsSm::sample_until(uint64_t now) {
  issue.sample_until(now);
  sm::settle_blocks(technique_blocks, now);
}

}  // namespace simt::vws
