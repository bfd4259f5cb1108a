// For the LDST unit's test benches: an issue stub that offers a script of
// instructions at fixed cycles (each one every cycle until accepted, then one
// instruction per cycle) and takes their write-backs, one per instruction;
// it can refuse write-backs for a window of cycles (backpressure).
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <vector>

#include <systemc>

#include "sm/packets.h"
#include "util/cycle.h"
#include "util/packet_socket.h"

namespace simt::test {

struct Step {
  uint64_t cycle;  // earliest cycle to offer it (then every cycle until accepted)
  sm::IssuePacket pkt;
};

struct IssueStub : sc_core::sc_module {
  util::PacketInitiator<IssueStub, sm::IssuePacket> out{"out"};
  util::PacketTarget<IssueStub, sm::WritebackPacket> wb{"wb", this, &IssueStub::on_writeback};
  std::vector<Step> script;
  std::map<uint32_t, uint64_t> accepted_at, refusals, written_back_at, wb_long;
  uint64_t refuse_wb_from = UINT64_MAX, refuse_wb_to = 0;  // refuse write-backs in [from, to)
  uint64_t wb_refused = 0;

  SC_CTOR(IssueStub) { SC_THREAD(run); }

  void run() {
    for (Step& s : script) {
      const uint64_t now = util::now_cycle();
      if (s.cycle > now) wait(util::cycles(s.cycle - now));
      for (;;) {
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        s.pkt.accepted = false;
        out->b_transport(s.pkt, t);
        if (s.pkt.accepted) break;
        ++refusals[s.pkt.warp];
        wait(util::cycle_time());
      }
      accepted_at[s.pkt.warp] = util::now_cycle();
      wait(util::cycle_time());  // one instruction per cycle
    }
  }
  void on_writeback(sm::WritebackPacket& p, sc_core::sc_time&) {
    const uint64_t now = util::now_cycle();
    if (now >= refuse_wb_from && now < refuse_wb_to) {
      ++wb_refused;
      return;
    }
    BOOST_TEST(written_back_at.count(p.warp) == 0u);  // exactly one write-back per instruction
    written_back_at[p.warp] = now;
    wb_long[p.warp] = p.long_latency;
    p.accepted = true;
  }
};

}  // namespace simt::test
