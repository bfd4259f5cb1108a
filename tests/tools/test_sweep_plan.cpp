// tools/sweep plan: sweep files expand into the runs they describe (cross
// products, zips, excludes, ranges, workload classes, the reference point),
// run ids do not depend on the order things are written in, and bad sweep
// files exit 2 naming the file and line.
#define BOOST_TEST_MODULE sweep_plan
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_sweep_plan");

// Writes `text` as scratch()/name and runs `tools/sweep plan` on it.
ProcessRun plan(const std::string& name, const std::string& text, const std::string& extra = "") {
  const fs::path f = scratch() / name;
  std::ofstream(f) << text;
  return simt::test::run_tool("sweep", "plan " + f.string() + " --simtlab " SIMT_BINARY_DIR "/simtlab " + extra,
                              scratch());
}

json plan_json(const std::string& name, const std::string& text) {
  const ProcessRun r = plan(name, text, "--json");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  return json::parse(r.out);
}

// The error for a bad sweep: exit 2, "sweep: <file>:<line>: ..." containing `what`.
void expect_error(const std::string& name, const std::string& text, int line, const std::string& what) {
  const ProcessRun r = plan(name, text);
  BOOST_TEST(r.code == 2, name << ": " << r.err);
  const std::string where = (scratch() / name).string() + ":" + std::to_string(line) + ":";
  BOOST_TEST(r.err.find(where) != std::string::npos, name << ": wanted " << where << " in: " << r.err);
  BOOST_TEST(r.err.find(what) != std::string::npos, name << ": wanted '" << what << "' in: " << r.err);
}

const std::string kMachine = "machine = [\"" SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml\"]\n";

}  // namespace

BOOST_AUTO_TEST_CASE(cross_product_of_every_axis) {
  const json p = plan_json("cross.toml", "[axes]\n" + kMachine +
                                             "workload = [\"saxpy\", \"bfs\"]\n"
                                             "mode = [\"timing\", \"functional\"]\n"
                                             "[axes.set]\n"
                                             "\"sm.policy\" = [\"gto\", \"lrr\", \"two_level\"]\n");
  BOOST_TEST(p["count"] == 12);  // 2 workloads x 2 modes x 3 policies
  std::set<std::string> ids, combos;
  for (const json& r : p["runs"]) {
    ids.insert(r["id"].get<std::string>());
    combos.insert(r["values"]["workload"].get<std::string>() + r["values"]["mode"].get<std::string>() +
                  r["values"]["set.sm.policy"].get<std::string>());
    BOOST_TEST(r["values"]["size"] == "small");  // the default
  }
  BOOST_TEST(ids.size() == 12u);
  BOOST_TEST(combos.size() == 12u);
}

BOOST_AUTO_TEST_CASE(zip_moves_axes_together_and_exclude_drops_matches) {
  const json p = plan_json("zip.toml", "[axes]\n"
                                       "workload = [\"saxpy\"]\n"
                                       "[axes.set]\n"
                                       "\"l1d.size\" = [16384, 32768, 49152]\n"
                                       "\"l1d.assoc\" = [4, 4, 6]\n"
                                       "\"dram.latency\" = { from = 100, to = 400, step = 150 }\n"
                                       "[[zip]]\n"
                                       "axes = [\"set.l1d.size\", \"set.l1d.assoc\"]\n"
                                       "[[exclude]]\n"
                                       "\"set.l1d.size\" = 49152\n"
                                       "\"set.dram.latency\" = [100, 250]\n");
  // 3 zipped pairs x 3 latencies (100, 250, 400) = 9, minus 49152 with 100 or 250.
  BOOST_TEST(p["count"] == 7);
  for (const json& r : p["runs"]) {
    const int size = r["values"]["set.l1d.size"], assoc = r["values"]["set.l1d.assoc"];
    BOOST_TEST(assoc == (size == 49152 ? 6 : 4));
    if (size == 49152) BOOST_TEST(r["values"]["set.dram.latency"] == 400);
  }
}

BOOST_AUTO_TEST_CASE(classes_resolve_and_the_reference_is_marked) {
  const json p = plan_json("class.toml", "[axes]\n"
                                         "workload = [\"class:convergent\", \"matmul\"]\n"
                                         "[axes.set]\n"
                                         "\"sm.policy\" = [\"gto\", \"lrr\"]\n"
                                         "[reference]\n"
                                         "\"set.sm.policy\" = \"gto\"\n");
  // matmul is convergent: listed twice, run once per policy.
  std::set<std::string> workloads;
  int refs = 0;
  for (const json& r : p["runs"]) {
    workloads.insert(r["values"]["workload"].get<std::string>());
    if (r["reference"].get<bool>()) {
      ++refs;
      BOOST_TEST(r["values"]["set.sm.policy"] == "gto");
    }
  }
  BOOST_TEST(workloads == (std::set<std::string>{"matmul", "radix_sort", "reduction", "scan"}));
  BOOST_TEST(p["count"] == 8);
  BOOST_TEST(refs == 4);  // one reference run per workload
}

