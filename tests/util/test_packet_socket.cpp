#define BOOST_TEST_MODULE packet_socket
#include <boost/test/unit_test.hpp>

#include "util/packet_socket.h"

// A SystemC testbench of its own (one elaboration per process).
namespace {

struct Credit {
  uint32_t warp = 0;
  bool accepted = false;
};

struct Sender : sc_core::sc_module {
  simt::util::PacketInitiator<Sender, Credit> out{"out"};
  std::vector<bool> results;
  SC_CTOR(Sender) { SC_THREAD(run); }
  void run() {
    for (uint32_t w = 0; w < 4; ++w) {
      Credit c;
      c.warp = w;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      out->b_transport(c, t);
      results.push_back(c.accepted);
      wait(1, sc_core::SC_NS);
    }
  }
};

struct Receiver : sc_core::sc_module {
  simt::util::PacketTarget<Receiver, Credit> in{"in", this, &Receiver::receive};
  std::vector<uint32_t> got;
  SC_CTOR(Receiver) {}
  void receive(Credit& c, sc_core::sc_time&) {
    if (got.size() >= 2) return;  // queue full: refuse (backpressure)
    got.push_back(c.warp);
    c.accepted = true;
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(typed_packets_cross_a_tlm_socket_with_backpressure) {
  Sender s("sender");
  Receiver r("receiver");
  s.out.bind(r.in);
  sc_core::sc_start(10, sc_core::SC_NS);
  BOOST_TEST(r.got == (std::vector<uint32_t>{0, 1}));
  BOOST_TEST(s.results == (std::vector<bool>{true, true, false, false}));
}
