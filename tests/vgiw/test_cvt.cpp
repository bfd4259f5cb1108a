// The control vector table: formatted per kernel, ORs returned batches into
// a block's vector, reads words and clears them (read-and-reset), and
// serves one read and one write per bank a cycle: a second access to a
// busy port in the same cycle is refused and counted as a bank conflict.
#define BOOST_TEST_MODULE vgiw_cvt
#include <boost/test/unit_test.hpp>

#include <systemc>

#include "stats/stats.h"
#include "util/cycle.h"
#include "util/packet_socket.h"
#include "vgiw/cvt.h"

using namespace simt;
using vgiw::CvtAccess;

namespace {

struct Driver : sc_core::sc_module {
  util::PacketInitiator<Driver, CvtAccess> out{"out"};
  SC_CTOR(Driver) {}
  CvtAccess access(CvtAccess::Kind k, uint32_t block, uint32_t word, uint64_t bits = 0) {
    CvtAccess a = CvtAccess::make(k, block, word, bits);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(a, t);
    return a;
  }
};

struct Bench {
  stats::Registry reg;
  vgiw::Cvt cvt{"cvt", 1024, 8, reg, "sm0.cvt"};  // 8 Kbit, 8 banks
  Driver drv{"drv"};
  Bench() { drv.out.bind(cvt.in); }
};
Bench& bench() {
  static Bench b;
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(read_and_reset_or_and_bank_conflicts) {
  Bench& b = bench();
  Driver& d = b.drv;
  // 4 blocks x 32 words = 8192 bits: exactly the capacity.
  BOOST_TEST(d.access(CvtAccess::Format, 4, 32).accepted);
  // Cycle 0: OR into block 2, word 3 (bank 3); a second write to bank 3 is a conflict.
  BOOST_TEST(d.access(CvtAccess::Or, 2, 3, 0x0f).accepted);
  BOOST_TEST(!d.access(CvtAccess::Or, 2, 11, 0x1).accepted);  // word 11: bank 3 again
  BOOST_TEST(d.access(CvtAccess::Or, 2, 4, 0x1).accepted);    // bank 4: free
  // The read port is separate: reading bank 3 in the same cycle is fine.
  CvtAccess r = d.access(CvtAccess::ReadReset, 1, 3);
  BOOST_TEST(r.accepted);
  BOOST_TEST(r.bits == 0u);
  BOOST_TEST(!d.access(CvtAccess::ReadReset, 2, 3).accepted);  // bank 3's read port: used
  sc_core::sc_start(util::cycles(1));
  // Cycle 1: ORs accumulate (a block reached by two control flows), a read resets.
  BOOST_TEST(d.access(CvtAccess::Or, 2, 3, 0xf0).accepted);
  r = d.access(CvtAccess::ReadReset, 2, 3);
  BOOST_TEST(r.accepted);
  BOOST_TEST(r.bits == 0xffu);
  sc_core::sc_start(util::cycles(1));
  r = d.access(CvtAccess::ReadReset, 2, 3);
  BOOST_TEST(r.bits == 0u);  // reset by the read
  BOOST_TEST(b.reg.value("sm0.cvt.bank_conflicts") == 2u);
  BOOST_TEST(b.reg.value("sm0.cvt.writes") == 3u);
  BOOST_TEST(b.reg.value("sm0.cvt.reads") == 3u);
  BOOST_TEST(b.reg.value("sm0.cvt.threads_written") == 9u);
}
