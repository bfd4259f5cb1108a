// tools/sweep plot on a hand-made sweep directory: each figure the [plot]
// tables ask for (bars with class means, lines over a numeric axis, issue
// breakdown, time series, values over the reference's) is written as a real
// PNG and SVG; an unknown kind or a missing series is a clear error.
#define BOOST_TEST_MODULE sweep_plot
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

SIMT_TEST_SCRATCH("simtlab_sweep_plot");

using simt::test::write_json;

// Runs over two workloads and an L1D size axis, the reference at 16384.
fs::path make_sweep(const std::string& name, const json& plot) {
  const fs::path dir = scratch() / name;
  json ids = json::array();
  for (const std::string w : {"a", "b"})
    for (int size : {16384, 32768, 65536}) {
      const std::string id = w + "-" + std::to_string(size);
      ids.push_back(id);
      const fs::path d = dir / "runs" / id;
      write_json(d / "run.json", {{"id", id}, {"values", {{"workload", w}, {"mode", "timing"}, {"set.l1d.size", size}}}});
      write_json(d / "stats.json", {{"cycles", 100000 / (size / 16384) + (w == "a" ? 0 : 5000)},
                             {"memory_pipeline_stalls", size / 64},
                             {"series", {{"sm0.ipc", {{"interval", 1000}, {"values", {1.5, 2.0, 0.5}}}},
                                         {"sm0.small", {{"interval", 1000}, {"values", {0, 4, 8}}}},
                                         {"sm0.big", {{"interval", 1000}, {"values", {8, 4, 0}}}}}},
                             {"issue_breakdown", {{{"bin", "W0-idle"}, {"cycles", 30}}, {{"bin", "W1-4"}, {"cycles", 70}}}}});
      write_json(d / "status.json", {{"exit_code", 0}, {"seconds", 0.1}, {"error", ""}});
    }
  write_json(dir / "sweep.json", {{"sweep", name}, {"title", "Hand-made"}, {"runs", ids},
                           {"reference", {{"set.l1d.size", 16384}}}, {"plot", plot}});
  return dir;
}

std::string out() { return simt::test::slurp(scratch() / "out"); }

