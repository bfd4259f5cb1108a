#define BOOST_TEST_MODULE dram
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "config/param_registry.h"
#include "mem/dram.h"
#include "stats/stats.h"
#include "util/error.h"

using simt::mem::Dram;
using simt::mem::DramParams;
using simt::mem::DramRequest;

namespace {

// Small, distinct timings so that each constraint shows in the arithmetic.
DramParams small_params() {
  DramParams p;
  p.channels = 2;
  p.banks = 4;
  p.row_bytes = 1024;
  p.bytes_per_cycle = 8;
  p.queue = 8;
  p.t_cl = 5;
  p.t_rp = 6;
  p.t_rcd = 7;
  p.t_ras = 12;
  p.t_rc = 18;
  p.t_rrd = 3;
  p.latency = 10;
  p.interleave = 256;
  return p;
}

// An address of channel 0 with the given bank and row (small_params mapping).
uint64_t addr_of(const DramParams& p, uint32_t bank, uint64_t row, uint32_t offset = 0) {
  const uint64_t local = (row * p.banks + bank) * p.row_bytes + offset;
  const uint64_t chunk = (local / p.interleave) * p.channels;  // channel 0
  return chunk * p.interleave + local % p.interleave;
}

struct Arrival {
  uint64_t cycle;
  DramRequest req;
};

// Drives the DRAM: offers requests in order (a refused request waits and
// blocks the ones behind it), ticks either every cycle or only at
// next_event(), and returns each request's completion cycle.
std::map<uint64_t, uint64_t> run(Dram& d, const std::vector<Arrival>& arrivals, bool skip_idle,
                                 std::vector<uint64_t>* order = nullptr, uint64_t* last_cycle = nullptr) {
  std::map<uint64_t, uint64_t> done_at;
  std::vector<uint64_t> done;
  size_t next = 0;
  uint64_t now = 0;
  for (uint64_t guard = 0; guard < 10000000; ++guard) {
    while (next < arrivals.size() && arrivals[next].cycle <= now) {
      const DramRequest& r = arrivals[next].req;
      if (!d.can_accept(d.channel_of(r.addr))) break;
      d.accept(r, now);
      ++next;
    }
    done.clear();
    d.tick(now, done);
    for (uint64_t id : done) {
      BOOST_REQUIRE(done_at.emplace(id, now).second);
      if (order) order->push_back(id);
    }
    if (next == arrivals.size() && d.idle()) {
      if (last_cycle) *last_cycle = now;
      return done_at;
    }
    uint64_t t = now + 1;
    if (skip_idle) {
      t = d.next_event(now);
      if (next < arrivals.size()) {
        // A refused request is offered again next cycle; otherwise at its arrival.
        const uint64_t offer = arrivals[next].cycle <= now ? now + 1 : arrivals[next].cycle;
        t = std::min(t, offer);
      }
      BOOST_REQUIRE(t != Dram::kNever);
      BOOST_REQUIRE(t > now);
    }
    now = t;
  }
  BOOST_FAIL("DRAM did not drain");
  return done_at;
}

DramRequest rd(uint64_t id, uint64_t addr, uint32_t bytes = 64) { return DramRequest{id, addr, bytes, false}; }
DramRequest wr(uint64_t id, uint64_t addr, uint32_t bytes = 64) { return DramRequest{id, addr, bytes, true}; }

}  // namespace

