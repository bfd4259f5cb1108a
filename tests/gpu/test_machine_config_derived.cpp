#define BOOST_TEST_MODULE machine_config_derived
// Values of the MachineConfig that follow other parameters (issue 8, items
// 10 and 12): a derived value the user sets is honoured when it agrees and
// refused, naming what it follows, when it does not; never silently replaced.
// sm.max_warps follows sm.max_threads / sm.warp_size unless the user sets it.
#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "util/error.h"

using simt::gpu::MachineConfig;

namespace {

// A machine with `sets` applied as --set would, then finalized; returns the
// error text ("" when finalize accepted it).
std::string configure(MachineConfig& m, const std::vector<std::pair<std::string, std::string>>& sets) {
  simt::config::ParamRegistry r;
  m.bind(r);
  try {
    for (const auto& [k, v] : sets) r.set(k, v, "--set");
    m.finalize();
  } catch (const simt::Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(simt::ExitCode::BadInput));
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(crossbar_partitions_that_differ_from_dram_channels_are_refused) {
  MachineConfig m;
  const std::string err = configure(m, {{"xbar.partitions", "3"}});
  BOOST_TEST(has(err, "xbar.partitions"), err);
  BOOST_TEST(has(err, "dram.channels"), err);
}

BOOST_AUTO_TEST_CASE(crossbar_follows_dram_when_only_dram_is_set) {
  MachineConfig m;
  BOOST_TEST(configure(m, {{"dram.channels", "6"}, {"dram.interleave", "512"}}) == "");
  BOOST_TEST(m.xbar.partitions == 6u);
  BOOST_TEST(m.xbar.interleave == 512u);
}

BOOST_AUTO_TEST_CASE(a_derived_value_equal_to_what_it_follows_is_accepted) {
  MachineConfig m;
  BOOST_TEST(configure(m, {{"dram.channels", "6"}, {"xbar.partitions", "6"}}) == "");
  BOOST_TEST(m.xbar.partitions == 6u);
}

BOOST_AUTO_TEST_CASE(crossbar_interleave_that_differs_from_dram_is_refused) {
  MachineConfig m;
  const std::string err = configure(m, {{"xbar.interleave", "1024"}});
  BOOST_TEST(has(err, "xbar.interleave"), err);
  BOOST_TEST(has(err, "dram.interleave"), err);
}

BOOST_AUTO_TEST_CASE(ldst_line_that_differs_from_the_l1d_line_is_refused) {
  MachineConfig m;
  const std::string err = configure(m, {{"ldst.line", "32"}});
  BOOST_TEST(has(err, "ldst.line"), err);
  BOOST_TEST(has(err, "l1d.line"), err);
}

BOOST_AUTO_TEST_CASE(a_bad_l1d_line_is_reported_against_l1d_line) {
  MachineConfig m;
  const std::string err = configure(m, {{"l1d.line", "96"}});
  BOOST_TEST(has(err, "l1d.line"), err);
  BOOST_TEST(!has(err, "ldst.line"), err);
}

BOOST_AUTO_TEST_CASE(a_warp_size_change_alone_resizes_the_warp_slots) {
  for (uint32_t ws : {4u, 8u, 16u, 32u, 64u}) {
    MachineConfig m;
    BOOST_TEST(configure(m, {{"sm.warp_size", std::to_string(ws)}}) == "", "warp size " << ws);
    BOOST_TEST(m.sm.issue.max_warps == 1024u / ws, "warp size " << ws);
    BOOST_TEST(uint64_t{m.sm.issue.max_warps} * ws >= m.limits.max_threads);
  }
}

BOOST_AUTO_TEST_CASE(warp_slots_follow_the_thread_limit) {
  MachineConfig m;
  BOOST_TEST(configure(m, {{"sm.max_threads", "1536"}}) == "");
  BOOST_TEST(m.sm.issue.max_warps == 48u);
}

BOOST_AUTO_TEST_CASE(warp_slots_the_user_set_are_kept_or_refused_naming_them) {
  MachineConfig m;
  BOOST_TEST(configure(m, {{"sm.max_warps", "48"}}) == "");
  BOOST_TEST(m.sm.issue.max_warps == 48u);
  MachineConfig small;
  const std::string err = configure(small, {{"sm.warp_size", "8"}, {"sm.max_warps", "32"}});
  BOOST_TEST(has(err, "sm.max_warps"), err);
  BOOST_TEST(has(err, "128"), err);  // says how many would do
}
