#define BOOST_TEST_MODULE behaviour
#include <boost/test/unit_test.hpp>

// Behaviour of the timing model against what real GPUs do: each check runs
// the real `simtlab` binary (one process per run: SystemC elaborates once
// per process) and compares the --stats documents of runs that differ in
// one machine parameter. Small workloads and one SM keep the file fast.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kBaseline = SIMT_SOURCE_DIR "/configs/vws-baseline.toml";
const std::string kFermi = SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml";
const std::string kLatencyManifest = SIMT_SOURCE_DIR "/tests/e2e/data/latency_bound.json";

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("simtlab_behaviour_" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
};
Scratch& scratch() {
  static Scratch s;
  return s;
}

// Runs `simtlab run <args> --stats ...` and returns the stats document; the
// same arguments are run once per process (several checks share runs).
const json& run(const std::string& args) {
  static std::map<std::string, json> done;
  auto it = done.find(args);
  if (it != done.end()) return it->second;
  const std::string tag = "run" + std::to_string(done.size());
  const fs::path stats = scratch().dir / (tag + ".json");
  const std::string cmd = "run " + args + " --stats " + stats.string();
  const simt::test::ProcessRun r = simt::test::run_simtlab(cmd, scratch().dir);
  std::string text = r.out + r.err;
  if (text.size() > 3000) text = text.substr(0, 3000) + "\n...";
  BOOST_TEST_REQUIRE(r.code == 0, cmd << "\n" << text);
  std::ifstream f(stats);
  json doc = json::parse(f);
  BOOST_TEST_REQUIRE(doc["verified"].get<bool>(), cmd);
  return done.emplace(args, std::move(doc)).first->second;
}

// A built-in workload, size small, in timing mode on the baseline machine plus `sets`.
const json& workload(const std::string& name, const std::string& sets = "") {
  return run("--workload " + name + " --size small --config " + kBaseline + (sets.empty() ? "" : " " + sets));
}
const json& functional(const std::string& name) {
  return run("--workload " + name + " --size small --mode functional --config " + kBaseline);
}

double num(const json& doc, const char* key) { return doc.at(key).get<double>(); }
uint64_t u64(const json& doc, const char* key) { return doc.at(key).get<uint64_t>(); }

}  // namespace

// A warp alone waits out every load; other warps fill the wait. The
// hand-written kernel (one load per loop iteration, the add waits for it,
// coalesced, every word read once) is latency-bound, far below DRAM
// bandwidth (a 32-warp run moves ~11 bytes/cycle of 32) and below the L1D's
// 32 MSHRs, so IPC should keep rising up to the SM's 32 warp slots. One
// 32-thread CTA = one warp, so sm.max_ctas sets the resident warps.
BOOST_AUTO_TEST_CASE(more_resident_warps_hide_memory_latency) {
  const std::vector<int> warps = {1, 4, 16, 32};
  std::vector<double> ipc;
  std::vector<const json*> docs;
  for (int w : warps) {
    const fs::path out = scratch().dir / ("lb" + std::to_string(w));
    const json& d = run("--manifest " + kLatencyManifest + " --out-dir " + out.string() + " --config " + kBaseline +
                        " --set sm.max_ctas=" + std::to_string(w));
    docs.push_back(&d);
    ipc.push_back(num(d, "ipc"));
    BOOST_TEST(d["memory_checksum"] == docs[0]->at("memory_checksum"), w << " warps");
    // The kernel's result: out[g] = sum over k < 16 of (g + 2048 k).
    std::ifstream f(out / "out.bin", std::ios::binary);
    std::vector<uint32_t> v(2048);
    f.read(reinterpret_cast<char*>(v.data()), 2048 * 4);
    BOOST_TEST_REQUIRE(f.good(), "out.bin of the " << w << "-warp run");
    for (uint32_t g = 0; g < 2048; g += 97) BOOST_TEST(v[g] == 16 * g + 2048u * 120u, "out[" << g << "]");
  }
  // One warp: most scheduler cycles see nothing but a warp waiting on memory
  // (the rest: ALU dependences inside the loop and CTA turnover).
  const json& one = *docs[0];
  const double w0_mem = one["issue_breakdown"][1]["cycles"].get<double>();
  BOOST_TEST(w0_mem > 0.6 * one["counters"]["sm0.sched0.cycles"].get<double>(), "W0-mem cycles with one warp");
  for (size_t i = 1; i < warps.size(); ++i)
    BOOST_TEST(ipc[i] > ipc[i - 1], warps[i] << " warps: IPC " << ipc[i] << " vs " << warps[i - 1] << " warps: "
                                             << ipc[i - 1]);
  BOOST_TEST(ipc[1] > 3.0 * ipc[0], "4 warps vs 1: " << ipc[1] << " vs " << ipc[0]);
  BOOST_TEST(ipc[3] > 1.2 * ipc[2], "32 warps vs 16: " << ipc[3] << " vs " << ipc[2]);

  // The same with a built-in workload: saxpy with one 8-warp CTA vs four.
  const json& few = workload("saxpy", "--set sm.max_ctas=1");
  const json& many = workload("saxpy");
  BOOST_TEST(num(many, "ipc") > num(few, "ipc"), "saxpy 32 warps " << num(many, "ipc") << " vs 8 warps "
                                                                   << num(few, "ipc"));
  BOOST_TEST(few["memory_checksum"] == many["memory_checksum"]);
}

