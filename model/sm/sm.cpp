#include "sm/sm.h"

#include "config/param_registry.h"
#include "mem/coalescer.h"
#include "sm/stats_settler.h"

namespace simt::sm {

SmParams::SmParams() {
  // Defaults: one 32-lane SP unit and a 4-lane SFU (seed 000's baseline);
  // the machine files in configs/ set the papers' numbers.
  sfu.lanes = 4;
  sfu.latency = 20;
  // One sm_80 sub-core tensor unit: an mma.m16n8k16 (2048 FMAs) at 256 FMAs a
  // cycle holds it 8 cycles; about 32 cycles to a dependent result (docs/ptx-support.md).
  tensor.latency = 32;
  tensor.ii = 8;
  l1i.size = 16384;
  l1i.line = 128;
  l1i.assoc = 4;
  l1i.write_policy = "write-through";
  l1d.write_policy = "write-evict";  // Fermi's L1D: writes go to L2, a write hit drops the line
  l1t.size = 32768;
  l1t.line = 64;
  l1t.assoc = 16;
  l1t.write_policy = "write-through";  // never allocates on a write (it receives none)
}

void SmParams::bind(config::ParamRegistry& r) {
  issue.bind(r, "sm");
  r.add("stats.interval", issue.sample_interval,
        "cycles between samples of the per-SM time series (sm0.ipc, sm0.active_warps); 0 = none", 0);
  fetch.bind(r, "fetch");
  decode.bind(r, "decode");
  sp.bind(r, "sp");
  sfu.bind(r, "sfu");
  tensor.bind(r, "tensor");
  ops.bind(r, "ops");
  ldst.bind(r, "ldst", "shmem");
  l1i.bind(r, "l1i");
  l1i_port.bind(r, "l1i");
  l1d.bind(r, "l1d");
  l1d_port.bind(r, "l1d");
  l1t.bind(r, "l1t");
  l1t_port.bind(r, "l1t");
}

void SmParams::validate() const {
  issue.validate("sm");
  fetch.validate("fetch");
  decode.validate("decode");
  sp.validate("sp");
  sfu.validate("sfu");
  tensor.validate("tensor");
  ldst.validate("ldst", "shmem");
  l1i.validate("l1i");
  l1i_port.validate("l1i");
  l1d.validate("l1d");
  l1d_port.validate("l1d");
  l1t.validate("l1t");
  l1t_port.validate("l1t");
  // The LDST unit coalesces texture accesses at the L1T's line.
  mem::CoalescerParams{l1t.line}.validate("l1t");
}

LdstParams SmParams::ldst_unit_params() const {
  LdstParams p = ldst;
  p.tex_line = l1t.line;
  return p;
}

namespace {
std::string sm_name(uint32_t id) { return "sm" + std::to_string(id); }
}  // namespace

Sm::Sm(sc_core::sc_module_name name, const SmParams& p, SmTechnique technique, stats::Registry& stats,
       uint32_t id, trace::Waveform* wf, trace::WarpTrace* wt)
    : Core(name),
      issue("issue", p.issue, std::move(technique.branch), stats, sm_name(id), id, wf, wt),
      fetch("fetch", p.fetch, p.issue.max_warps, stats, sm_name(id) + ".fetch", wf),
      decode("decode", p.decode, stats, sm_name(id) + ".decode", wf),
      sp("sp", p.sp, p.ops, stats, sm_name(id) + ".sp", wf),
      sfu("sfu", p.sfu, p.ops, stats, sm_name(id) + ".sfu", wf),
      tensor("tensor", p.tensor, p.ops, stats, sm_name(id) + ".tensor", wf),
      ldst("ldst", p.ldst_unit_params(), stats, sm_name(id) + ".ldst", id, wf),
      l1i("l1i", p.l1i, p.l1i_port, stats, sm_name(id) + ".l1i", wf),
      l1d("l1d", p.l1d, p.l1d_port, stats, sm_name(id) + ".l1d", wf),
      l1t("l1t", p.l1t, p.l1t_port, stats, sm_name(id) + ".l1t", wf) {
  // Front end: credits -> fetch -> L1I -> decode -> I-buffers.
  issue.credits.bind(fetch.credits);
  fetch.icache.socket.bind(l1i.up.socket);
  fetch.out.bind(decode.in);
  decode.out.bind(issue.fetched);
  // Back end: issue -> pipes -> write-back.
  issue.to_sp.bind(sp.in);
  issue.to_sfu.bind(sfu.in);
  issue.to_tensor.bind(tensor.in);
  issue.to_ldst.bind(ldst.in);
  sp.writeback.bind(issue.wb_sp);
  sfu.writeback.bind(issue.wb_sfu);
  tensor.writeback.bind(issue.wb_tensor);
  ldst.writeback.bind(issue.wb_ldst);
  ldst.l1d.socket.bind(l1d.up.socket);
  ldst.tex.socket.bind(l1t.up.socket);
  // The technique's own blocks (e.g. TBC's thread compactor).
  if (technique.add_blocks) technique_blocks = technique.add_blocks(*this);
}

void Sm::sample_until(uint64_t now) {
  issue.sample_until(now);
  settle_blocks(technique_blocks, now);
}

void Sm::set_tracing(bool on) {
  issue.set_tracing(on);
  sp.set_tracing(on);
  sfu.set_tracing(on);
  tensor.set_tracing(on);
}

}  // namespace simt::sm
