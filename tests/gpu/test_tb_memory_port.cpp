#define BOOST_TEST_MODULE tb_memory_port
#include <boost/test/unit_test.hpp>

#include <numeric>

#include "func/address_space.h"
#include "func/global_memory.h"
#include "gpu/foreign_memories.h"
#include "gpu/memory_port.h"
#include "mem/backing_memory.h"
#include "util/error.h"

// GlobalMemory over the GPU's memory port, against our BackingMemory (DMI
// per page), a memory that only answers debug transport, one that grants
// DMI for its whole range and later relocates it, and one whose grants are
// smaller than a page. The same host operations on each must leave the same
// bytes as our own pages, and the bytes must sit in the target. A probe
// also drives BackingMemory's b_transport, DMI and debug transport directly.
namespace {

using namespace simt;
constexpr uint64_t kBase = func::kGlobalHeapBase;
constexpr uint64_t kSize = 1 << 20;

struct Probe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Probe> socket{"socket"};
  SC_HAS_PROCESS(Probe);
  explicit Probe(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  bool ran = false;
  void run() {
    const uint64_t a = kBase + 0x10000 - 4;  // straddles two pages
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tlm::tlm_generic_payload gp;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(a);
    gp.set_data_ptr(data);
    gp.set_data_length(8);
    gp.set_streaming_width(8);
    socket->b_transport(gp, delay);
    BOOST_TEST(gp.is_response_ok());
    BOOST_TEST(delay == sc_core::sc_time(5, sc_core::SC_NS));
    // Byte enables: only lanes 0 and 2 of every 4 bytes are written.
    uint8_t ones[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    uint8_t be[4] = {0xff, 0, 0xff, 0};
    gp.set_data_ptr(ones);
    gp.set_byte_enable_ptr(be);
    gp.set_byte_enable_length(4);
    socket->b_transport(gp, delay);
    BOOST_TEST(gp.is_response_ok());
    // Read back by debug transport.
    uint8_t back[8] = {};
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_ptr(back);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_byte_enable_length(0);
    BOOST_TEST(socket->transport_dbg(gp) == 8u);
    const uint8_t want[8] = {9, 2, 9, 4, 9, 6, 9, 8};
    BOOST_TEST(std::equal(back, back + 8, want));
    // DMI: one 64 KiB read/write page holding the same bytes.
    tlm::tlm_dmi dmi;
    gp.set_address(a + 6);
    BOOST_TEST(socket->get_direct_mem_ptr(gp, dmi));
    BOOST_TEST(dmi.get_start_address() == kBase + 0x10000);
    BOOST_TEST(dmi.get_end_address() == kBase + 0x1ffff);
    BOOST_TEST(dmi.is_read_write_allowed());
    BOOST_TEST(dmi.get_dmi_ptr()[0] == 9);
    BOOST_TEST(dmi.get_dmi_ptr()[1] == 6 + 0);  // byte a+5 was not enabled: still 6
    // Streaming is refused.
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(a);
    gp.set_streaming_width(4);
    socket->b_transport(gp, delay);
    BOOST_TEST(gp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
    // Width 0 (left unset, as many CPU models do) and a width over the
    // length are no streaming.
    for (unsigned width : {0u, 16u}) {
      uint8_t again[8] = {};
      gp.set_data_ptr(again);
      gp.set_streaming_width(width);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      socket->b_transport(gp, delay);
      BOOST_TEST(gp.is_response_ok(), "streaming width " << width);
      BOOST_TEST(std::equal(again, again + 8, want));
    }
    ran = true;
  }
};

// The host operations every memory goes through, before and after the start
// of simulation. Returns the addresses it allocated.
std::vector<uint64_t> before_start(func::GlobalMemory& m) {
  std::vector<uint64_t> a;
  a.push_back(m.allocate(1000));
  a.push_back(m.allocate(200000));  // spans pages
  std::vector<uint32_t> v(1000 / 4);
  std::iota(v.begin(), v.end(), 7u);
  m.write(a[0], v.data(), 1000);
  for (uint64_t off = 0; off < 200000; off += 4096) m.store<uint64_t>(a[1] + off, off * 31 + 1);
  return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(global_memory_lives_in_the_bound_target) {
  stats::Registry reg;
  mem::BackingMemory backing("backing", reg, "backing");
  mem::BackingMemory probed("probed", reg, "probed", sc_core::sc_time(5, sc_core::SC_NS));
  test::DebugOnlyMemory dbg("dbg", kBase, kSize, 0xab);
  test::DmiMemory dmi("dmi", kBase, kSize, 0xab);
  test::DmiMemory small("small", kBase, kSize, 0xab, 4096);
  gpu::MemoryPort pa("pa", reg, "pa"), pb("pb", reg, "pb"), pc("pc", reg, "pc"), pd("pd", reg, "pd");
  Probe probe("probe");
  pa.socket.bind(backing.socket);
  pb.socket.bind(dbg.socket);
  pc.socket.bind(dmi.socket);
  pd.socket.bind(small.socket);
  probe.socket.bind(probed.socket);

  func::GlobalMemory ref, ma, mb, mc, md;
  func::GlobalMemory* over_tlm[] = {&ma, &mb, &mc, &md};
  pa.serve(ma);
  pb.serve(mb);
  pc.serve(mc);
  pd.serve(md);
  const std::vector<uint64_t> addrs = before_start(ref);
  for (auto* m : over_tlm) BOOST_TEST((before_start(*m) == addrs));
  // Until simulation starts, the bytes stay in our own pages.
  for (auto* m : over_tlm) BOOST_TEST(m->uses_own_storage());
  BOOST_TEST(dbg.peek<uint8_t>(addrs[0]) == 0xab);

  sc_core::sc_start();
  BOOST_TEST(probe.ran);
  const uint64_t direct_b = mb.direct_accesses(), direct_c = mc.direct_accesses();

  // Migrated at the start of simulation: same contents, now in the targets.
  for (auto* m : over_tlm) {
    BOOST_TEST(!m->uses_own_storage());
    BOOST_TEST(m->checksum() == ref.checksum());
  }
  BOOST_TEST(dbg.peek<uint32_t>(addrs[0] + 8) == 9u);
  BOOST_TEST(dmi.peek<uint32_t>(addrs[0] + 8) == 9u);
  BOOST_TEST(small.peek<uint64_t>(addrs[1] + 4096 * 20) == 4096u * 20 * 31 + 1);
  BOOST_TEST(dbg.peek<uint8_t>(addrs[0] + 1000) == 0xab);  // the gap after an allocation: untouched

  // A new allocation reads zero although the platform memory held garbage.
  const uint64_t z = ref.allocate(3000);
  for (auto* m : over_tlm) {
    BOOST_TEST(m->allocate(3000) == z);
    BOOST_TEST(m->load<uint64_t>(z + 2000) == 0u);
  }
  BOOST_TEST(dbg.peek<uint64_t>(z + 8) == 0u);

  // Host writes and reads after the switch, across a page boundary.
  const uint64_t edge = (addrs[1] | 0xffff) + 1 - 6;
  const uint8_t pattern[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  ref.write(edge, pattern, 12);
  for (auto* m : over_tlm) {
    m->write(edge, pattern, 12);
    uint8_t back[12] = {};
    m->read(edge, back, 12);
    BOOST_TEST(std::equal(back, back + 12, pattern));
    BOOST_TEST(m->checksum() == ref.checksum());
  }
  BOOST_TEST(dbg.peek<uint8_t>(edge + 7) == 8);
  BOOST_TEST(small.peek<uint8_t>(edge + 7) == 8);

  // How each got there: DMI for ours and the whole-range grant, debug
  // transport where DMI was refused or covers less than a page.
  BOOST_TEST(reg.value("pa.dmi_grants") > 0u);
  BOOST_TEST(reg.value("pa.debug_reads") + reg.value("pa.debug_writes") == 0u);
  BOOST_TEST(reg.value("backing.debug_bytes") == 0u);
  BOOST_TEST(backing.pages() == 4u);  // 1000 + 200000 + 3000 bytes from kBase: pages 0..3
  BOOST_TEST(reg.value("pb.dmi_refusals") > 0u);
  BOOST_TEST(reg.value("pb.debug_writes") > 0u);
  BOOST_TEST(reg.value("pb.dmi_grants") == 0u);
  BOOST_TEST(reg.value("pc.dmi_grants") == 1u);  // one grant serves every page
  BOOST_TEST(dmi.dmi_grants == 1u);
  BOOST_TEST(reg.value("pc.debug_reads") + reg.value("pc.debug_writes") == 0u);
  BOOST_TEST(reg.value("pd.dmi_grants") == 0u);
  BOOST_TEST(reg.value("pd.debug_writes") > 0u);
  // What GlobalMemory served through a direct pointer, against the slow path.
  BOOST_TEST(mb.direct_accesses() == direct_b);  // refused everywhere: nothing direct since the start
  BOOST_TEST(mc.direct_accesses() > direct_c);

  // The platform relocates its memory: the old pointer must not be used.
  dmi.remap();
  BOOST_TEST(reg.value("pc.dmi_invalidations") == 1u);
  BOOST_TEST(mc.checksum() == ref.checksum());  // read through the new grant
  BOOST_TEST(dmi.dmi_grants == 2u);
  ref.store<uint32_t>(addrs[0] + 40, 0xdeadbeef);
  mc.store<uint32_t>(addrs[0] + 40, 0xdeadbeef);
  BOOST_TEST(dmi.peek<uint32_t>(addrs[0] + 40) == 0xdeadbeefu);
  BOOST_TEST(dmi.first[addrs[0] + 40 - kBase] == 0x5a);  // the old buffer saw nothing
  BOOST_TEST(mc.checksum() == ref.checksum());

  // A target with nothing at an address is an error, not silent zeros.
  BOOST_CHECK_THROW(mb.store<uint32_t>(kBase + 2 * kSize, 1), Error);
  BOOST_CHECK_THROW(mc.load<uint32_t>(kBase + 2 * kSize), Error);
  BOOST_TEST(ma.load<uint32_t>(kBase + 2 * kSize) == 0u);  // ours is sparse over every address
}
