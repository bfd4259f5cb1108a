#include "sm/pipeline_unit.h"

#include <stdexcept>

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::sm {

void PipeParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".lanes", lanes, "SIMD lanes of one unit", 1, 64);
  r.add(prefix + ".units", units, "number of identical units", 1, 64);
  r.add(prefix + ".latency", latency, "cycles from issue of a pass to its result", 1, 1000000);
  r.add(prefix + ".ii", ii, "initiation interval: cycles per pass", 1, 100000);
}

void PipeParams::validate(const std::string& prefix) const {
  if (lanes < 1 || lanes > 64) throw input_error("option " + prefix + ".lanes: must be 1..64");
  if (units < 1 || units > 64) throw input_error("option " + prefix + ".units: must be 1..64");
  if (latency < 1) throw input_error("option " + prefix + ".latency: must be at least 1");
  if (ii < 1) throw input_error("option " + prefix + ".ii: must be at least 1");
}

namespace {
const char* const kGroupNames[] = {"", "int_mul", "int_div", "fp_div", "f64", "f64_div"};
}

OpLatencyTable::Group OpLatencyTable::group_of(const ptx::Instr& in) {
  using ptx::Op;
  using ptx::Type;
  bool f64 = in.type == Type::F64 || in.type2 == Type::F64;
  if (in.cls == ptx::InstrClass::Tensor) return None;  // the tensor pipe's own timing, f64 (dmma) included
  switch (in.op) {
    case Op::Div: case Op::Rem:
      if (in.type == Type::F64) return F64Div;
      if (in.cls == ptx::InstrClass::Sfu) return None;  // div.approx / div.full.f32
      return ptx::type_is_float(in.type) ? FpDiv : IntDiv;
    case Op::Rcp: case Op::Sqrt: case Op::Rsqrt:
      return in.type == Type::F64 ? F64Div : None;
    case Op::Mul: case Op::Mad: case Op::Mul24: case Op::Mad24:
      if (!ptx::type_is_float(in.type)) return IntMul;
      return f64 ? F64 : None;
    default:
      if (in.cls == ptx::InstrClass::Ldst || in.cls == ptx::InstrClass::Branch ||
          in.cls == ptx::InstrClass::Barrier)
        return None;  // moves data of any type, no double-precision arithmetic
      return f64 ? F64 : None;
  }
}

void OpLatencyTable::bind(config::ParamRegistry& r, const std::string& prefix) {
  for (int g = IntMul; g < kGroups; ++g) {
    std::string base = prefix + "." + kGroupNames[g];
    r.add(base + ".latency", t[g].latency,
          std::string("latency of ") + kGroupNames[g] + " instructions (0 = the pipeline's own)", 0,
          1000000);
    r.add(base + ".ii", t[g].ii,
          std::string("initiation interval of ") + kGroupNames[g] + " instructions (0 = the pipeline's own)",
          0, 100000);
  }
}

void OpLatencyTable::validate(const std::string&) const {}  // every value in range is meaningful

PipelineUnit::PipelineUnit(const PipeParams& p, const OpLatencyTable& ops, stats::Registry& reg,
                           const std::string& name)
    : p_(p),
      ops_(ops),
      lane_all_(p.lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.lanes) - 1),
      instructions_(reg.counter(name + ".instructions", "warp instructions accepted")),
      busy_cycles_(reg.counter(name + ".busy_cycles", "unit-cycles the input stage was held (summed over units)")),
      lane_cycles_(reg.counter(name + ".active_lane_cycles", "lane-cycles spent on active threads")) {
  p_.validate(name);
}

OpTiming PipelineUnit::timing_for(const ptx::Instr& in) const {
  OpTiming o = ops_.lookup(in);
  if (o.latency == 0) o.latency = p_.latency;
  if (o.ii == 0) o.ii = p_.ii;
  return o;
}

uint64_t PipelineUnit::next_free(uint64_t now) const {
  uint64_t best = UINT64_MAX;
  for (uint32_t u = 0; u < p_.units; ++u) {
    uint64_t f = unit_[u].busy_until;
    if (f <= now) return now;
    if (f < best) best = f;
  }
  return best;
}

uint64_t PipelineUnit::accept(uint64_t now, uint64_t lane_mask, uint32_t warp_width, OpTiming t, uint32_t unit,
                              LaneMap map, uint32_t extra_latency, uint32_t map_passes) {
  if (warp_width < 1 || warp_width > 64)
    throw std::logic_error("pipeline: warp width " + std::to_string(warp_width) + " outside 1..64");
  if (t.latency == 0) t.latency = p_.latency;
  if (t.ii == 0) t.ii = p_.ii;
  uint32_t u = 0;
  if (unit == kAnyUnit) {
    while (u < p_.units && unit_[u].busy_until > now) ++u;
    if (u == p_.units) throw std::logic_error("pipeline: accept() while every unit is busy");
  } else {
    if (!unit_free(unit, now)) throw std::logic_error("pipeline: accept() on a busy unit " + std::to_string(unit));
    u = unit;
  }

  if (warp_width < 64) lane_mask &= (uint64_t{1} << warp_width) - 1;
  uint32_t n = passes(warp_width);
  if (map_passes) {
    n = map_passes;
  } else if (map != LaneMap::Home) {
    uint64_t lanes[128];
    n = map_lanes(map, lane_mask, warp_width, p_.lanes, lanes);
  }
  UnitState& s = unit_[u];
  s.start = now;
  s.busy_until = now + uint64_t(n) * t.ii;
  s.mask = lane_mask;
  s.passes = n;
  s.ii = t.ii;
  s.width = warp_width;
  s.map = map;
  last_unit_ = u;

  ++instructions_;
  busy_cycles_ += uint64_t(n) * t.ii;
  lane_cycles_ += uint64_t(__builtin_popcountll(lane_mask)) * t.ii;
  return now + uint64_t(n - 1) * t.ii + t.latency + extra_latency;
}

uint64_t PipelineUnit::lane_activity(uint32_t unit, uint64_t now) const {
  if (unit >= p_.units) return 0;
  const UnitState& s = unit_[unit];
  if (s.passes == 0 || now < s.start || now >= s.busy_until) return 0;
  uint64_t pass = (now - s.start) / s.ii;
  if (s.map == LaneMap::Home) return pass_lanes(s.mask, static_cast<uint32_t>(pass));
  uint64_t lanes[128];
  map_lanes(s.map, s.mask, s.width, p_.lanes, lanes);
  return lanes[pass];
}

}  // namespace simt::sm