BOOST_AUTO_TEST_CASE(address_mapping_follows_the_interleave) {
  simt::stats::Registry s;
  DramParams p;  // defaults: 8 channels, interleave 256, 8 banks, 2 KB rows
  Dram d(p, s, "dram");
  BOOST_TEST(d.channel_of(0) == 0u);
  BOOST_TEST(d.channel_of(255) == 0u);
  BOOST_TEST(d.channel_of(256) == 1u);
  BOOST_TEST(d.channel_of(7 * 256) == 7u);
  BOOST_TEST(d.channel_of(8 * 256) == 0u);
  // Channel 0's local bytes 0..2047 (chunks 0, 8, 16, ... 56) are bank 0 row 0;
  // the next 2 KB of channel 0 are bank 1, and row 1 starts after 8 banks.
  BOOST_TEST(d.decode(56 * 256 + 255).bank == 0u);
  BOOST_TEST(d.decode(64 * 256).bank == 1u);
  BOOST_TEST(d.decode(64 * 256).channel == 0u);
  BOOST_TEST(d.decode(64 * 256).row == 0u);
  BOOST_TEST(d.decode(8 * 64 * 256).bank == 0u);
  BOOST_TEST(d.decode(8 * 64 * 256).row == 1u);
  // The test helper inverts the mapping.
  const DramParams q = small_params();
  Dram e(q, s, "dram_small");
  for (uint32_t bank = 0; bank < q.banks; ++bank)
    for (uint64_t row = 0; row < 5; ++row) {
      const auto a = e.decode(addr_of(q, bank, row, 320));
      BOOST_TEST(a.channel == 0u);
      BOOST_TEST(a.bank == bank);
      BOOST_TEST(a.row == row);
    }
}

BOOST_AUTO_TEST_CASE(single_read_latency_is_activate_plus_cas_plus_transfer) {
  for (uint32_t bytes : {32u, 64u, 128u}) {
    simt::stats::Registry s;
    const DramParams p = small_params();
    Dram d(p, s, "dram");
    const auto t = run(d, {{0, rd(1, 0, bytes)}}, false);
    const uint64_t xfer = (bytes + p.bytes_per_cycle - 1) / p.bytes_per_cycle;
    BOOST_TEST(t.at(1) == p.t_rcd + p.t_cl + xfer + p.latency);
    BOOST_TEST(s.value("dram.reads") == 1u);
    BOOST_TEST(s.value("dram.writes") == 0u);
    BOOST_TEST(s.value("dram.bytes") == bytes);
    BOOST_TEST(s.value("dram.row_misses") == 1u);
    BOOST_TEST(s.value("dram.row_hits") == 0u);
    BOOST_TEST(s.value("dram.ch0.busy_cycles") == xfer);
    BOOST_TEST(s.value("dram.ch1.busy_cycles") == 0u);
  }
  // Defaults: seed 001's GDDR3 timing in core cycles (tRCD 20 + tCL 17), 64 B at 8 B/cycle, +100.
  simt::stats::Registry s;
  Dram d(DramParams{}, s, "dram");
  const auto t = run(d, {{0, rd(1, 0, 64)}}, true);
  BOOST_TEST(t.at(1) == 20u + 17u + 8u + 100u);
}

BOOST_AUTO_TEST_CASE(row_hit_is_faster_than_row_miss_and_row_conflict_is_slowest) {
  simt::stats::Registry s;
  const DramParams p = small_params();
  Dram d(p, s, "dram");
  const uint64_t T = 1000, U = 2000;
  const auto t = run(d,
                     {{0, rd(1, addr_of(p, 0, 0))},          // opens bank 0 row 0
                      {T, rd(2, addr_of(p, 0, 0, 512))},     // same row: hit
                      {U, rd(3, addr_of(p, 0, 3))}},         // bank 0, another row: conflict
                     false);
  const uint64_t xfer = 64 / p.bytes_per_cycle;
  const uint64_t miss = t.at(1) - 0, hit = t.at(2) - T, conflict = t.at(3) - U;
  BOOST_TEST(hit == p.t_cl + xfer + p.latency);
  BOOST_TEST(miss == p.t_rcd + p.t_cl + xfer + p.latency);
  BOOST_TEST(conflict == p.t_rp + p.t_rcd + p.t_cl + xfer + p.latency);
  BOOST_TEST(hit < miss);
  BOOST_TEST(miss < conflict);
  BOOST_TEST(s.value("dram.row_hits") == 1u);
  BOOST_TEST(s.value("dram.row_misses") == 2u);
}