// Divergent warps leave lanes idle: raytrace and bfs use far fewer of the 32
// lanes per issued instruction than tiled matmul.
BOOST_AUTO_TEST_CASE(divergent_workloads_have_lower_simd_efficiency) {
  const json& m = workload("matmul");
  for (const char* w : {"raytrace", "bfs"}) {
    const json& d = workload(w);
    BOOST_TEST(num(d, "simd_efficiency") < num(m, "simd_efficiency"), w);
    BOOST_TEST(num(d, "simd_efficiency") < 0.5, w << ": " << num(d, "simd_efficiency"));
  }
  BOOST_TEST(num(m, "simd_efficiency") > 0.95);
  // The lanes the SM counted agree with the executor's thread instructions.
  for (const char* w : {"matmul", "raytrace", "bfs"}) {
    const json& d = workload(w);
    const double from_counts = num(d, "thread_instructions") / (32.0 * num(d, "warp_instructions"));
    BOOST_TEST(num(d, "simd_efficiency") == from_counts, boost::test_tools::tolerance(1e-9));
  }
}

// Twice the DRAM latency: a streaming kernel (saxpy: two loads and a store
// per FMA) waits on it nearly every instruction; blackscholes and matmul do
// many ALU / shared-memory instructions per DRAM access and hide most of it.
BOOST_AUTO_TEST_CASE(dram_latency_slows_memory_bound_kernels_most) {
  const uint64_t base = workload("saxpy")["config"]["dram.latency"].get<uint64_t>();
  const std::string twice = "--set dram.latency=" + std::to_string(2 * base);
  auto slowdown = [&](const char* w) {
    const json& a = workload(w);
    const json& b = workload(w, twice);
    BOOST_TEST(a["memory_checksum"] == b["memory_checksum"], w);
    return num(b, "cycles") / num(a, "cycles");
  };
  const double saxpy = slowdown("saxpy"), bs = slowdown("blackscholes"), mm = slowdown("matmul");
  BOOST_TEST_MESSAGE("cycles with dram.latency " << 2 * base << " / " << base << ": saxpy " << saxpy
                                                 << ", blackscholes " << bs << ", matmul " << mm);
  BOOST_TEST(saxpy > bs);
  BOOST_TEST(saxpy > mm);
  BOOST_TEST(saxpy > 1.2);
  BOOST_TEST(bs >= 1.0);
  BOOST_TEST(mm >= 1.0);
}

// The scheduler decides when, never what: the memory equals the
// functional run's under every policy, while the cycle counts differ.
BOOST_AUTO_TEST_CASE(gto_and_lrr_change_cycles_never_memory) {
  for (const char* w : {"matmul", "bfs", "hotspot"}) {
    const json& f = functional(w);
    const json& gto = workload(w, "--set sm.policy=gto");
    const json& lrr = workload(w, "--set sm.policy=lrr");
    BOOST_TEST(gto["memory_checksum"] == f["memory_checksum"], w << " gto");
    BOOST_TEST(lrr["memory_checksum"] == f["memory_checksum"], w << " lrr");
    BOOST_TEST(u64(gto, "cycles") != u64(lrr, "cycles"), w);
  }
}

// Same for the two-level scheduler (active set of sm.active_warps = 8).
BOOST_AUTO_TEST_CASE(two_level_changes_cycles_never_memory) {
  for (const char* w : {"matmul", "bfs", "hotspot"}) {
    const json& f = functional(w);
    const json& gto = workload(w, "--set sm.policy=gto");
    const json& two = workload(w, "--set sm.policy=two_level");
    BOOST_TEST(two["memory_checksum"] == f["memory_checksum"], w << " two_level");
    BOOST_TEST(u64(gto, "cycles") != u64(two, "cycles"), w);
  }
}

