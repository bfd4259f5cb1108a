// The grid layout (where Table 1's 108 units sit, token latencies on the
// folded-hypercube-like interconnect) and the placer's legality on every
// block of every workload kernel the compiler maps: each node on a unit of
// its type, no unit used twice, every edge routed over linked switches from
// a corner of its producer to a corner of its consumer, no switch link
// carrying more producers than its tracks.
#define BOOST_TEST_MODULE vgiw_placer
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>

#include "ptx/cfg_real_ptx.h"
#include "util/error.h"
#include "vgiw/compiler.h"
#include "vgiw/grid_layout.h"

using namespace simt;
using vgiw::Unit;

BOOST_AUTO_TEST_CASE(table1_layout) {
  const vgiw::GridLayout l(vgiw::table1_grid());
  BOOST_TEST(l.units() == 108u);
  BOOST_TEST(l.rows() == 10);
  BOOST_TEST(l.cols() == 12);
  std::set<std::pair<int, int>> cells;
  for (uint32_t u = 0; u < l.units(); ++u) {
    const vgiw::Cell c = l.cell(u);
    BOOST_TEST(cells.insert({c.row, c.col}).second);
    const bool ring = c.row == 0 || c.col == 0 || c.row == l.rows() - 1 || c.col == l.cols() - 1;
    const bool outer_type = l.type(u) == Unit::Ldst || l.type(u) == Unit::Lvu;
    BOOST_TEST(ring == outer_type, "unit " << u << " at " << c.row << "," << c.col);
  }
  const vgiw::UnitCounts t = vgiw::table1_grid();
  for (size_t u = 0; u < vgiw::kUnitTypes; ++u) BOOST_TEST(l.units_of(static_cast<Unit>(u)).size() == t.n[u]);
}

BOOST_AUTO_TEST_CASE(token_latencies) {
  const vgiw::GridLayout l(vgiw::table1_grid());
  auto at = [&](int r, int c) {
    for (uint32_t u = 0; u < l.units(); ++u)
      if (l.cell(u).row == r && l.cell(u).col == c) return u;
    BOOST_FAIL("no unit at " << r << "," << c);
    return 0u;
  };
  BOOST_TEST(l.latency(at(3, 3), at(3, 4)) == 1u);  // direct link
  BOOST_TEST(l.latency(at(3, 3), at(4, 4)) == 1u);  // a shared corner switch
  BOOST_TEST(l.latency(at(3, 3), at(3, 5)) == 2u);  // one switch link of two cells
  BOOST_TEST(l.latency(at(1, 1), at(8, 6)) == 1u + (6u + 4u) / 2u);  // corners (2,2) -> (8,6)
  for (uint32_t a = 0; a < l.units(); a += 7)
    for (uint32_t b = 0; b < l.units(); b += 5)
      if (a != b) BOOST_TEST(l.latency(a, b) == l.latency(b, a));
}

BOOST_AUTO_TEST_CASE(every_workload_block_places_and_routes_legally) {
  vgiw::CompilerOptions opt;
  uint32_t blocks = 0;
  for (const std::string& file : test::workload_ptx_files())
    for (const ptx::Program& p : test::link_all_entries(file)) {
      std::unique_ptr<vgiw::Compilation> c;
      try {
        c = std::make_unique<vgiw::Compilation>(p, opt);
      } catch (const Error&) {
        continue;  // warp-level instructions (test_compiler checks the message)
      }
      const vgiw::GridLayout& l = c->layout();
      for (const vgiw::CompiledBlock& b : c->blocks()) {
        if (!b.reachable) continue;
        ++blocks;
        BOOST_TEST_CONTEXT(p.kernel << " block " << b.id) {
          BOOST_TEST(b.replicas >= 1u);
          std::set<uint32_t> units;
          std::map<std::pair<uint32_t, uint32_t>, std::set<std::pair<size_t, uint32_t>>> nets;  // link -> producers
          for (size_t r = 0; r < b.placement.replicas.size(); ++r) {
            const vgiw::Replica& rep = b.placement.replicas[r];
            const auto& nodes = b.graph.nodes();
            BOOST_TEST(rep.unit_of.size() == nodes.size());
            for (size_t n = 0; n < nodes.size(); ++n) {
              BOOST_TEST(units.insert(rep.unit_of[n]).second, "unit used twice");
              BOOST_TEST(static_cast<int>(l.type(rep.unit_of[n])) == static_cast<int>(nodes[n].unit));
            }
            size_t inputs = 0;
            for (const auto& n : nodes) inputs += n.data.size() + n.control.size();
            BOOST_TEST(rep.edges.size() == inputs);
            for (const vgiw::RoutedEdge& e : rep.edges) {
              const uint32_t a = rep.unit_of[e.from], z = rep.unit_of[e.to];
              if (e.switches.empty()) {
                BOOST_TEST(e.latency == 1u);
                continue;
              }
              BOOST_TEST(e.latency == e.switches.size());
              bool from_corner = false, to_corner = false;
              for (uint32_t q = 0; q < 4; ++q) {
                from_corner = from_corner || l.corner(a, q) == e.switches.front();
                to_corner = to_corner || l.corner(z, q) == e.switches.back();
              }
              BOOST_TEST(from_corner);
              BOOST_TEST(to_corner);
              for (size_t k = 0; k + 1 < e.switches.size(); ++k) {
                const auto links = l.switch_links(e.switches[k]);
                BOOST_TEST((std::find(links.begin(), links.end(), e.switches[k + 1]) != links.end()));
                const auto key = std::minmax(e.switches[k], e.switches[k + 1]);
                nets[{key.first, key.second}].insert({r, e.from});
              }
            }
          }
          for (const auto& [link, producers] : nets) BOOST_TEST(producers.size() <= opt.tracks);
        }
      }
    }
  BOOST_TEST(blocks >= 300u);
}