BOOST_AUTO_TEST_CASE(bank_timing_constraints) {
  const DramParams p = small_params();
  const uint64_t xfer = 64 / p.bytes_per_cycle;
  {
    // Two banks at once: the second ACT waits t_rrd, its data waits for the bus.
    for (uint32_t rrd : {3u, 12u}) {  // bus-bound, then t_rrd-bound
      simt::stats::Registry s;
      DramParams q = p;
      q.t_rrd = rrd;
      Dram d(q, s, "dram");
      const auto t = run(d, {{0, rd(1, addr_of(q, 0, 0))}, {0, rd(2, addr_of(q, 1, 0))}}, false);
      const uint64_t first_end = q.t_rcd + q.t_cl + xfer;
      BOOST_TEST(t.at(1) == first_end + q.latency);
      const uint64_t second_start = std::max<uint64_t>(q.t_rrd + q.t_rcd + q.t_cl, first_end);
      BOOST_TEST(t.at(2) == second_start + xfer + q.latency);
    }
  }
  {
    // Same bank, two rows at once: PRE waits t_ras after ACT, the next ACT
    // waits max(t_rp after PRE, t_rc after the first ACT).
    for (uint32_t rc : {10u, 25u}) {  // t_ras + t_rp-bound, then t_rc-bound
      simt::stats::Registry s;
      DramParams q = p;
      q.t_rc = rc;
      Dram d(q, s, "dram");
      const auto t = run(d, {{0, rd(1, addr_of(q, 2, 0))}, {0, rd(2, addr_of(q, 2, 1))}}, false);
      const uint64_t act2 = std::max<uint64_t>(q.t_ras + q.t_rp, q.t_rc);
      BOOST_TEST(t.at(2) == act2 + q.t_rcd + q.t_cl + xfer + q.latency);
    }
  }
  {
    // A write's data must be in before the row closes: the next row's ACT
    // follows write data end + t_rp.
    simt::stats::Registry s;
    DramParams q = p;
    q.t_ras = 7;  // = t_rcd, so write recovery is the binding constraint
    q.t_rc = 0;
    Dram d(q, s, "dram");
    const auto t = run(d, {{0, wr(1, addr_of(q, 2, 0), 128)}, {0, rd(2, addr_of(q, 2, 1))}}, false);
    const uint64_t wend = q.t_rcd + q.t_cl + 128 / q.bytes_per_cycle;
    BOOST_TEST(t.at(1) == wend + q.latency);
    BOOST_TEST(t.at(2) == wend + q.t_rp + q.t_rcd + q.t_cl + xfer + q.latency);
    BOOST_TEST(s.value("dram.writes") == 1u);
    BOOST_TEST(s.value("dram.reads") == 1u);
  }
}

BOOST_AUTO_TEST_CASE(fr_fcfs_serves_a_younger_row_hit_first_and_fcfs_does_not) {
  for (const char* sched : {"fr-fcfs", "fcfs"}) {
    simt::stats::Registry s;
    DramParams p = small_params();
    p.scheduler = sched;
    Dram d(p, s, "dram");
    std::vector<uint64_t> order;
    const auto t = run(d,
                       {{0, rd(1, addr_of(p, 0, 0))},           // opens bank 0 row 0
                        {100, rd(2, addr_of(p, 0, 1))},         // older: row miss (conflict)
                        {100, rd(3, addr_of(p, 0, 0, 128))}},   // younger: hit on the open row
                       true, &order);
    BOOST_REQUIRE(order.size() == 3u);
    const bool frfcfs = std::string(sched) == "fr-fcfs";
    if (frfcfs) {
      BOOST_TEST(order == (std::vector<uint64_t>{1, 3, 2}), sched);
      BOOST_TEST(t.at(3) - 100 == p.t_cl + 8 + p.latency);
      BOOST_TEST(s.value("dram.row_hits") == 1u);
      BOOST_TEST(s.value("dram.row_misses") == 2u);
    } else {
      BOOST_TEST(order == (std::vector<uint64_t>{1, 2, 3}), sched);
      // FCFS closed row 0 for request 2, so 3 needs its row opened again.
      BOOST_TEST(s.value("dram.row_hits") == 0u);
      BOOST_TEST(s.value("dram.row_misses") == 3u);
    }
  }
}

