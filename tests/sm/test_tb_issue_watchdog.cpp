#define BOOST_TEST_MODULE tb_issue_watchdog
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the two
// warps of a CTA wait at different barriers, so nothing can ever issue; the
// issue unit's watchdog must stop the simulation and report every warp.

#include <string>

#include "common/issue_tb.h"
#include "sm/pdom_branch_unit.h"
#include "stats/stats.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;

namespace {

const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry split(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra A;
  bar.sync 2;
  bra.uni E;
A:
  bar.sync 1;
E:
  ret;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(watchdog_reports_a_barrier_deadlock_with_every_warp) {
  const TbKernel kern(kKernel, "split", 1, 64);
  func::GlobalMemory mem;

  sm::IssueParams p;
  p.max_warps = 8;
  p.watchdog_cycles = 300;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, std::make_unique<sm::PdomBranchUnit>(p.max_warps, p.warp_size), reg,
                      "sm0");
  FetchStub fetch("fetch");
  PipeStub sp("sp", 1, 0), sfu("sfu", 1, 0), ldst("ldst", 1, 0);  // accept everything, write back next cycle
  DispatcherStub disp("disp");  // the one CTA
  disp.kernel = make_context(kern, mem, 0);
  bind_front(issue, disp, fetch);
  bind_pipes(issue, sp, sfu, ldst);

  sc_core::sc_start(sc_core::sc_time(100000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  const uint64_t end = util::now_cycle();
  BOOST_TEST(disp.next == 1u);  // launched
  BOOST_TEST(disp.finished.empty());
  BOOST_TEST(issue.faulted());
  // Stopped by the watchdog shortly after the last issue, not at the time limit.
  BOOST_TEST(end >= 300u);
  BOOST_TEST(end < 400u);
  BOOST_TEST(reg.value("sm0.barrier_waits") == 2u);
  BOOST_TEST(sp.log.accepted == 4u);  // mov and setp of both warps
  std::string msg;
  try {
    issue.rethrow_fault();
  } catch (const Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(ExitCode::KernelFault));
    msg = e.what();
  }
  BOOST_TEST_MESSAGE(msg);
  BOOST_TEST(msg.find("deadlock watchdog") != std::string::npos);
  BOOST_TEST(msg.find("barrier 1: 32 of 64 threads arrived") != std::string::npos);
  BOOST_TEST(msg.find("barrier 2: 32 of 64 threads arrived") != std::string::npos);
  BOOST_TEST(msg.find("warp 0: waits at barrier 1") != std::string::npos);
  BOOST_TEST(msg.find("warp 1: waits at barrier 2") != std::string::npos);
  BOOST_TEST(msg.find("stack depth") != std::string::npos);
}
