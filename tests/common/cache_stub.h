// A testbench stand-in for a cache or memory behind a MemRequester port:
// answers every request `latency` cycles after it took it (plus `slow_extra`
// for requests to `slow_addr`), takes none in [stall_from, stall_to), and
// remembers what it saw. Clocked every cycle: a stub, not a model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "mem/mem_port.h"
#include "util/cycle.h"

namespace simt::test {

struct Seen {
  mem::MemRequest req;
  uint64_t cycle;     // popped by the stub
  uint64_t answered;  // respond() called
};

struct CacheStub : sc_core::sc_module {
  mem::MemResponder port;
  uint32_t latency;
  std::vector<Seen> seen;
  std::vector<std::pair<uint64_t, size_t>> due;  // (cycle, index into seen)
  uint64_t stall_from = UINT64_MAX, stall_to = 0;
  uint64_t slow_addr = UINT64_MAX, slow_extra = 0;

  CacheStub(sc_core::sc_module_name n, uint32_t lat, uint32_t capacity = 4)
      : sc_module(n), port("port", capacity), latency(lat) {
    SC_METHOD(tick);
  }
  SC_HAS_PROCESS(CacheStub);

  void tick() {
    const uint64_t now = util::now_cycle();
    if (now < stall_from || now >= stall_to) {
      mem::MemRequest r;
      while (port.pop_request(r)) {
        seen.push_back({r, now, 0});
        due.push_back({now + latency + (r.addr == slow_addr ? slow_extra : 0), seen.size() - 1});
      }
    }
    for (size_t i = 0; i < due.size();) {
      if (due[i].first <= now) {
        Seen& s = seen[due[i].second];
        s.answered = now;
        port.respond(s.req);
        due.erase(due.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    next_trigger(util::cycle_time());
  }

  std::vector<const Seen*> in_range(uint64_t lo, uint64_t hi) const {
    std::vector<const Seen*> v;
    for (const Seen& s : seen)
      if (s.req.addr >= lo && s.req.addr < hi) v.push_back(&s);
    return v;
  }
  uint64_t last_answer(uint64_t lo, uint64_t hi) const {
    uint64_t m = 0;
    for (const Seen* s : in_range(lo, hi)) m = std::max(m, s->answered);
    return m;
  }
};

}  // namespace simt::test