BOOST_AUTO_TEST_CASE(fcfs_still_overlaps_activations_of_other_banks) {
  // In-order data, but bank 1's ACT proceeds while bank 0's request waits.
  simt::stats::Registry s;
  DramParams p = small_params();
  p.scheduler = "fcfs";
  Dram d(p, s, "dram");
  std::vector<uint64_t> order;
  const auto t = run(d, {{0, rd(1, addr_of(p, 0, 0))}, {0, rd(2, addr_of(p, 1, 0))}}, false, &order);
  BOOST_TEST(order == (std::vector<uint64_t>{1, 2}));
  const uint64_t first_end = p.t_rcd + p.t_cl + 8;
  BOOST_TEST(t.at(2) == first_end + 8 + p.latency);  // back-to-back on the bus
}

namespace {
// Streams `n` reads of `bytes` (sequential or random) as fast as the queues
// take them; returns achieved bytes per cycle from first offer to last completion.
double stream_rate(DramParams p, uint32_t n, bool random, uint32_t bytes, simt::stats::Registry& s) {
  Dram d(p, s, "dram");
  std::vector<Arrival> a;
  std::mt19937_64 rng(7);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t addr = random ? (rng() % (1ull << 30)) / bytes * bytes : uint64_t(i) * bytes;
    a.push_back({0, rd(i, addr, bytes)});
  }
  uint64_t last = 0;
  const auto t = run(d, a, true, nullptr, &last);
  BOOST_REQUIRE(t.size() == n);
  // Time the data buses were available: subtract the fixed pipeline of the
  // first request (ACT + CAS) and of the last (latency) — both are not bus time.
  const double span = double(last - p.latency - p.t_rcd - p.t_cl);
  return double(uint64_t(n) * bytes) / span;
}
}  // namespace

BOOST_AUTO_TEST_CASE(bandwidth_is_bounded_by_bytes_per_cycle_per_channel) {
  for (const char* sched : {"fr-fcfs", "fcfs"}) {
    for (uint32_t channels : {1u, 4u}) {
      DramParams p;  // seed 001 defaults, 8 B/cycle/channel
      p.channels = channels;
      p.scheduler = sched;
      const double peak = double(p.bytes_per_cycle) * channels;
      simt::stats::Registry s;
      const double seq = stream_rate(p, 4000 * channels, false, 64, s);
      BOOST_TEST_MESSAGE(sched << " " << channels << " ch sequential: " << seq << " B/cycle of " << peak);
      BOOST_TEST(seq <= peak * 1.0000001);
      BOOST_TEST(seq >= peak * 0.99);  // a streaming access pattern reaches peak within 1%
      // Bus busy cycles equal bytes / bytes_per_cycle on every channel.
      uint64_t busy = 0;
      for (uint32_t c = 0; c < channels; ++c) {
        const uint64_t b = s.value("dram.ch" + std::to_string(c) + ".busy_cycles");
        BOOST_TEST(b == 4000u * 64u / p.bytes_per_cycle);
        busy += b;
      }
      BOOST_TEST(busy * p.bytes_per_cycle == s.value("dram.bytes"));
      BOOST_TEST(s.value("dram.row_hits") > 30 * s.value("dram.row_misses"));

      simt::stats::Registry s2;
      const double rnd = stream_rate(p, 2000, true, 64, s2);
      BOOST_TEST_MESSAGE(sched << " " << channels << " ch random: " << rnd << " B/cycle");
      BOOST_TEST(rnd <= peak * 1.0000001);
      BOOST_TEST(rnd < seq);  // row conflicts cost bandwidth
    }
  }
}

BOOST_AUTO_TEST_CASE(fr_fcfs_beats_fcfs_on_mixed_rows) {
  // Two streams interleaved on the same bank's two rows: FR-FCFS batches row
  // hits; FCFS pays a row conflict on nearly every request.
  uint64_t end[2];
  int i = 0;
  for (const char* sched : {"fr-fcfs", "fcfs"}) {
    simt::stats::Registry s;
    DramParams p = small_params();
    p.scheduler = sched;
    Dram d(p, s, "dram");
    std::vector<Arrival> a;
    for (uint32_t k = 0; k < 64; ++k)
      a.push_back({0, rd(k, addr_of(p, 0, k % 2, (k / 2) * 64 % 1024))});
    run(d, a, true, nullptr, &end[i++]);
  }
  BOOST_TEST(end[0] * 2 < end[1]);
}

