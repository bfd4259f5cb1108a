#include "vgiw/vgiw_report.h"

#include <cstdio>
#include <sstream>

namespace simt::vgiw {

namespace {

std::string id_text(uint32_t id) { return id == kNone ? "-" : std::to_string(id); }

std::string regs_text(const Compilation& c, const std::vector<uint32_t>& regs) {
  if (regs.empty()) return "-";
  std::string s;
  for (uint32_t r : regs) {
    if (!s.empty()) s += ' ';
    s += c.program().regs[r].name + "=" + id_text(c.live_values().id_of(r));
  }
  return s;
}

}  // namespace

std::string vgiw_report(const Compilation& c) {
  std::ostringstream o;
  const auto& blocks = c.blocks();
  o << "kernel " << c.program().kernel << ": " << blocks.size() << " VGIW blocks, " << c.live_values().count()
    << " live value IDs for " << c.live_values().registers() << " registers";
  if (c.splits()) o << ", " << c.splits() << " split" << (c.splits() == 1 ? "" : "s") << " of blocks too large for the grid";
  const IfConversionStats& ic = c.if_conversion();
  if (ic.triangles + ic.diamonds)
    o << ", " << ic.triangles + ic.diamonds << " if-converted region" << (ic.triangles + ic.diamonds == 1 ? "" : "s")
      << " (" << ic.triangles << " triangles, " << ic.diamonds << " diamonds; " << ic.branches_removed
      << " branches removed, " << ic.added << " predicate instructions added)";
  o << "\n";
  o << "grid:";
  for (size_t u = 0; u < kUnitTypes; ++u) o << ' ' << unit_name(static_cast<Unit>(u)) << ' ' << c.grid().n[u];
  o << " (" << c.layout().rows() << " x " << c.layout().cols() << " cells); hops = the longest edge in cycles, "
    << "path = initiator to terminator in cycles of token travel\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%4s %-11s %-7s %-5s %4s %3s %4s %5s %6s %3s %4s %3s %3s %3s %5s %8s %4s %4s\n",
                "id", "pcs", "succs", "taken", "exit", "bar", "loop", "nodes", "fp_alu", "scu", "ldst", "lvu", "sju",
                "cvu", "depth", "replicas", "hops", "path");
  o << line;
  for (const CompiledBlock& b : blocks) {
    std::string succs;
    for (uint32_t s : b.succ_ids) succs += (succs.empty() ? "" : ",") + std::to_string(s);
    const UnitCounts& n = b.graph.needs();
    const std::string pcs = std::to_string(b.begin) + "-" + std::to_string(b.end - 1);
    std::snprintf(line, sizeof line, "%4u %-11s %-7s %-5s %4s %3s %4s %5zu %6u %3u %4u %3u %3u %3u %5u %8s %4u %4u\n", b.id,
                  pcs.c_str(), succs.empty() ? "-" : succs.c_str(), id_text(b.taken_id).c_str(), b.exits ? "yes" : "-",
                  b.barrier ? "yes" : "-", id_text(b.loop_head).c_str(), b.graph.nodes().size(), n[Unit::FpAlu],
                  n[Unit::Scu], n[Unit::Ldst], n[Unit::Lvu], n[Unit::Sju], n[Unit::Cvu], b.graph.depth(),
                  !b.reachable ? "unreach." : std::to_string(b.replicas).c_str(), b.placement.max_latency,
                  b.placement.critical_path);
    o << line;
  }
  o << "\nlive values (register=ID):\n";
  for (const CompiledBlock& b : blocks) {
    if (b.live_in.empty() && b.live_out.empty()) continue;
    o << "  block " << b.id << " in:  " << regs_text(c, b.live_in) << "\n";
    o << "  block " << b.id << " out: " << regs_text(c, b.live_out) << "\n";
  }
  return o.str();
}

}  // namespace simt::vgiw
