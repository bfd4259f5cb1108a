// The LDST unit's texture path: accesses of space Tex (the texels a tex,
// tld4 or suld reads, at their global address) are coalesced at the texture
// cache's line (l1t.line, 64 B by default) and sent as reads on the `tex`
// port, never to the L1D; an instruction writes back once both ports have
// answered all its requests. One SystemC world: an issue stub offers a
// script of instructions; stub caches answer after a fixed latency (the
// texture stub slower, so that the two paths are told apart), and a second
// unit sends its texture requests through a real L1T CacheModule.
#define BOOST_TEST_MODULE tb_ldst_texture
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "config/param_registry.h"
#include "func/address_space.h"
#include "mem/cache_module.h"
#include "sm/ldst_unit.h"
#include "sm/sm.h"
#include "common/cache_stub.h"
#include "common/ldst_issue_stub.h"
#include "util/cycle.h"
#include "util/error.h"

namespace {

using namespace simt;
using sc_core::sc_time;

constexpr uint32_t kL1dLatency = 20;
constexpr uint32_t kTexLatency = 50;
constexpr uint32_t kSm = 2;
constexpr uint64_t G = func::kGlobalHeapBase;


using test::IssueStub;
using test::Step;

using test::CacheStub;
using test::Seen;

sm::IssuePacket load(uint32_t warp) {
  sm::IssuePacket p;
  p.warp = warp;
  p.is_load = true;
  p.long_latency = true;
  p.cta_threads = 64;
  p.active_lanes = 32;
  return p;
}

// 32 threads each reading one 4-byte texel, consecutive from `base`.
sm::IssuePacket texels(uint32_t warp, uint64_t base) {
  sm::IssuePacket p = load(warp);
  for (uint32_t t = 0; t < 32; ++t) p.accesses.push_back(func::MemAccess{t, ptx::Space::Tex, 4, base + t * 4});
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(texture_cache_parameters_bind_under_l1t) {
  sm::SmParams sp;
  config::ParamRegistry r;
  sp.bind(r);
  for (const char* name : {"l1t.size", "l1t.line", "l1t.assoc", "l1t.hit_latency", "l1t.mshrs", "l1t.mshr_merge",
                           "l1t.write_policy", "l1t.replacement", "l1t.ports", "l1t.in_queue", "l1t.down_queue",
                           "l1t.atomics"})
    BOOST_TEST(r.has(name), name);
  // Seed 001 Table 2: 32 KB per core, 64 B lines, 16-way; read-only, so a
  // policy that never allocates on a write.
  BOOST_TEST(sp.l1t.size == 32768u);
  BOOST_TEST(sp.l1t.line == 64u);
  BOOST_TEST(sp.l1t.assoc == 16u);
  BOOST_TEST(sp.l1t.write_policy == "write-through");
  BOOST_TEST(sp.ldst_unit_params().tex_line == 64u);
  BOOST_TEST(sp.ldst_unit_params().line == sp.ldst.line);
  BOOST_CHECK_NO_THROW(sp.validate());
  r.set("l1t.line", "128", "test");
  r.set("l1t.size", "65536", "test");
  BOOST_TEST(sp.ldst_unit_params().tex_line == 128u);
  BOOST_CHECK_NO_THROW(sp.validate());

  // Bad values name the l1t option, as for l1d.
  auto refused = [](const sm::SmParams& p, const std::string& option) {
    try {
      p.validate();
    } catch (const simt::Error& e) {
      BOOST_TEST(std::string(e.what()).find("option " + option + ":") != std::string::npos, e.what());
      return;
    }
    BOOST_ERROR("no error for " << option);
  };
  sm::SmParams bad;
  bad.l1t.size = 1000;
  refused(bad, "l1t.size");
  bad = sm::SmParams();
  bad.l1t.line = 48;
  refused(bad, "l1t.line");
  bad = sm::SmParams();
  bad.l1t.line = 8192;  // a valid cache, but wider than the LDST unit coalesces
  bad.l1t.size = 8192 * 16;
  refused(bad, "l1t.line");
  bad = sm::SmParams();
  bad.l1t.write_policy = "write-sometimes";
  refused(bad, "l1t.write_policy");
  bad = sm::SmParams();
  bad.l1t_port.in_queue = 0;
  refused(bad, "l1t.in_queue");
}

BOOST_AUTO_TEST_CASE(texture_requests_go_to_the_texture_port) {
  stats::Registry st;
  sm::SmParams sp;  // l1t: 64 B lines
  const sm::LdstParams lp = sp.ldst_unit_params();
  sm::LdstUnit ldst("ldst", lp, st, "sm2.ldst", kSm);
  IssueStub issue("issue");
  CacheStub l1d("l1d", kL1dLatency);
  CacheStub tex("tex", kTexLatency);
  issue.out.bind(ldst.in);
  ldst.writeback.bind(issue.wb);
  ldst.l1d.socket.bind(l1d.port.socket);
  ldst.tex.socket.bind(tex.port.socket);

  // A second unit whose texture port reaches a real L1T, which fetches
  // its lines from a stub below it.
  stats::Registry st2;
  sm::LdstUnit ldst2("ldst2", lp, st2, "sm0.ldst", 0);
  IssueStub issue2("issue2");
  CacheStub l1d2("l1d2", kL1dLatency);
  mem::CacheModule l1t("l1t", sp.l1t, sp.l1t_port, st2, "sm0.l1t");
  CacheStub below("below", 100);
  issue2.out.bind(ldst2.in);
  ldst2.writeback.bind(issue2.wb);
  ldst2.l1d.socket.bind(l1d2.port.socket);
  ldst2.tex.socket.bind(l1t.up.socket);
  l1t.down.socket.bind(below.port.socket);

  auto& S = issue.script;
  // 1: 32 consecutive 4-byte texels = 128 bytes = two 64-byte lines.
  S.push_back({10, texels(1, G)});
  // 2: bilinear filtering, four texels per thread: (x, y), (x+1, y),
  // (x, y+1), (x+1, y+1) of a 4-byte texture with 1024-byte rows, x = 2t.
  std::set<uint64_t> bilinear_lines;
  {
    sm::IssuePacket p = load(2);
    const uint64_t base = G + 0x10000, pitch = 1024;
    for (uint32_t t = 0; t < 32; ++t)
      for (uint64_t a : {base + 8 * t, base + 8 * t + 4, base + pitch + 8 * t, base + pitch + 8 * t + 4}) {
        p.accesses.push_back(func::MemAccess{t, ptx::Space::Tex, 4, a});
        bilinear_lines.insert(a & ~uint64_t{63});
      }
    S.push_back({200, p});
  }
  // 3: mixed, as a store: threads 0-15 write global words (one L1D line,
  // a write), threads 16-31 read texels (one texture line, a read, slow).
  {
    sm::IssuePacket p = load(3);
    p.is_load = false;
    p.is_store = true;
    p.long_latency = false;
    for (uint32_t t = 0; t < 16; ++t)
      p.accesses.push_back(func::MemAccess{t, ptx::Space::Global, 4, G + 0x20000 + t * 4});
    for (uint32_t t = 16; t < 32; ++t)
      p.accesses.push_back(func::MemAccess{t, ptx::Space::Tex, 4, G + 0x30000 + (t - 16) * 4});
    S.push_back({400, p});
    tex.slow_addr = G + 0x30000;
    tex.slow_extra = 100;
  }
  // 4: mixed the other way round: the L1D request is the slow one.
  {
    sm::IssuePacket p = texels(4, G + 0x40000);
    for (uint32_t t = 0; t < 32; ++t)
      p.accesses.push_back(func::MemAccess{t, ptx::Space::Global, 4, G + 0x50000 + t * 4});
    S.push_back({700, p});
    l1d.slow_addr = G + 0x50000;
    l1d.slow_extra = 100;
  }
  // 5: 32 texels 64 bytes apart (32 lines) into a texture cache that stops
  // taking requests for 100 cycles: the unit waits, counting tex stalls.
  {
    sm::IssuePacket p = load(5);
    for (uint32_t t = 0; t < 32; ++t)
      p.accesses.push_back(func::MemAccess{t, ptx::Space::Tex, 4, G + 0x60000 + t * 64});
    S.push_back({1000, p});
    tex.stall_from = 1000;
    tex.stall_to = 1100;
  }
  // Through the real L1T: the same 64 texels twice; the second instruction hits.
  issue2.script.push_back({10, texels(1, G)});
  issue2.script.push_back({400, texels(2, G)});

  sc_core::sc_start(util::cycles(2000));

  for (uint32_t w = 1; w <= 5; ++w) BOOST_TEST(issue.written_back_at.count(w) == 1u, "warp " << w);
  auto wb = [&](uint32_t w) { return issue.written_back_at.at(w); };
  auto acc = [&](uint32_t w) { return issue.accepted_at.at(w); };

  // 1: two 64-byte reads on the texture port, one a cycle; nothing to the L1D.
  const auto r1 = tex.in_range(G, G + 0x10000);
  BOOST_TEST_REQUIRE(r1.size() == 2u);
  BOOST_TEST(r1[0]->req.addr == G);
  BOOST_TEST(r1[1]->req.addr == G + 64);
  for (const Seen* s : r1) {
    BOOST_TEST(s->req.bytes == 64u);
    BOOST_TEST(!s->req.write);
    BOOST_TEST(!s->req.atomic);
    BOOST_TEST(s->req.source == kSm);
  }
  BOOST_TEST(r1[1]->cycle - r1[0]->cycle == 1u);
  BOOST_TEST(l1d.in_range(G, G + 0x10000).empty());
  // Written back only once both lines were answered, a texture round trip later.
  BOOST_TEST(wb(1) >= tex.last_answer(G, G + 0x10000));
  BOOST_TEST(wb(1) - acc(1) >= kTexLatency + 3);
  BOOST_TEST(wb(1) - acc(1) <= kTexLatency + 7);

  // 2: one request per distinct 64-byte line of the four texels per thread.
  const auto r2 = tex.in_range(G + 0x10000, G + 0x20000);
  BOOST_TEST(r2.size() == bilinear_lines.size());
  BOOST_TEST(bilinear_lines.size() == 8u);  // 256 bytes of two rows
  for (const Seen* s : r2) BOOST_TEST(bilinear_lines.count(s->req.addr) == 1u);
  BOOST_TEST(wb(2) >= tex.last_answer(G + 0x10000, G + 0x20000));

  // 3: the global words go to the L1D as a write, the texels to the
  // texture cache as a read; the write-back waits for the slow texture line.
  const auto w3 = l1d.in_range(G + 0x20000, G + 0x30000);
  const auto t3 = tex.in_range(G + 0x30000, G + 0x40000);
  BOOST_TEST_REQUIRE(w3.size() == 1u);
  BOOST_TEST_REQUIRE(t3.size() == 1u);
  BOOST_TEST(w3[0]->req.write);
  BOOST_TEST(w3[0]->req.bytes == 64u);
  BOOST_TEST(!t3[0]->req.write);
  BOOST_TEST(t3[0]->req.bytes == 64u);
  BOOST_TEST(w3[0]->answered < t3[0]->answered);
  BOOST_TEST(wb(3) >= t3[0]->answered);
  BOOST_TEST(wb(3) - acc(3) >= kTexLatency + 100);

  // 4: two texture lines and one L1D line; the slow L1D line decides.
  const auto t4 = tex.in_range(G + 0x40000, G + 0x50000);
  const auto l4 = l1d.in_range(G + 0x50000, G + 0x60000);
  BOOST_TEST(t4.size() == 2u);
  BOOST_TEST_REQUIRE(l4.size() == 1u);
  BOOST_TEST(!l4[0]->req.write);
  BOOST_TEST(l4[0]->req.bytes == 128u);
  BOOST_TEST(tex.last_answer(G + 0x40000, G + 0x50000) < l4[0]->answered);
  BOOST_TEST(wb(4) >= l4[0]->answered);

  // 5: backpressure on the texture port: 4 held + 1 offered before the
  // stall, the rest after; the stalls are the texture port's.
  const auto t5 = tex.in_range(G + 0x60000, G + 0x70000);
  BOOST_TEST(t5.size() == 32u);
  BOOST_TEST(st.value("sm2.ldst.tex_stall_cycles") >= 90u);
  BOOST_TEST(st.value("sm2.ldst.mem_pipeline_stall_cycles") == 0u);
  BOOST_TEST(wb(5) >= 1100 + 26 + kTexLatency);
  BOOST_TEST(wb(5) >= tex.last_answer(G + 0x60000, G + 0x70000));

  // Counters: requests counts the L1D's, tex_requests the texture cache's.
  BOOST_TEST(st.value("sm2.ldst.instructions") == 5u);
  BOOST_TEST(st.value("sm2.ldst.requests") == l1d.seen.size());
  BOOST_TEST(st.value("sm2.ldst.tex_requests") == tex.seen.size());
  BOOST_TEST(l1d.seen.size() == 2u);
  BOOST_TEST(tex.seen.size() == 2u + 8 + 1 + 2 + 32);
  BOOST_TEST(st.value("sm2.ldst.coalescer.requests") == l1d.seen.size() + tex.seen.size());
  BOOST_TEST(ldst.in_flight() == 0u);
  BOOST_TEST(ldst.tex.outstanding() == 0u);

  // The real L1T: two misses (the lines fetched from below at 64 bytes),
  // then two hits; the L1D saw nothing.
  BOOST_TEST(issue2.written_back_at.count(1) == 1u);
  BOOST_TEST(issue2.written_back_at.count(2) == 1u);
  BOOST_TEST(st2.value("sm0.l1t.accesses") == 4u);
  BOOST_TEST(st2.value("sm0.l1t.misses") == 2u);
  BOOST_TEST(st2.value("sm0.l1t.hits") == 2u);
  BOOST_TEST(st2.value("sm0.ldst.tex_requests") == 4u);
  BOOST_TEST(st2.value("sm0.ldst.requests") == 0u);
  BOOST_TEST(l1d2.seen.empty());
  BOOST_TEST_REQUIRE(below.seen.size() == 2u);
  for (const Seen& s : below.seen) {
    BOOST_TEST(s.req.bytes == 64u);
    BOOST_TEST(!s.req.write);
  }
  const uint64_t miss_latency = issue2.written_back_at.at(1) - issue2.accepted_at.at(1);
  const uint64_t hit_latency = issue2.written_back_at.at(2) - issue2.accepted_at.at(2);
  BOOST_TEST(hit_latency + 100 <= miss_latency);
}