BOOST_AUTO_TEST_CASE(named_overlay_axes_cross_and_apply_in_file_order) {
  const std::string cfg = SIMT_SOURCE_DIR "/configs/";
  const json p = plan_json("named.toml", "[axes]\nworkload = [\"saxpy\"]\n" + kMachine +
                                             "[axes.overlays]\n"
                                             "scheme = [[\"" + cfg + "pdom.toml\"], [\"" + cfg + "tbc-lcp.toml\"]]\n"
                                             "pipeline = [[], [\"" + cfg + "tbc-paper.toml\"]]\n"
                                             "[reference]\n\"overlays.scheme\" = [\"" + cfg + "pdom.toml\"]\n");
  BOOST_TEST(p["count"] == 4);
  int refs = 0, paper = 0;
  for (const json& r : p["runs"]) {
    BOOST_TEST(!r["values"].contains("overlays"));  // only the named axes
    refs += r["reference"].get<bool>();
    const std::vector<std::string> cmd = r["command"];
    std::vector<std::string> configs;
    for (size_t i = 0; i + 1 < cmd.size(); ++i)
      if (cmd[i] == "--config") configs.push_back(fs::path(cmd[i + 1]).filename().string());
    // The machine, then the scheme, then the pipeline overlay when there is one.
    BOOST_TEST_REQUIRE(configs.size() >= 2u);
    BOOST_TEST(configs[0] == "fermi-gtx480.toml");
    if (configs.size() == 3) {
      ++paper;
      BOOST_TEST(configs[2] == "tbc-paper.toml");
    }
  }
  BOOST_TEST(refs == 2);  // PDOM on each pipeline
  BOOST_TEST(paper == 2);
}

BOOST_AUTO_TEST_CASE(exclude_matches_files_written_relative_to_the_sweep_file) {
  const std::string rel = fs::relative(SIMT_SOURCE_DIR "/configs", scratch()).string() + "/";
  const json p = plan_json("excl_files.toml", "[axes]\nworkload = [\"saxpy\"]\n"
                                                  "machine = [\"" + rel + "fermi-gtx480.toml\", \"" + rel +
                                                  "vws-baseline.toml\"]\n[[exclude]]\nmachine = \"" + rel +
                                                  "fermi-gtx480.toml\"\n");
  BOOST_TEST(p["count"] == 1);
  BOOST_TEST(fs::path(p["runs"][0]["values"]["machine"].get<std::string>()).filename() == "vws-baseline.toml");
}

BOOST_AUTO_TEST_CASE(exclude_takes_one_overlay_value_or_a_list_of_them) {
  const std::string rel = fs::relative(SIMT_SOURCE_DIR "/configs", scratch()).string() + "/";
  const std::string axes = "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"vws.gangs_per_cycle\" = [1, 2, 0]\n"
                           "[axes.overlays]\nscheme = [[\"" + rel + "ws32.toml\"], [\"" + rel + "i-vws.toml\"]]\n";
  const json one = plan_json("excl_overlay.toml", axes + "[[exclude]]\n\"overlays.scheme\" = [\"" + rel +
                                                      "ws32.toml\"]\n\"set.vws.gangs_per_cycle\" = [1, 0]\n");
  BOOST_TEST(one["count"] == 4);  // WS32 only with 2 gangs a cycle
  const json list = plan_json("excl_overlays.toml", axes + "[[exclude]]\n\"overlays.scheme\" = [[\"" + rel +
                                                        "ws32.toml\"], [\"" + rel + "i-vws.toml\"]]\n"
                                                        "\"set.vws.gangs_per_cycle\" = 0\n");
  BOOST_TEST(list["count"] == 4);  // nothing with unlimited gangs
  expect_error("excl_overlay_type.toml", axes + "[[exclude]]\n\"overlays.scheme\" = 3\n", 8,
               "takes an overlay value (a list of files) or a list of them");
}