// A 32-wide warp on 8 SP lanes takes 4 passes: compute-bound kernels slow
// down, and widening the SIMD pipe brings the cycles back.
BOOST_AUTO_TEST_CASE(wider_simd_lowers_cycles_of_compute_bound_kernels) {
  for (const char* w : {"blackscholes", "matmul"}) {
    const json& narrow = workload(w, "--set sp.lanes=8");
    const json& wide = workload(w, "--set sp.lanes=32");
    BOOST_TEST(u64(wide, "cycles") < u64(narrow, "cycles"), w);
    BOOST_TEST(u64(wide, "cycles") * 1.3 < u64(narrow, "cycles"), w << ": " << u64(wide, "cycles") << " vs "
                                                                   << u64(narrow, "cycles"));
    BOOST_TEST(wide["memory_checksum"] == narrow["memory_checksum"], w);
  }
  // blackscholes is almost all ALU work: every doubling of the lanes helps.
  BOOST_TEST(u64(workload("blackscholes", "--set sp.lanes=16"), "cycles") <
             u64(workload("blackscholes", "--set sp.lanes=8"), "cycles"));
  BOOST_TEST(u64(workload("blackscholes", "--set sp.lanes=32"), "cycles") <
             u64(workload("blackscholes", "--set sp.lanes=16"), "cycles"));
}

// The operand-read stage is pipelined: a few cycles of register read add
// latency to a latency-bound kernel but do not cut its issue rate to one
// instruction per stage length, and never change results.
BOOST_AUTO_TEST_CASE(operand_read_adds_latency_not_a_bottleneck) {
  const json& base = workload("saxpy");
  const json& slow = workload("saxpy", "--set sm.operand_read_cycles=4");
  BOOST_TEST(u64(slow, "cycles") > u64(base, "cycles"));
  BOOST_TEST(u64(slow, "cycles") < u64(base, "cycles") * 1.25, u64(slow, "cycles") << " vs " << u64(base, "cycles"));
  BOOST_TEST(slow["memory_checksum"] == base["memory_checksum"]);
}

// Every scheduler cycle falls in exactly one bin (W0-idle, W0-mem, stall,
// or issued with k active lanes), and each issued warp instruction in
// exactly one issued bin; per scheduler, per SM and summed.
BOOST_AUTO_TEST_CASE(issue_breakdown_adds_up) {
  const std::vector<const json*> docs = {
      &workload("saxpy"), &workload("bfs"), &workload("matmul", "--set sm.schedulers=2"),
      // 15 SMs x 2 schedulers; GTO because the two-level policy is checked on its own above.
      &run("--workload bfs --size small --config " + kFermi + " --set sm.policy=gto")};
  for (const json* dp : docs) {
    const json& d = *dp;
    const std::string what = d["run"].get<std::string>() + " schedulers " +
                             std::to_string(d["config"]["sm.schedulers"].get<int>()) + " SMs " +
                             std::to_string(d["config"]["gpu.num_sms"].get<int>());
    const json& bins = d["issue_breakdown"];
    BOOST_TEST_REQUIRE(bins.size() > 3u);
    BOOST_TEST(bins[0]["bin"] == "W0-idle");
    BOOST_TEST(bins[1]["bin"] == "W0-mem");
    BOOST_TEST(bins[2]["bin"] == "stall");
    uint64_t all = 0, issued = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
      all += bins[i]["cycles"].get<uint64_t>();
      if (i >= 3) issued += bins[i]["cycles"].get<uint64_t>();
    }
    // Scheduler cycles: sm<N>.sched<M>.cycles (the SM-level sm<N>.cycles does not end in "sched*.cycles").
    uint64_t sched_cycles = 0, sched_issued = 0;
    for (auto it = d["counters"].begin(); it != d["counters"].end(); ++it) {
      const std::string& k = it.key();
      const size_t dot = k.find(".sched");
      if (k.rfind("sm", 0) != 0 || dot == std::string::npos) continue;
      const std::string tail = k.substr(k.find('.', dot + 1));
      if (tail == ".cycles") sched_cycles += it.value().get<uint64_t>();
      if (tail == ".issued") sched_issued += it.value().get<uint64_t>();
    }
    BOOST_TEST(sched_cycles > 0u, what);
    BOOST_TEST(all == sched_cycles, what);
    BOOST_TEST(issued == u64(d, "warp_instructions"), what);
    BOOST_TEST(sched_issued == u64(d, "warp_instructions"), what);
    // Each scheduler's own histogram against its own counters.
    for (auto it = d["histograms"].begin(); it != d["histograms"].end(); ++it) {
      const std::string& k = it.key();
      const std::string suffix = ".issue_breakdown";
      if (k.find(".sched") == std::string::npos || k.size() < suffix.size() ||
          k.compare(k.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      const std::string owner = k.substr(0, k.size() - suffix.size());
      uint64_t h_all = 0, h_issued = 0;
      const json& b = it.value()["bins"];
      for (size_t i = 0; i < b.size(); ++i) {
        h_all += b[i].get<uint64_t>();
        if (i >= 3) h_issued += b[i].get<uint64_t>();
      }
      BOOST_TEST(h_all == d["counters"][owner + ".cycles"].get<uint64_t>(), what << " " << owner);
      BOOST_TEST(h_issued == d["counters"][owner + ".issued"].get<uint64_t>(), what << " " << owner);
    }
  }
}