int plot(const fs::path& dir) {
  const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep plot " + dir.string() + " >" +
                          (scratch() / "out").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_figure_is_written_as_png_and_svg) {
  const fs::path dir = make_sweep("figs", json::array({{{"kind", "bars"}, {"name", "speedups"}},
                                                       {{"kind", "lines"}, {"x", "set.l1d.size"}, {"name", "over_l1d"},
                                                        {"y", "cycles"}, {"title", "Cycles over L1D size"}},
                                                       {{"kind", "breakdown"}, {"name", "issue"}}}));
  BOOST_TEST_REQUIRE(plot(dir) == 0, simt::test::slurp(scratch() / "out"));
  for (const std::string stem : {"speedups", "over_l1d", "issue"}) {
    const std::string png = simt::test::slurp(dir / "plots" / (stem + ".png"));
    const std::string svg = simt::test::slurp(dir / "plots" / (stem + ".svg"));
    BOOST_TEST(png.size() > 1000u, stem);
    BOOST_TEST(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0, stem);
    BOOST_TEST(svg.find("<svg") != std::string::npos, stem);
    BOOST_TEST(!fs::exists(dir / "plots" / (stem + ".png.tmp")));
  }
  BOOST_TEST(simt::test::slurp(dir / "plots" / "over_l1d.svg").find("Cycles over L1D size") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_unknown_figure_kind_is_an_error) {
  const fs::path dir = make_sweep("badkind", {{"kind", "pie"}});
  BOOST_TEST(plot(dir) == 2);
  BOOST_TEST(out().find("kind 'pie'") != std::string::npos, out());
}

BOOST_AUTO_TEST_CASE(means_series_and_normalised_figures) {
  const fs::path dir = make_sweep("more", json::array({{{"kind", "bars"}, {"name", "hm"}, {"means", "hmean"}},
                                                      {{"kind", "series"}, {"name", "ipc"}, {"y", "sm0.ipc"}},
                                                      {{"kind", "bars"}, {"name", "stalls"}, {"normalise", true},
                                                       {"y", "memory_pipeline_stalls"}, {"means", "amean"}}}));
  BOOST_TEST_REQUIRE(plot(dir) == 0, out());
  for (const std::string stem : {"hm", "ipc", "stalls"})
    BOOST_TEST(simt::test::slurp(dir / "plots" / (stem + ".png")).size() > 1000u, stem);
  // The hand-made workloads have no class: their mean group is "other". (SVG keeps text as comments.)
  BOOST_TEST(simt::test::slurp(dir / "plots" / "hm.svg").find("hmean other") != std::string::npos);
  BOOST_TEST(simt::test::slurp(dir / "plots" / "stalls.svg").find("memory_pipeline_stalls / reference") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(where_keeps_only_the_runs_with_those_values) {
  const fs::path dir = make_sweep("where", {{"kind", "bars"}, {"y", "cycles"}, {"name", "two"},
                                            {"where", {{"set.l1d.size", {16384, 65536}}}}});
  BOOST_TEST_REQUIRE(plot(dir) == 0, out());
  const std::string svg = simt::test::slurp(dir / "plots" / "two.svg");
  BOOST_TEST(svg.find("16384") != std::string::npos);
  BOOST_TEST(svg.find("65536") != std::string::npos);
  BOOST_TEST(svg.find("32768") == std::string::npos);  // its runs are left out, so is its bar
}

BOOST_AUTO_TEST_CASE(a_list_of_series_is_drawn_stacked_a_panel_per_run) {
  const fs::path dir = make_sweep("stacked", {{"kind", "series"}, {"name", "sizes"},
                                              {"y", {"sm0.small", "sm0.big"}}, {"where", {{"set.l1d.size", {16384}}}}});
  BOOST_TEST_REQUIRE(plot(dir) == 0, out());
  const std::string svg = simt::test::slurp(dir / "plots" / "sizes.svg");
  BOOST_TEST(svg.find("sm0.small") != std::string::npos);  // the legend names both
  BOOST_TEST(svg.find("sm0.big") != std::string::npos);
  const fs::path missing = make_sweep("stacked_missing", {{"kind", "series"}, {"y", {"sm0.small", "sm9.nothing"}}});
  BOOST_TEST(plot(missing) == 2);
  BOOST_TEST(out().find("sm9.nothing") != std::string::npos, out());
}

BOOST_AUTO_TEST_CASE(a_series_no_run_has_is_an_error_that_names_it) {
  const fs::path dir = make_sweep("noseries", {{"kind", "series"}, {"y", "sm9.nothing"}});
  BOOST_TEST(plot(dir) == 2);
  BOOST_TEST(out().find("sm9.nothing") != std::string::npos, out());
  BOOST_TEST(!fs::exists(dir / "plots" / "noseries-series.png"));
}

namespace {

// The PNG's width in pixels, from its IHDR chunk (bytes 16-19, big-endian).
unsigned png_width(const std::string& png) {
  BOOST_TEST_REQUIRE(png.size() > 24u);
  unsigned w = 0;
  for (int i = 16; i < 20; ++i) w = w << 8 | static_cast<unsigned char>(png[i]);
  return w;
}

}  // namespace

// Seed 004's shape: many workloads of three classes, a named overlay axis crossed with size. The bars
// come as a panel per class (the classes of the pinned binary's `simtlab list`), the figure fits a
// page, the legend shows values with the varying axes named once in its title, the y axis says what
// it is in words, and bars too close to tell apart carry their values.
BOOST_AUTO_TEST_CASE(bars_are_readable_at_normal_size) {
  const fs::path dir = scratch() / "readable";
  const std::vector<std::string> workloads = {"bfs", "bst_search", "cascade", "nqueens", "matmul", "scan", "reduction",
                                              "saxpy"};
  const std::vector<std::string> schemes = {"pg-none", "pg-conventional", "warped-gates", "origami"};
  json ids = json::array(), where = json::array();
  for (const std::string& w : workloads)
    for (size_t s = 0; s < schemes.size(); ++s)
      for (const std::string size : {"small", "medium", "large"}) {
        const std::string id = w + "-" + schemes[s] + "-" + size;
        ids.push_back(id);
        const fs::path d = dir / "runs" / id;
        const json scheme = {"/x/configs/" + schemes[s] + ".toml"};
        write_json(d / "run.json", {{"id", id}, {"values", {{"workload", w}, {"overlays.scheme", scheme}, {"size", size},
                                                            {"mode", "timing"}}}});
        // bfs gains up to 2x; every other workload's bars are within 4% of each other.
        const int k = static_cast<int>(s) * 3 + (size == std::string("small") ? 0 : size == std::string("medium") ? 1 : 2);
        const double speedup = s == 0 ? 1.0 : w == "bfs" ? 1.0 + 0.1 * k : 1.0 + 0.004 * (k - 2);
        write_json(d / "stats.json", {{"cycles", static_cast<long>(100000 / speedup + 0.5)}});
        write_json(d / "status.json", {{"exit_code", 0}, {"seconds", 0.1}, {"error", ""}});
      }
  for (size_t s = 1; s < schemes.size(); ++s) where.push_back(json::array({"/x/configs/" + schemes[s] + ".toml"}));
  write_json(dir / "sweep.json", {{"sweep", "readable"}, {"title", "Performance"}, {"runs", ids},
                                  {"reference", {{"overlays.scheme", {"/x/configs/pg-none.toml"}}}},
                                  {"plot", {{"kind", "bars"}, {"name", "perf"}, {"means", "hmean"},
                                            {"where", {{"overlays.scheme", where}}}}}});
  fs::create_directories(dir / "bin");
  fs::create_symlink(SIMT_BINARY_DIR "/simtlab", dir / "bin" / "simtlab");  // the pinned binary: classes

  BOOST_TEST_REQUIRE(plot(dir) == 0, out());
  // 8 workloads x 9 configurations plus 4 means: one row of bars would be some 3000 px wide.
  BOOST_TEST(png_width(simt::test::slurp(dir / "plots" / "perf.png")) < 1600u);
  const std::string svg = simt::test::slurp(dir / "plots" / "perf.svg");
  for (const std::string panel : {"divergent workloads", "convergent workloads", "warp-size-insensitive workloads",
                                  "harmonic mean per class"})
    BOOST_TEST(svg.find(panel) != std::string::npos, panel);
  BOOST_TEST(svg.find("hmean convergent") != std::string::npos);
  BOOST_TEST(svg.find("<!-- scheme, size -->") != std::string::npos);  // the legend's title
  BOOST_TEST(svg.find("<!-- pg-conventional, small -->") != std::string::npos);
  BOOST_TEST(svg.find("=pg-conventional") == std::string::npos);  // not overlays.scheme=..., size=...
  BOOST_TEST(svg.find("speed-up over pg-none") != std::string::npos);
  // matmul's origami/large bar is 1.036 and its group spans 1.004-1.036: printed. bfs's bars (1.3 to 2.1)
  // are told apart by their height: 2.1 is not printed.
  BOOST_TEST(svg.find("1.036") != std::string::npos);
  BOOST_TEST(svg.find("2.100") == std::string::npos);
}