BOOST_AUTO_TEST_CASE(manifests_are_workloads_and_fix_their_own_size) {
  const json p = plan_json("manifest.toml", "[axes]\n"
                                            "workload = [\"manifest:" SIMT_SOURCE_DIR "/tests/cli/data/example.json\", \"saxpy\"]\n");
  BOOST_TEST(p["count"] == 2);
  BOOST_TEST(p["runs"][0]["values"]["workload"] == "manifest:" SIMT_SOURCE_DIR "/tests/cli/data/example.json");
  BOOST_TEST(p["runs"][0]["id"].get<std::string>().rfind("example-", 0) == 0);
}

BOOST_AUTO_TEST_CASE(run_ids_do_not_depend_on_order) {
  auto ids = [](const json& p) {
    std::set<std::string> s;
    for (const json& r : p["runs"]) s.insert(r["id"].get<std::string>());
    return s;
  };
  const json a = plan_json("order_a.toml", "[axes]\nworkload = [\"saxpy\", \"scan\"]\nmode = [\"timing\", \"functional\"]\n");
  const json b = plan_json("order_b.toml", "[axes]\nmode = [\"functional\", \"timing\"]\nworkload = [\"scan\", \"saxpy\"]\n");
  BOOST_TEST(ids(a) == ids(b));
  BOOST_TEST(ids(a).size() == 4u);
}

BOOST_AUTO_TEST_CASE(bad_sweep_files_name_file_and_line) {
  expect_error("syntax.toml", "[axes]\nworkload = [\"saxpy\"\n", 2, "TOML");
  expect_error("no_axes.toml", "name = \"x\"\n", 1, "[axes]");
  expect_error("unknown_axis.toml", "[axes]\nworkload = [\"saxpy\"]\nwarps = [1, 2]\n", 3, "unknown axis 'warps'");
  expect_error("unknown_top.toml", "\nruns = 3\n[axes]\nworkload = [\"saxpy\"]\n", 2, "unknown key 'runs'");
  expect_error("bad_size.toml", "[axes]\nworkload = [\"saxpy\"]\nsize = [\"huge\"]\n", 3, "size 'huge'");
  expect_error("missing_machine.toml", "[axes]\nworkload = [\"saxpy\"]\nmachine = [\"nope.toml\"]\n", 3,
               "machine file not found: nope.toml");
  expect_error("unknown_param.toml", "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"l1d.sise\" = [1]\n", 4,
               "unknown machine parameter 'l1d.sise'");
  expect_error("unknown_workload.toml", "[axes]\nworkload = [\"sxapy\"]\n", 2, "unknown workload 'sxapy'");
  expect_error("unknown_class.toml", "[axes]\nworkload = [\"class:fast\"]\n", 2, "no built-in workload has class");
  expect_error("bad_range.toml", "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"dram.latency\" = { from = 5, to = 1, step = 1 }\n",
               4, "to >= from");
  expect_error("zip_lengths.toml",
               "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"l1d.size\" = [1, 2]\n\"l1d.assoc\" = [1]\n"
               "[[zip]]\naxes = [\"set.l1d.size\"]\n[[zip]]\naxes = [\"set.l1d.size\", \"set.l1d.assoc\"]\n",
               7, "two or more");
  expect_error("zip_mismatch.toml",
               "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"l1d.size\" = [1, 2]\n\"l1d.assoc\" = [1]\n"
               "[[zip]]\naxes = [\"set.l1d.size\", \"set.l1d.assoc\"]\n",
               7, "same number of values");
  expect_error("duplicate.toml", "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"sm.policy\" = [\"gto\", \"gto\"]\n", 4,
               "lists a value twice");
  expect_error("plot_kind.toml", "[axes]\nworkload = [\"saxpy\"]\n[plot]\nkind = \"pie\"\n", 4,
               "kind must be one of bars, lines, breakdown, series");
  expect_error("plot_normalise.toml", "[axes]\nworkload = [\"saxpy\"]\n[plot]\ny = \"cycles\"\nnormalise = true\n", 5,
               "needs a [reference] point");
  expect_error("plot_means.toml", "[axes]\nworkload = [\"saxpy\"]\nmode = [\"timing\"]\n[[plot]]\nkind = \"lines\"\n"
               "x = \"mode\"\nmeans = \"hmean\"\n", 7, "for kind 'bars'");
  expect_error("overlay_name.toml", "[axes]\nworkload = [\"saxpy\"]\n[axes.overlays]\n\"a b\" = [[]]\n", 4,
               "overlay axis names");
  expect_error("plot_where.toml", "[axes]\nworkload = [\"saxpy\"]\n[plot]\nwhere = { size = \"huge\" }\n", 4,
               "is not one of the axis' values");
  expect_error("quick_unknown.toml", "quick = [\"nqueens\"]\n[axes]\nworkload = [\"saxpy\"]\n", 1,
               "quick names 'nqueens', which is not on the workload axis");
  expect_error("collect_key.toml", "[axes]\nworkload = [\"saxpy\"]\n[collect]\nstat = [\"ipc\"]\n", 4,
               "[collect] has no key 'stat'");
  expect_error("exclude_axis.toml", "[axes]\nworkload = [\"saxpy\"]\n[[exclude]]\nmode = \"timing\"\nwarp = 3\n", 5,
               "'warp', which is not an axis");
  expect_error("reference_value.toml",
               "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n\"sm.policy\" = [\"gto\"]\n[reference]\n\"set.sm.policy\" = \"lrr\"\n",
               6, "is not one of the axis' values");
}