BOOST_AUTO_TEST_CASE(requests_spread_over_channels_by_the_interleave) {
  simt::stats::Registry s;
  DramParams p;
  p.channels = 6;  // not a power of two (GTX480)
  p.interleave = 512;
  Dram d(p, s, "dram");
  std::vector<Arrival> a;
  // 60 chunks of 512 B as 64 B requests: every channel gets 10 chunks.
  for (uint32_t i = 0; i < 60 * 8; ++i) a.push_back({0, rd(i, uint64_t(i) * 64)});
  for (uint32_t i = 0; i < a.size(); ++i) BOOST_TEST(d.channel_of(a[i].req.addr) == (i / 8) % 6);
  run(d, a, true);
  for (uint32_t c = 0; c < 6; ++c)
    BOOST_TEST(s.value("dram.ch" + std::to_string(c) + ".busy_cycles") == 10u * 512u / p.bytes_per_cycle);
  // Requests never cross a chunk.
  BOOST_CHECK_THROW(d.accept(rd(9999, 512 - 32, 64), 100000), std::logic_error);
  BOOST_CHECK_THROW(d.accept(rd(9999, 0, 0), 100000), std::logic_error);
}

BOOST_AUTO_TEST_CASE(full_queue_refuses) {
  simt::stats::Registry s;
  DramParams p = small_params();
  p.queue = 4;
  Dram d(p, s, "dram");
  for (uint32_t i = 0; i < 4; ++i) {
    BOOST_TEST(d.can_accept(0));
    d.accept(rd(i, addr_of(p, i % p.banks, 0)), 0);
  }
  BOOST_TEST(d.queued(0) == 4u);
  BOOST_TEST(!d.can_accept(0));
  BOOST_TEST(!d.can_accept(0));
  BOOST_TEST(s.value("dram.queue_full_rejects") == 2u);
  BOOST_TEST(d.can_accept(1));  // other channel unaffected
  BOOST_CHECK_THROW(d.accept(rd(99, addr_of(p, 0, 0)), 0), std::logic_error);
  // A slot frees when a request's column command issues.
  std::vector<uint64_t> done;
  uint64_t now = 0, freed_at = 0;
  while (d.queued(0) == 4u) {
    d.tick(now, done);
    freed_at = now;
    now = d.next_event(now);
  }
  BOOST_TEST(freed_at == p.t_rcd);  // the first CAS, t_rcd after its ACT at cycle 0
  BOOST_TEST(d.can_accept(0));
  BOOST_TEST(d.in_flight(0) == 1u);
  BOOST_TEST(s.value("dram.queue_full_rejects") == 2u);
}

BOOST_AUTO_TEST_CASE(idle_dram_has_no_next_event) {
  simt::stats::Registry s;
  const DramParams p = small_params();
  Dram d(p, s, "dram");
  std::vector<uint64_t> done;
  BOOST_TEST(d.idle());
  BOOST_TEST(d.next_event(0) == Dram::kNever);
  BOOST_TEST(!d.tick(0, done));
  d.accept(rd(1, 0), 5);
  BOOST_TEST(d.next_event(0) == 5u);  // not before its visible cycle
  BOOST_TEST(!d.tick(4, done));
  BOOST_TEST(d.tick(5, done));                    // ACT
  BOOST_TEST(d.next_event(5) == 5u + p.t_rcd);    // nothing to do until the CAS
  BOOST_TEST(d.tick(5 + p.t_rcd, done));
  const uint64_t finish = 5 + p.t_rcd + p.t_cl + 8 + p.latency;
  BOOST_TEST(d.next_event(5 + p.t_rcd) == finish);  // only the completion remains
  BOOST_TEST(!d.tick(finish - 1, done));
  BOOST_TEST(done.empty());
  BOOST_TEST(d.tick(finish, done));
  BOOST_TEST(done == std::vector<uint64_t>{1});
  BOOST_TEST(d.idle());
  BOOST_TEST(d.next_event(finish) == Dram::kNever);
}

