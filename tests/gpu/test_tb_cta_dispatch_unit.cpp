#define BOOST_TEST_MODULE tb_cta_dispatch_unit
#include <boost/test/unit_test.hpp>

#include <deque>

#include "gpu/cta_dispatch_unit.h"
#include "util/cycle.h"

// Two stub SMs that run each CTA for 10 cycles; the dispatcher must respect
// the per-SM CTA limit, launch every CTA once and let the simulation go idle
// (sc_start returns) when the kernel is done.
namespace {

using namespace simt;

struct StubSm : sc_core::sc_module {
  util::PacketTarget<StubSm, sm::CtaLaunch> launch{"launch", this, &StubSm::on_launch};
  util::PacketInitiator<StubSm, sm::CtaDone> done{"done"};
  uint32_t id;
  std::deque<std::pair<uint64_t, uint64_t>> running;  // (cta, finish cycle)
  std::vector<uint64_t> got;
  uint32_t max_resident = 0;
  sc_core::sc_event wake;
  SC_HAS_PROCESS(StubSm);
  StubSm(sc_core::sc_module_name n, uint32_t i) : sc_module(n), id(i) {
    SC_METHOD(tick);
    sensitive << wake;
    dont_initialize();
  }
  void on_launch(sm::CtaLaunch& l, sc_core::sc_time&) {
    running.push_back({l.cta_index, util::now_cycle() + 10});
    got.push_back(l.cta_index);
    max_resident = std::max<uint32_t>(max_resident, static_cast<uint32_t>(running.size()));
    l.accepted = true;
    wake.notify(util::cycle_time());
  }
  void tick() {
    while (!running.empty() && running.front().second <= util::now_cycle()) {
      sm::CtaDone d;
      d.sm = id;
      d.cta_index = running.front().first;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      done->b_transport(d, t);
      BOOST_TEST_REQUIRE(d.accepted);
      running.pop_front();
    }
    if (!running.empty()) next_trigger(util::cycle_time());
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(dispatches_every_cta_within_limits_then_goes_idle) {
  stats::Registry reg;
  gpu::SmLimits limits;
  limits.max_ctas = 2;
  gpu::CtaDispatchUnit unit("dispatcher", 2, limits, reg);
  StubSm sm0("sm0", 0), sm1("sm1", 1);
  unit.launch(0).bind(sm0.launch);
  unit.launch(1).bind(sm1.launch);
  sm0.done.bind(unit.done(0));
  sm1.done.bind(unit.done(1));

  auto k = std::make_shared<sm::KernelContext>();
  k->geom.grid = {{7, 1, 1}};
  k->geom.block = {{64, 1, 1}};
  unit.start_kernel(k, {64, 8, 0});
  sc_core::sc_start();  // returns when nothing is left to do

  std::vector<uint64_t> all = sm0.got;
  all.insert(all.end(), sm1.got.begin(), sm1.got.end());
  std::sort(all.begin(), all.end());
  BOOST_TEST(all == (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6}));
  BOOST_TEST(sm0.max_resident <= 2u);
  BOOST_TEST(sm1.max_resident <= 2u);
  BOOST_TEST(unit.kernel_finished());
  BOOST_TEST(unit.ctas_done() == 7u);
  BOOST_TEST(reg.value("dispatcher.ctas_launched") == 7u);
  // 7 CTAs, 4 resident at a time, 10 cycles each: two waves, one CTA per SM
  // per cycle, a completion frees its slot for the next cycle: about 23 cycles.
  BOOST_TEST(util::now_cycle() >= 21u);
  BOOST_TEST(util::now_cycle() <= 26u);
}
