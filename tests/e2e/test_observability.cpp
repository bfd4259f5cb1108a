#define BOOST_TEST_MODULE observability
#include <boost/test/unit_test.hpp>

// Runs the real `simtlab` binary (timing mode) and checks what a user sees
// when debugging a run: VCD signals with a filter and a window, the warp
// trace and its filter, the sampled time series, and the deadlock watchdog.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

namespace fs = std::filesystem;

namespace {

using Run = simt::test::ProcessRun;
using simt::test::slurp;

fs::path scratch() {
  static fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("simtlab_obs_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

Run simtlab(const std::string& args) { return simt::test::run_simtlab(args, scratch()); }

const std::string kConfig = "--config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml";
const std::string kSaxpy = "run --workload saxpy --size small --quiet " + kConfig;

nlohmann::json stats_of(const fs::path& p) {
  std::ifstream f(p);
  return nlohmann::json::parse(f);
}

// VCD: identifier code of the variable `name` declared inside scope `scope`
// (the last component of its dotted path), or "" if absent.
std::string vcd_id(const std::string& vcd, const std::string& scope, const std::string& name) {
  std::istringstream in(vcd);
  std::string line, cur;
  while (std::getline(in, line)) {
    std::istringstream t(line);
    std::string a, b, c, width, id, n;
    t >> a;
    if (a == "$scope") {
      t >> b >> cur;
    } else if (a == "$var") {
      t >> b >> width >> id >> n;
      if (cur == scope && n == name) return id;
    } else if (a == "$enddefinitions") {
      break;
    }
  }
  return "";
}

// Times (VCD units) at which variable `id` changes after the initial dump.
std::vector<uint64_t> vcd_changes(const std::string& vcd, const std::string& id) {
  std::vector<uint64_t> at;
  std::istringstream in(vcd.substr(vcd.find("$enddefinitions")));
  std::string line;
  uint64_t now = 0;
  bool dumpvars = false;
  while (std::getline(in, line)) {
    if (line.rfind("$dumpvars", 0) == 0) dumpvars = true;
    if (line.rfind("$end", 0) == 0) dumpvars = false;
    if (!line.empty() && line[0] == '#') {
      now = std::stoull(line.substr(1));
      continue;
    }
    if (dumpvars || line.empty()) continue;
    const size_t sp = line.rfind(' ');
    const std::string code = line[0] == 'b' ? line.substr(sp + 1) : line.substr(1);
    if (code == id) at.push_back(now);
  }
  return at;
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_offers_the_block_signals_filtered_and_windowed) {
  const fs::path vcd = scratch() / "run.vcd";
  // The window is cycles 300..2000; a time unit is 100 ps, so a cycle is 10 units.
  Run r = simtlab(kSaxpy + " --vcd " + vcd.string() +
                  " --vcd-signals 'sm0.sp.u0_lanes,sm0.issue.s0_*,sm0.issue.w3_*,sm0.l1d.mshrs,l2.0.mshrs,"
                  "sm0.fetch.pc,sm0.decode.queue,sm0.ldst.queue,xbar.req_in_flight,dram.ch0.busy'"
                  " --vcd-window 300:2000");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const std::string text = slurp(vcd);
  struct Want {
    const char* scope;
    const char* name;
  };
  for (Want w : {Want{"sp", "u0_lanes"}, Want{"issue", "s0_warp"}, Want{"issue", "s0_mask"},
                 Want{"issue", "w3_pc"}, Want{"issue", "w3_depth"}, Want{"l1d", "mshrs"}, Want{"0", "mshrs"},
                 Want{"fetch", "pc"}, Want{"decode", "queue"}, Want{"ldst", "queue"}, Want{"xbar", "req_in_flight"},
                 Want{"ch0", "busy"}}) {
    const std::string id = vcd_id(text, w.scope, w.name);
    BOOST_TEST(!id.empty(), "missing " << w.scope << "." << w.name);
    if (id.empty()) continue;
    const std::vector<uint64_t> ch = vcd_changes(text, id);
    BOOST_TEST(!ch.empty(), w.scope << "." << w.name << " never changes");
    for (uint64_t t : ch) BOOST_TEST((t >= 3000 && t <= 20010), w.scope << "." << w.name << " changes at " << t);
  }
  // Not asked for: other schedulers, warps, units, pipes, SMs.
  for (Want w : {Want{"issue", "s1_warp"}, Want{"issue", "w4_pc"}, Want{"sp", "u1_lanes"},
                 Want{"sfu", "u0_lanes"}, Want{"issue", "w30_depth"}})
    BOOST_TEST(vcd_id(text, w.scope, w.name).empty(), w.scope << "." << w.name << " was not asked for");
  BOOST_TEST(text.find("$scope module sm1 ") == std::string::npos);

  // GTKWave must load it.
  if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("vcd2fst not installed: GTKWave conversion not checked");
    return;
  }
  const fs::path fst = scratch() / "run.fst";
  const std::string cmd = "vcd2fst " + vcd.string() + " " + fst.string() + " >/dev/null 2>&1";
  BOOST_TEST(std::system(cmd.c_str()) == 0);
  BOOST_TEST(fs::exists(fst));
  BOOST_TEST(fs::file_size(fst) > 0u);
}

namespace {

// VCD: every value variable `id` takes, initial dump included, as the text
// of the value ("b0101", "bxxxx", "1", ...), in file order.
std::vector<std::string> vcd_values(const std::string& vcd, const std::string& id) {
  std::vector<std::string> v;
  std::istringstream in(vcd.substr(vcd.find("$enddefinitions")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '$') continue;
    const size_t sp = line.rfind(' ');
    if (line[0] == 'b' || line[0] == 'r') {
      if (sp != std::string::npos && line.substr(sp + 1) == id) v.push_back(line.substr(0, sp));
    } else if (line.substr(1) == id) {
      v.push_back(line.substr(0, 1));
    }
  }
  return v;
}

bool undefined(const std::string& value) { return value.find_first_of("xX") != std::string::npos; }

// VCD: the sum over cycles of a numeric variable's value (a one-cycle count
// such as hits summed over the run; a bool: the cycles it was 1).
uint64_t vcd_cycle_sum(const std::string& vcd, const std::string& id) {
  std::istringstream in(vcd.substr(vcd.find("$enddefinitions")));
  std::string line;
  uint64_t now = 0, since = 0, value = 0, sum = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '$') continue;
    if (line[0] == '#') {
      now = std::stoull(line.substr(1));
      continue;
    }
    const size_t sp = line.rfind(' ');
    const bool vec = line[0] == 'b';
    if ((vec ? line.substr(sp + 1) : line.substr(1)) != id) continue;
    sum += value * (now - since);
    since = now;
    value = vec ? std::stoull(line.substr(1, sp - 1), nullptr, 2) : uint64_t(line[0] == '1');
  }
  return (sum + value * (now - since)) / 10;  // 10 time units per cycle
}

// The VCD must load in GTKWave (its converter vcd2fst accepts it).
void check_gtkwave_loads(const fs::path& vcd) {
  if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("vcd2fst not installed: GTKWave conversion not checked");
    return;
  }
  const fs::path fst = fs::path(vcd).replace_extension(".fst");
  const std::string cmd = "vcd2fst " + vcd.string() + " " + fst.string() + " >/dev/null 2>&1";
  BOOST_TEST(std::system(cmd.c_str()) == 0);
  BOOST_TEST(fs::exists(fst));
  if (fs::exists(fst)) BOOST_TEST(fs::file_size(fst) > 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_covers_every_block_of_the_sm_and_the_memory_side) {
  const fs::path vcd = scratch() / "blocks.vcd";
  const fs::path stats = scratch() / "blocks.json";
  Run r = simtlab("run --workload bfs --size small --quiet " + kConfig + " --vcd " + vcd.string() +
                  " --vcd-signals 'sm0.fetch.*,sm0.decode.*,sm0.ldst.*,sm0.l1i.*,sm0.l1d.*,xbar.*,l2.0.*,"
                  "dram.ch0.*,sm0.issue.w*_pc' --stats " + stats.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const std::string text = slurp(vcd);
  // One-cycle counts summed over the run are the blocks' counters: every
  // value was recorded in its cycle and cleared after it.
  const nlohmann::json counters = stats_of(stats)["counters"];
  struct Sum {
    const char* scope;
    const char* name;
    const char* counter;
  };
  for (Sum w : {Sum{"l1i", "misses", "sm0.l1i.misses"}, Sum{"l1d", "hits", "sm0.l1d.hits"},
                Sum{"l1d", "misses", "sm0.l1d.misses"}, Sum{"0", "hits", "l2.0.hits"},
                Sum{"0", "misses", "l2.0.misses"}, Sum{"ch0", "busy", "dram.ch0.busy_cycles"}}) {
    const uint64_t want = counters[w.counter].get<uint64_t>();
    BOOST_TEST(want > 0u, w.counter);
    BOOST_TEST(vcd_cycle_sum(text, vcd_id(text, w.scope, w.name)) == want, w.counter);
  }
  struct Want {
    const char* scope;
    const char* name;
  };
  // Every block's signals are declared under its stats name and change.
  for (Want w : {Want{"fetch", "warp"}, Want{"fetch", "pc"}, Want{"fetch", "credits"}, Want{"fetch", "in_flight"},
                 Want{"decode", "warp"}, Want{"decode", "pc"}, Want{"decode", "queue"},
                 Want{"ldst", "queue"}, Want{"ldst", "requests"}, Want{"ldst", "warp"},
                 Want{"l1i", "hits"}, Want{"l1i", "misses"}, Want{"l1i", "queue"}, Want{"l1i", "mshrs"},
                 Want{"l1d", "hits"}, Want{"l1d", "misses"}, Want{"l1d", "queue"}, Want{"l1d", "down_queue"},
                 Want{"xbar", "req_waiting"}, Want{"xbar", "req_in_flight"}, Want{"xbar", "rsp_waiting"},
                 Want{"xbar", "rsp_in_flight"}, Want{"0", "mshrs"}, Want{"0", "queue"}, Want{"0", "down_queue"},
                 Want{"0", "hits"}, Want{"0", "misses"}, Want{"ch0", "queue"}, Want{"ch0", "row_hits"},
                 Want{"ch0", "row_misses"}, Want{"ch0", "busy"}, Want{"issue", "w0_pc"}}) {
    const std::string id = vcd_id(text, w.scope, w.name);
    BOOST_TEST(!id.empty(), "missing " << w.scope << "." << w.name);
    if (id.empty()) continue;
    BOOST_TEST(vcd_changes(text, id).size() >= 2u, w.scope << "." << w.name << " changes too rarely");
  }
  // Idle PCs are undefined ('x'), never the 0xFFFFFFFF sentinel: before a
  // warp slot is first used, after its warp exits, and while fetch and
  // decode pass nothing on; defined values appear in between.
  for (Want w : {Want{"issue", "w0_pc"}, Want{"issue", "w1_pc"}, Want{"fetch", "pc"}, Want{"decode", "pc"}}) {
    const std::vector<std::string> v = vcd_values(text, vcd_id(text, w.scope, w.name));
    BOOST_TEST_REQUIRE(v.size() >= 3u, w.scope << "." << w.name);
    BOOST_TEST(undefined(v.front()), w.scope << "." << w.name << " starts as " << v.front());
    BOOST_TEST(undefined(v.back()), w.scope << "." << w.name << " ends as " << v.back());
    size_t x = 0, defined = 0, sentinel = 0;
    for (const std::string& s : v) {
      x += undefined(s);
      defined += !undefined(s);
      sentinel += s == "b11111111111111111111111111111111";
    }
    BOOST_TEST(x >= 2u, w.scope << "." << w.name);
    BOOST_TEST(defined >= 1u, w.scope << "." << w.name);
    BOOST_TEST(sentinel == 0u, w.scope << "." << w.name);
  }
  // Not asked for: other SMs, L2 slices and DRAM channels.
  BOOST_TEST(text.find("$scope module sm1 ") == std::string::npos);
  BOOST_TEST(vcd_id(text, "1", "mshrs").empty());
  BOOST_TEST(vcd_id(text, "ch1", "queue").empty());
  check_gtkwave_loads(vcd);
}

BOOST_AUTO_TEST_CASE(tbc_stack_and_compactor_pcs_are_undefined_when_idle) {
  const fs::path vcd = scratch() / "tbc.vcd";
  Run r = simtlab("run --workload bfs --size small --quiet --config " SIMT_SOURCE_DIR "/configs/tbc-baseline.toml"
                  " --config " SIMT_SOURCE_DIR "/configs/tbc.toml --vcd " + vcd.string() + " --vcd-signals 'sm0.issue.cta0_tos_pc,sm0.compactor.out_pc'");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const std::string text = slurp(vcd);
  for (const char* scope : {"issue", "compactor"}) {
    const std::string id = vcd_id(text, scope, scope == std::string("issue") ? "cta0_tos_pc" : "out_pc");
    BOOST_TEST_REQUIRE(!id.empty(), scope);
    const std::vector<std::string> v = vcd_values(text, id);
    size_t x = 0, defined = 0;
    for (const std::string& s : v) (undefined(s) ? x : defined) += 1;
    BOOST_TEST(x >= 2u, scope);
    BOOST_TEST(defined >= 1u, scope);
    BOOST_TEST(undefined(v.back()), scope);
  }
  check_gtkwave_loads(vcd);
}

namespace {

struct IssueLine {
  uint64_t cycle;
  uint32_t sm, sched, warp, pc;
};
struct StallLine {
  uint64_t first, last;
  uint32_t sm, sched;
  std::string reason;
};

void parse_trace(const std::string& text, std::vector<IssueLine>& issues, std::vector<StallLine>& stalls,
                 size_t& bad) {
  static const std::regex issue_re(R"(^(\d+) sm(\d+) s(\d+) w(\d+) pc=(\d+) mask=([0-9a-f]+) (\S.*)$)");
  static const std::regex stall_re(
      R"(^(\d+)(?:-(\d+))? sm(\d+) s(\d+) stall (idle|memory|scoreboard|pipe-busy|barrier|ibuffer-empty|not-picked)$)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, m, issue_re)) {
      issues.push_back({std::stoull(m[1]), static_cast<uint32_t>(std::stoul(m[2])),
                        static_cast<uint32_t>(std::stoul(m[3])), static_cast<uint32_t>(std::stoul(m[4])),
                        static_cast<uint32_t>(std::stoul(m[5]))});
    } else if (std::regex_match(line, m, stall_re)) {
      const uint64_t first = std::stoull(m[1]);
      stalls.push_back({first, m[2].matched ? std::stoull(m[2]) : first, static_cast<uint32_t>(std::stoul(m[3])),
                        static_cast<uint32_t>(std::stoul(m[4])), m[5]});
    } else {
      ++bad;
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(warp_trace_has_one_line_per_issue_and_its_filter_restricts_it) {
  const fs::path trace = scratch() / "all.trace", stats = scratch() / "all.json";
  Run r = simtlab(kSaxpy + " --trace-warps " + trace.string() + " --stats " + stats.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::vector<IssueLine> issues;
  std::vector<StallLine> stalls;
  size_t bad = 0;
  parse_trace(slurp(trace), issues, stalls, bad);
  BOOST_TEST(bad == 0u);
  const nlohmann::json st = stats_of(stats);
  BOOST_TEST(issues.size() == st["warp_instructions"].get<uint64_t>());
  BOOST_TEST(!stalls.empty());
  // Per SM, the issue lines of each SM add up to its counter, and the
  // instruction text is the kernel's (saxpy's first instruction loads a parameter).
  uint64_t sm0 = 0;
  for (const IssueLine& i : issues) sm0 += i.sm == 0;
  BOOST_TEST(sm0 == st["counters"]["sm0.warp_instructions"].get<uint64_t>());
  BOOST_TEST(slurp(trace).find(" pc=0 mask=ffffffff ld.param") != std::string::npos);
  // A scheduler never both issues and stalls in one cycle.
  std::set<std::tuple<uint64_t, uint32_t, uint32_t>> issued;
  for (const IssueLine& i : issues) issued.insert({i.cycle, i.sm, i.sched});
  size_t overlaps = 0;
  for (const StallLine& s : stalls)
    for (uint64_t c = s.first; c <= s.last; ++c) overlaps += issued.count({c, s.sm, s.sched});
  BOOST_TEST(overlaps == 0u);

  const fs::path part = scratch() / "part.trace";
  r = simtlab(kSaxpy + " --trace-warps " + part.string() + " --trace-filter warps=0-3,sm=0,cycles=1000:2000");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::vector<IssueLine> pi;
  std::vector<StallLine> ps;
  bad = 0;
  parse_trace(slurp(part), pi, ps, bad);
  BOOST_TEST(bad == 0u);
  BOOST_TEST(!pi.empty());
  size_t expect = 0;
  for (const IssueLine& i : issues) expect += i.sm == 0 && i.warp <= 3 && i.cycle >= 1000 && i.cycle <= 2000;
  BOOST_TEST(pi.size() == expect);
  for (const IssueLine& i : pi) {
    BOOST_TEST(i.sm == 0u);
    BOOST_TEST(i.warp <= 3u);
    BOOST_TEST((i.cycle >= 1000 && i.cycle <= 2000));
  }
  for (const StallLine& s : ps) {
    BOOST_TEST(s.sm == 0u);
    BOOST_TEST((s.first >= 1000 && s.last <= 2000 && s.first <= s.last));
  }

  r = simtlab(kSaxpy + " --trace-warps " + part.string() + " --trace-filter bogus=1");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--trace-filter") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(time_series_sample_every_interval) {
  const fs::path stats = scratch() / "series.json";
  Run r = simtlab(kSaxpy + " --set stats.interval=500 --stats " + stats.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const nlohmann::json st = stats_of(stats);
  const double cycles = st["cycles"].get<double>();
  const auto& series = st["series"];
  for (const char* name : {"sm0.ipc", "sm0.active_warps", "sm1.ipc", "sm1.active_warps"}) {
    BOOST_TEST_REQUIRE(series.contains(name), name);
    BOOST_TEST(series[name]["interval"].get<uint64_t>() == 500u);
    const double n = static_cast<double>(series[name]["values"].size());
    BOOST_TEST((n >= cycles / 500 - 1 && n <= cycles / 500 + 1), name << ": " << n << " samples, " << cycles << " cycles");
  }
  // IPC samples add up to the SM's thread instructions (all but the last partial interval).
  double issued = 0, peak_warps = 0;
  for (const auto& v : series["sm0.ipc"]["values"]) issued += v.get<double>() * 500;
  for (const auto& v : series["sm0.active_warps"]["values"]) peak_warps = std::max(peak_warps, v.get<double>());
  const double total = st["counters"]["sm0.thread_instructions"].get<double>();
  BOOST_TEST(issued <= total + 1e-6);
  BOOST_TEST(issued >= total - 500.0 * 64);
  BOOST_TEST(peak_warps > 0);

  // interval 0: no series.
  r = simtlab(kSaxpy + " --set stats.interval=0 --stats " + stats.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(!stats_of(stats)["series"].contains("sm0.ipc"));
}

BOOST_AUTO_TEST_CASE(barrier_deadlock_exits_3_with_the_dump) {
  const fs::path m = scratch() / "deadlock.json";
  std::ofstream(m) << R"({"ptx": ")" SIMT_SOURCE_DIR R"(/tests/e2e/data/deadlock.ptx",
    "buffers": [{"name": "out", "type": "i32", "count": 64, "init": {"kind": "fill", "value": 0}}],
    "launches": [{"kernel": "deadlock", "grid": 1, "block": 64, "args": [{"buffer": "out"}]}],
    "outputs": [{"buffer": "out", "path": "out.bin"}]})";
  // Quiet, and with progress checks on (the simulation then runs in slices:
  // the watchdog's wake-up lies beyond a slice).
  for (const char* quiet : {"--quiet", ""}) {
    Run r = simtlab(std::string("run ") + quiet + " " + kConfig + " --set sm.watchdog_cycles=200000 --manifest " +
                    m.string() + " --out-dir " + scratch().string());
    BOOST_TEST(r.code == 3, r.out << r.err);
    BOOST_TEST(r.err.find("deadlock watchdog") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("waits at barrier 0") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("waits at barrier 1") != std::string::npos, r.err);
  }
}

BOOST_AUTO_TEST_CASE(progress_checks_do_not_change_results) {
  // Without --quiet the simulation runs in slices between wall-clock checks;
  // the statistics must be those of one uninterrupted run.
  const fs::path a = scratch() / "quiet.json", b = scratch() / "loud.json";
  const std::string run = "run --workload bfs --size small " + kConfig;
  Run r = simtlab(run + " --quiet --stats " + a.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(r.err.find("progress") == std::string::npos, r.err);
  r = simtlab(run + " --stats " + b.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const nlohmann::json ja = stats_of(a), jb = stats_of(b);
  BOOST_TEST(ja["cycles"] == jb["cycles"]);
  BOOST_TEST(ja["counters"] == jb["counters"]);
  BOOST_TEST(ja["series"] == jb["series"]);
}

BOOST_AUTO_TEST_CASE(recording_a_waveform_does_not_change_results) {
  // Blocks that trace wake every cycle, which reorders SystemC's processes
  // within a cycle; no block may depend on that order. One SM and a
  // multi-SM machine, every signal recorded.
  for (const std::string& machine : {std::string(""), std::string("--config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml")}) {
    const fs::path a = scratch() / "novcd.json", b = scratch() / "vcd.json";
    const std::string run = "run --workload bfs --size small --quiet " + machine;
    Run r = simtlab(run + " --stats " + a.string());
    BOOST_TEST_REQUIRE(r.code == 0, r.err);
    r = simtlab(run + " --vcd " + (scratch() / "all.vcd").string() + " --stats " + b.string());
    BOOST_TEST_REQUIRE(r.code == 0, r.err);
    const nlohmann::json ja = stats_of(a), jb = stats_of(b);
    BOOST_TEST(ja["cycles"] == jb["cycles"], machine);
    BOOST_TEST(ja["counters"] == jb["counters"], machine);
  }
}
