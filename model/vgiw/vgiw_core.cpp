#include "vgiw/vgiw_core.h"

#include "sm/stats_settler.h"

namespace simt::vgiw {

namespace {

std::string sm_name(uint32_t id) { return "sm" + std::to_string(id); }

mem::CachePortParams with_ports(mem::CachePortParams p, uint32_t up_ports, uint32_t source) {
  p.up_ports = std::max<uint32_t>(1, up_ports);
  p.source = source;
  return p;
}

}  // namespace

VgiwCore::VgiwCore(sc_core::sc_module_name name, const sm::SmParams& sm, const VgiwParams& v, stats::Registry& st,
                   uint32_t id, trace::Waveform* wf, const Blocks& add_blocks)
    : Core(name),
      bbs("bbs", v, st, sm_name(id), id, wf),
      cvt("cvt", v.cvt_bytes, v.cvt_banks, st, sm_name(id) + ".cvt"),
      grid("grid", v, sm, st, sm_name(id), id, wf),
      l1d("l1d", sm.l1d, with_ports(sm.l1d_port, v.units[Unit::Ldst], id), st, sm_name(id) + ".l1d", wf),
      lvc("lvc", v.lvc, with_ports(v.lvc_port, v.units[Unit::Lvu], id), st, sm_name(id) + ".lvc", wf) {
  bbs.cvt.bind(cvt.in);
  bbs.grid_config.bind(grid.configure);
  bbs.grid_batches.bind(grid.batches);
  grid.returns.bind(bbs.returns);
  for (uint32_t k = 0; k < grid.l1d.size(); ++k) grid.l1d[k].socket.bind(l1d.up_port(k).socket);
  for (uint32_t k = 0; k < grid.lvc.size(); ++k) grid.lvc[k].socket.bind(lvc.up_port(k).socket);
  if (add_blocks) technique_blocks = add_blocks(*this);
}

void VgiwCore::sample_until(uint64_t now) {
  sm::settle_blocks(technique_blocks, now);
}

}  // namespace simt::vgiw
