// For the issue-policy tests: IssuePolicy::pick_incremental(), told of every
// inserted or removed entry and changed long_wait flag (on_offer_changed),
// must pick exactly what pick() picks on the same lists. Two instances run
// side by side over random cycles: lists that keep their warps and flags for
// a while (only `ready` and the active-thread count move), then lose or gain
// a warp or flip a flag, with long-latency hooks and warps leaving and
// coming back in between. Two-level policies must also keep the same sets.
#pragma once

#include <random>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "sm/issue_policy.h"
#include "sm/two_level_policy.h"
#include "util/bit_set.h"

namespace simt::test {

inline void check_incremental_pick(sm::IssuePolicy& plain, sm::IssuePolicy& inc, const std::string& name,
                                   uint32_t warps = 10, uint64_t cycles = 6000) {
  using sm::WarpCandidate;
  for (uint32_t w = 0; w < warps; ++w) {
    plain.on_warp_added(w, w);
    inc.on_warp_added(w, w);
  }
  std::mt19937 rng(99);
  std::vector<bool> listed(warps, true), waits(warps, false), asleep(warps, false), present(warps, true);
  uint64_t quiet = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    const uint32_t w = rng() % warps, r = rng() % 20;
    if (r == 0 && present[w]) {
      listed[w] = !listed[w];
      inc.on_offer_changed(w, true);
    } else if (r == 1 && listed[w]) {
      waits[w] = !waits[w];
      inc.on_offer_changed(w, false);
    } else if (r == 2 && present[w] && !asleep[w]) {
      asleep[w] = true;
      plain.on_long_latency(w);
      inc.on_long_latency(w);
    } else if (r == 3 && present[w] && asleep[w]) {
      asleep[w] = false;
      plain.on_wakeup(w);
      inc.on_wakeup(w);
    } else if (r == 4) {  // the warp exits (its entry goes), or a new one starts in its slot
      if (present[w]) {
        plain.on_warp_removed(w);
        inc.on_warp_removed(w);
        if (listed[w]) inc.on_offer_changed(w, true);
        listed[w] = waits[w] = asleep[w] = present[w] = false;
      } else {
        plain.on_warp_added(w, t);
        inc.on_warp_added(w, t);
        present[w] = true;
      }
    } else {
      ++quiet;
    }
    std::vector<WarpCandidate> c;
    util::BitSet in_list(warps), ready(warps), long_wait(warps);
    for (uint32_t x = 0; x < warps; ++x)
      if (listed[x]) {
        WarpCandidate k;
        k.warp = x;
        k.age = x;
        k.ready = rng() % 3 != 0;
        k.cls = rng() % 2 ? ptx::InstrClass::Int : ptx::InstrClass::Fp;
        k.priority = rng() % 40;  // e.g. active threads (Origami's groups)
        k.long_wait = waits[x];
        c.push_back(k);
        in_list.set(x);
        if (k.ready) ready.set(x);
        if (k.long_wait) long_wait.set(x);
      }
    const int a = plain.pick(c, t), b = inc.pick_incremental(c, {in_list, ready, long_wait}, t);
    BOOST_REQUIRE_MESSAGE(a == b, name << " at cycle " << t << ": pick " << a << ", pick_incremental " << b);
    if (a >= 0) {
      plain.on_issue(c[a].warp, c[a].cls, t);
      inc.on_issue(c[b].warp, c[b].cls, t);
    }
    if (auto* tl = dynamic_cast<sm::TwoLevelPolicy*>(&plain)) {
      auto* ti = dynamic_cast<sm::TwoLevelPolicy*>(&inc);
      BOOST_REQUIRE(tl->active() == ti->active());
      BOOST_REQUIRE(tl->pending() == ti->pending());
    }
  }
  BOOST_TEST(quiet > cycles * 2 / 3, name << ": most cycles should change nothing but `ready`");
}

}  // namespace simt::test