BOOST_AUTO_TEST_CASE(the_shipped_sweeps_plan) {
  for (const auto& e : fs::directory_iterator(SIMT_SOURCE_DIR "/sweeps")) {
    if (e.path().extension() != ".toml") continue;
    const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep plan " + e.path().string() +
                            " --simtlab " SIMT_BINARY_DIR "/simtlab >/dev/null 2>" + (scratch() / "err").string();
    const int status = std::system(cmd.c_str());
    const std::string err = simt::test::slurp(scratch() / "err");
    // A suite sweep (the papers' programs, sweeps/suites/) is checked up to its roots, which only a
    // user with the suites has: everything before them must be right.
    if (simt::test::slurp(e.path()).find("apps_files") != std::string::npos) {
      BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 2), e.path());
      BOOST_TEST(err.find("needs the root") != std::string::npos, e.path() << ": " << err);
      continue;
    }
    BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0), e.path() << ": " << err);
  }
}

// A parameter value simtlab would refuse at run time (out of range, not a choice, the wrong type) is
// refused by plan already, from what `simtlab params` says of the parameter; so is an [[exclude]]
// that names a file that is not there (it would exclude nothing).
BOOST_AUTO_TEST_CASE(bad_parameter_values_and_paths_are_refused_at_plan) {
  const std::string head = "[axes]\nworkload = [\"saxpy\"]\n[axes.set]\n";
  expect_error("assoc_range.toml", head + "\"l1d.assoc\" = [4, 100000]\n", 4,
               "set.l1d.assoc = 100000: value 100000 out of range [1, 65536]");
  expect_error("assoc_from_range.toml", head + "\"sm.policy\" = [\"gto\"]\n\"l1d.assoc\" = { from = 0, to = 8, step = 4 }\n",
               5, "set.l1d.assoc = 0: value 0 out of range");
  expect_error("policy_choice.toml", head + "\"sm.policy\" = [\"gto\", \"fifo\"]\n", 4,
               "set.sm.policy = \"fifo\": 'fifo' is not one of: lrr, gto");
  expect_error("size_float.toml", head + "\"l1d.size\" = [16384.0]\n", 4,
               "set.l1d.size = 16384.0: expected an integer, got '16384.0'");
  expect_error("bool_number.toml", head + "\"tbc.compaction\" = [1]\n", 4,
               "set.tbc.compaction = 1: expected true or false, got '1'");
  expect_error("double_text.toml", head + "\"energy.fp_op\" = [\"cheap\"]\n", 4,
               "set.energy.fp_op = \"cheap\": expected a number, got 'cheap'");
  expect_error("double_range.toml", head + "\"energy.fp_op\" = [-1.5]\n", 4,
               "set.energy.fp_op = -1.5: value -1.5 out of range");
  expect_error("exclude_missing_file.toml", "[axes]\nworkload = [\"saxpy\"]\n" + kMachine +
                   "[[exclude]]\nmachine = \"" SIMT_SOURCE_DIR "/configs/fermi-gtx48O.toml\"\n", 5,
               "[[exclude]] machine: file not found: " SIMT_SOURCE_DIR "/configs/fermi-gtx48O.toml");
  expect_error("exclude_value.toml", head + "\"l1d.assoc\" = [4, 8]\n[[exclude]]\n\"set.l1d.assoc\" = 16\n", 6,
               "[[exclude]] set.l1d.assoc: 16 is not one of the axis' values");
  // Values simtlab takes are still fine: hex, a double written as an integer, booleans, choices.
  const json ok = plan_json("good_values.toml", head + "\"l1d.assoc\" = [\"0x4\", 8]\n\"energy.fp_op\" = [5, 2.5e0]\n"
                                                       "\"tbc.compaction\" = [true, false]\n");
  BOOST_TEST(ok["count"] == 8);
}
