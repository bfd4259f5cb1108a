// Seed 001's simplified pipeline (§2.2) as machine options, each on its own
// and together (configs/tbc-paper.toml): every one leaves the results equal
// (same memory checksum, verified) and moves timing the way it must.
//  - fetch.model = ideal: no fetch and no L1I access at all, and fewer
//    cycles than the realistic front end;
//  - sm.scoreboard = warp: one instruction of a warp in flight, so more
//    cycles on kernels with independent instructions to overlap;
//  - sm.unified_pipe: one issue port for every pipe, so more cycles held by
//    the pipes below (the "stall" bin of the issue breakdown).
// Bad values are refused with the option's name.
#define BOOST_TEST_MODULE paper_pipeline
#include <boost/test/unit_test.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using simt::test::counter_sum;
using simt::test::run_with_stats;
using simt::test::StatsRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_paper_pipeline");

const std::string kPdom = "--config " SIMT_SOURCE_DIR "/configs/tbc-baseline.toml --config " SIMT_SOURCE_DIR
                          "/configs/pdom.toml";

StatsRun run(const std::string& workload, const std::string& extra, const std::string& tag) {
  StatsRun r = run_with_stats("--quiet --workload " + workload + " " + kPdom + " " + extra, scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.out << r.proc.err);
  BOOST_TEST(r.stats["verified"].get<bool>(), r.cmd);
  return r;
}

uint64_t stall_cycles(const nlohmann::json& stats) {
  for (const auto& b : stats["issue_breakdown"])
    if (b["bin"] == "stall") return b["cycles"].get<uint64_t>();
  return 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(ideal_fetch_needs_no_front_end_and_is_faster) {
  for (const std::string w : {"matmul", "hotspot"}) {
    const StatsRun real = run(w, "", w + "-real");
    const StatsRun ideal = run(w, "--set fetch.model=ideal", w + "-ideal");
    BOOST_TEST(ideal.stats["memory_checksum"] == real.stats["memory_checksum"], w);
    BOOST_TEST(ideal.stats["warp_instructions"] == real.stats["warp_instructions"], w);
    BOOST_TEST(counter_sum(real.stats, ".fetch.fetches") > 0u, w);
    BOOST_TEST(counter_sum(ideal.stats, ".fetch.fetches") == 0u, w);
    BOOST_TEST(counter_sum(ideal.stats, ".l1i.accesses") == 0u, w);
    BOOST_TEST(ideal.stats["cycles"].get<uint64_t>() < real.stats["cycles"].get<uint64_t>(), w);
  }
}

BOOST_AUTO_TEST_CASE(warp_scoreboard_serialises_a_warps_instructions) {
  for (const std::string w : {"matmul", "bfs"}) {
    const StatsRun regs = run(w, "", w + "-regs");
    const StatsRun warp = run(w, "--set sm.scoreboard=warp", w + "-warp");
    BOOST_TEST(warp.stats["memory_checksum"] == regs.stats["memory_checksum"], w);
    BOOST_TEST(warp.stats["cycles"].get<uint64_t>() > regs.stats["cycles"].get<uint64_t>(), w);
    BOOST_TEST(warp.stats["config"]["sm.scoreboard"] == "warp", w);
  }
}

BOOST_AUTO_TEST_CASE(unified_pipe_lets_a_refused_instruction_hold_every_pipe) {
  const StatsRun split = run("matmul", "", "matmul-split");
  const StatsRun unified = run("matmul", "--set sm.unified_pipe=true", "matmul-unified");
  BOOST_TEST(unified.stats["memory_checksum"] == split.stats["memory_checksum"]);
  BOOST_TEST(stall_cycles(unified.stats) > stall_cycles(split.stats));
  BOOST_TEST(unified.stats["cycles"].get<uint64_t>() > split.stats["cycles"].get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(the_paper_overlay_sets_all_three_and_runs_every_scheme) {
  for (const std::string scheme : {"pdom", "tbc-lcp", "dwf"}) {
    StatsRun r = run_with_stats("--quiet --workload nqueens --config " SIMT_SOURCE_DIR
                                "/configs/tbc-baseline.toml --config " SIMT_SOURCE_DIR "/configs/" + scheme +
                                    ".toml --config " SIMT_SOURCE_DIR "/configs/tbc-paper.toml",
                                scratch(), "paper-" + scheme);
    BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
    BOOST_TEST(r.stats["verified"].get<bool>(), scheme);
    BOOST_TEST(r.stats["config"]["fetch.model"] == "ideal", scheme);
    BOOST_TEST(r.stats["config"]["sm.scoreboard"] == "warp", scheme);
    BOOST_TEST(r.stats["config"]["sm.unified_pipe"] == true, scheme);
  }
}

BOOST_AUTO_TEST_CASE(bad_values_name_the_option) {
  for (const auto& [arg, name] : {std::pair<std::string, std::string>{"--set fetch.model=perfect", "fetch.model"},
                                  {"--set sm.scoreboard=thread", "sm.scoreboard"},
                                  {"--set sm.unified_pipe=maybe", "sm.unified_pipe"}}) {
    const auto p = simt::test::run_simtlab("run --quiet --workload saxpy " + arg, scratch());
    BOOST_TEST(p.code == 2, arg);
    BOOST_TEST(p.err.find(name) != std::string::npos, arg << ": " << p.err);
  }
}