BOOST_AUTO_TEST_CASE(skipping_to_next_event_matches_ticking_every_cycle_and_is_deterministic) {
  for (const char* sched : {"fr-fcfs", "fcfs"}) {
    std::vector<Arrival> a;
    std::mt19937_64 rng(42);
    uint64_t cycle = 0;
    for (uint32_t i = 0; i < 3000; ++i) {
      cycle += rng() % 6;
      // Mostly a few hot rows, some random: hits, misses and conflicts mixed.
      uint64_t addr = (rng() % 4 == 0) ? rng() % (1ull << 28) : (rng() % 8) * 65536 + (rng() % 32) * 64;
      addr &= ~uint64_t(63);
      a.push_back({cycle, (rng() % 3 == 0) ? wr(i, addr) : rd(i, addr)});
    }
    DramParams p = small_params();
    p.scheduler = sched;
    p.channels = 3;
    simt::stats::Registry s1, s2, s3;
    Dram d1(p, s1, "dram"), d2(p, s2, "dram"), d3(p, s3, "dram");
    std::vector<uint64_t> o1, o2, o3;
    const auto t1 = run(d1, a, false, &o1);
    const auto t2 = run(d2, a, true, &o2);
    const auto t3 = run(d3, a, true, &o3);
    BOOST_TEST(t1.size() == a.size());
    BOOST_TEST((t1 == t2), sched);
    BOOST_TEST((o1 == o2), sched);
    BOOST_TEST((t2 == t3), sched);
    BOOST_TEST((o2 == o3), sched);
    BOOST_TEST(s1.to_json().dump() == s2.to_json().dump());
    BOOST_TEST(s2.to_json().dump() == s3.to_json().dump());
    BOOST_TEST(s1.value("dram.reads") + s1.value("dram.writes") == a.size());
    BOOST_TEST(s1.value("dram.row_hits") + s1.value("dram.row_misses") == a.size());
    // No request completes faster than a row hit allows.
    for (const auto& x : a) BOOST_TEST(t1.at(x.req.id) >= x.cycle + p.t_cl + 8 + p.latency);
  }
}

BOOST_AUTO_TEST_CASE(parameters_bind_and_validate) {
  simt::config::ParamRegistry r;
  DramParams p;
  p.bind(r, "dram");
  for (const char* n : {"channels", "banks", "row_bytes", "bytes_per_cycle", "queue", "scheduler", "t_cl", "t_rp",
                        "t_rcd", "t_ras", "t_rc", "t_rrd", "latency", "interleave"})
    BOOST_TEST(r.has(std::string("dram.") + n), n);
  r.set("dram.scheduler", "fcfs", "test");
  r.set("dram.t_cl", "9", "test");
  BOOST_TEST(p.scheduler == "fcfs");
  BOOST_TEST(p.t_cl == 9u);
  p.validate("dram");

  auto rejects = [](DramParams q, const std::string& option) {
    try {
      q.validate("dram");
    } catch (const simt::Error& e) {
      BOOST_TEST((e.code() == simt::ExitCode::BadInput));
      BOOST_TEST(std::string(e.what()).find("option dram." + option + ":") == 0, e.what());
      return;
    }
    BOOST_ERROR("validate accepted a bad " + option);
  };
  DramParams q;
  q.row_bytes = 1000;
  rejects(q, "row_bytes");
  q = DramParams{};
  q.interleave = 384;
  rejects(q, "interleave");
  q = DramParams{};
  q.scheduler = "random";
  rejects(q, "scheduler");
  q = DramParams{};
  q.t_ras = 5;
  rejects(q, "t_ras");
  q = DramParams{};
  q.queue = 0;
  rejects(q, "queue");
  q = DramParams{};
  q.bytes_per_cycle = 0;
  rejects(q, "bytes_per_cycle");
  // The constructor validates too.
  simt::stats::Registry s;
  q = DramParams{};
  q.channels = 0;
  BOOST_CHECK_THROW(Dram(q, s, "dram"), simt::Error);
}
