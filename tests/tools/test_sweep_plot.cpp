// tools/sweep plot on a hand-made sweep directory: each figure the [plot]
// tables ask for (bars with class means, lines over a numeric axis, issue
// breakdown, time series, values over the reference's) is written as a real
// PNG and SVG; an unknown kind or a missing series is a clear error.
#define BOOST_TEST_MODULE sweep_plot
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

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
