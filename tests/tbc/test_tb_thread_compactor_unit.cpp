#define BOOST_TEST_MODULE tb_thread_compactor_unit
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "config/param_registry.h"
#include "stats/stats.h"
#include "tbc/thread_compactor_unit.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

// One SystemC world: a stub issue stage sends block-wide masks to a
// ThreadCompactorUnit (queue of 2, VCD on) and takes the generated warps,
// refusing one of them once.
using namespace simt;
using func::ThreadMask;
using sm::CompactRequest;
using sm::GeneratedWarp;
using util::cycles;
using util::now_cycle;

namespace {

ThreadMask mask_of(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}

void wait_until(uint64_t cycle) {
  if (cycles(cycle) > sc_core::sc_time_stamp()) sc_core::wait(cycles(cycle) - sc_core::sc_time_stamp());
}

struct Got {
  uint64_t cycle;
  uint32_t cta, pc;
  ThreadMask mask;
  uint32_t index;
  bool last;
  bool operator==(const Got& o) const {
    return std::tie(cycle, cta, pc, mask, index, last) == std::tie(o.cycle, o.cta, o.pc, o.mask, o.index, o.last);
  }
};
std::ostream& operator<<(std::ostream& os, const Got& g) {
  os << "{cycle " << g.cycle << " cta " << g.cta << " pc " << g.pc << " [";
  g.mask.for_each([&](uint32_t t) { os << ' ' << t; });
  return os << " ] #" << g.index << (g.last ? " last" : "") << "}";
}

CompactRequest request(uint32_t cta, uint32_t pc, const ThreadMask& m, bool compact) {
  CompactRequest r;
  r.cta = cta;
  r.pc = pc;
  r.mask = m;
  r.threads = 8;
  r.warp_size = 4;
  r.compact = compact;
  return r;
}

struct StubIssue : sc_core::sc_module {
  util::PacketInitiator<StubIssue, CompactRequest> to_compactor{"to_compactor"};
  util::PacketTarget<StubIssue, GeneratedWarp> warps{"warps", this, &StubIssue::receive};
  std::vector<Got> got;
  std::set<uint64_t> refuse_cycles;
  std::vector<bool> first_three;   // accepted? for the three requests of cycle 1
  uint64_t third_accepted_at = 0;

  SC_CTOR(StubIssue) { SC_THREAD(run); }

  bool send(CompactRequest r) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    to_compactor->b_transport(r, t);
    return r.accepted;
  }
  void receive(GeneratedWarp& g, sc_core::sc_time&) {
    if (refuse_cycles.count(now_cycle())) return;  // warp buffer full this cycle
    g.accepted = true;
    got.push_back({now_cycle(), g.cta, g.pc, g.mask, g.index, g.last});
  }
  void run() {
    wait_until(1);
    // Figure 7's B side (two compacted warps), C side with the compactor off
    // (its two static warps), then a full CTA that does not fit the queue.
    const CompactRequest r3 = request(2, 9, ThreadMask::range(0, 8), true);
    first_three.push_back(send(request(0, 3, mask_of({1, 2, 3, 4, 7}), true)));
    first_three.push_back(send(request(1, 5, mask_of({0, 5, 6}), false)));
    first_three.push_back(send(r3));
    while (!send(r3)) sc_core::wait(util::cycle_time());
    third_accepted_at = now_cycle();
    // Long after everything drained: the idle block wakes for a new request.
    wait_until(50);
    send(request(3, 1, mask_of({2}), true));
  }
};

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_warp_per_cycle_in_order_with_backpressure) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("simtlab_tbc_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string vcd = (dir / "compactor.vcd").string();
  trace::WaveformOptions wo;
  wo.path = vcd;
  {
    stats::Registry reg;
    trace::Waveform wf("waveform", wo);
    tbc::ThreadCompactorParams p;
    p.queue = 2;
    tbc::ThreadCompactorUnit tc("compactor", p, reg, "sm0.tbc", &wf);
    StubIssue issue("issue");
    issue.refuse_cycles.insert(3);
    issue.to_compactor.bind(tc.in);
    tc.out.bind(issue.warps);

    sc_core::sc_start(cycles(100));

    // Accepted in cycle 1, compacted from cycle 2, one warp per cycle; the
    // warp refused in cycle 3 comes again in 4. The third request waits for
    // room: the first leaves in 4 (still counted in 4), so it gets in at 5.
    BOOST_TEST(issue.first_three == (std::vector<bool>{true, true, false}), boost::test_tools::per_element());
    BOOST_TEST(issue.third_accepted_at == 5u);
    const std::vector<Got> want = {
        {2, 0, 3, mask_of({1, 2, 3, 4}), 0, false},  // lane k's lowest thread: 4, 1, 2, 3
        {4, 0, 3, mask_of({7}), 1, true},            // 7 shares lane 3 with 3
        {5, 1, 5, mask_of({0}), 0, false},           // compactor off: static warp 0
        {6, 1, 5, mask_of({5, 6}), 1, true},         // static warp 1
        {7, 2, 9, ThreadMask::range(0, 4), 0, false},
        {8, 2, 9, ThreadMask::range(4, 4), 1, true},
        {51, 3, 1, mask_of({2}), 0, true},
    };
    BOOST_TEST(issue.got == want, boost::test_tools::per_element());

    BOOST_TEST(reg.value("sm0.tbc.requests") == 4u);
    BOOST_TEST(reg.value("sm0.tbc.warps_generated") == 7u);
    BOOST_TEST(reg.value("sm0.tbc.busy_cycles") == 8u);  // cycles 2-8 and 51
    BOOST_TEST(tc.idle());
    // Asleep between the bursts: a few wake-ups, not one per cycle.
    BOOST_TEST(tc.activations() < 20u);
  }
  // The VCD (closed with the waveform) names the signals and shows lane masks.
  const std::string text = slurp(vcd);
  for (const char* sig : {" out_valid ", " out_cta ", " out_pc ", " out_mask "})
    BOOST_TEST(text.find(sig) != std::string::npos, sig);
  BOOST_TEST(text.find("$scope module tbc $end") != std::string::npos);
  BOOST_TEST(text.find("b1111 ") != std::string::npos);  // lanes of {4, 1, 2, 3}
  BOOST_TEST(text.find("b1000 ") != std::string::npos);  // thread 7 in lane 3
  BOOST_TEST(text.find("b110 ") != std::string::npos);   // threads 5, 6 in lanes 1, 2
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(queue_parameter) {
  tbc::ThreadCompactorParams p;
  config::ParamRegistry r;
  p.bind(r, "tbc");
  BOOST_TEST(r.has("tbc.compactor_queue"));
  r.set("tbc.compactor_queue", "4", "test");
  BOOST_TEST(p.queue == 4u);
  BOOST_CHECK_THROW(r.set("tbc.compactor_queue", "0", "test"), Error);
  p.queue = 0;
  BOOST_CHECK_THROW(p.validate("tbc"), Error);
}
