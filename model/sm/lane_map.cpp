#include "sm/lane_map.h"

namespace simt::sm {

namespace {

uint64_t low_bits(uint32_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Threads [first, first + count) of `active`, as bits from 0.
uint64_t slice(uint64_t active, uint32_t first, uint32_t count) {
  if (first >= 64) return 0;
  return (active >> first) & low_bits(count);
}

// Home passes of `bits` (bit i = position i) on `lanes` lanes, `passes` of them.
uint32_t home(uint64_t bits, uint32_t passes, uint32_t lanes, uint64_t* out) {
  for (uint32_t k = 0; k < passes; ++k) out[k] = slice(bits, k * lanes, lanes);
  return passes;
}

// Per 4-lane cluster of `m`, the set bits moved to the cluster's lowest
// lanes, for all 16 clusters at once: each nibble's count c (0..4) becomes
// the nibble with its low c bits set (c >= k <=> c + 8 - k has bit 3 set,
// which cannot carry into the next nibble).
constexpr uint64_t kNibbleOnes = 0x1111111111111111ull;
uint64_t low_bits_per_nibble(uint64_t c) {
  const uint64_t ge1 = ((c + 7 * kNibbleOnes) >> 3) & kNibbleOnes;
  const uint64_t ge2 = ((c + 6 * kNibbleOnes) >> 3) & kNibbleOnes;
  const uint64_t ge3 = ((c + 5 * kNibbleOnes) >> 3) & kNibbleOnes;
  const uint64_t ge4 = ((c + 4 * kNibbleOnes) >> 3) & kNibbleOnes;
  return ge1 | ge2 << 1 | ge3 << 2 | ge4 << 3;
}
uint64_t shift_clusters(uint64_t m) {
  const uint64_t pairs = (m & 0x5555555555555555ull) + ((m >> 1) & 0x5555555555555555ull);
  return low_bits_per_nibble((pairs & 0x3333333333333333ull) + ((pairs >> 2) & 0x3333333333333333ull));
}
// Per cluster, the low pair's set bits moved to its lowest lane.
uint64_t shift_pairs(uint64_t m) { return low_bits_per_nibble((m & kNibbleOnes) + ((m >> 1) & kNibbleOnes)); }

constexpr uint64_t kLowPairs = 0x3333333333333333ull;  // lanes 4c, 4c+1 of every cluster

}  // namespace

const char* lane_map_name(LaneMap m) {
  switch (m) {
    case LaneMap::Home: return "home";
    case LaneMap::Compact: return "compact";
    case LaneMap::Half: return "half";
    case LaneMap::CompactHalf: return "compact_half";
    case LaneMap::Shift: return "shift";
    case LaneMap::Fold: return "fold";
    case LaneMap::FoldShift: return "fold_shift";
  }
  return "?";
}

const std::vector<std::string>& lane_map_names() {
  static const std::vector<std::string> n = {"home", "compact", "half", "compact_half", "shift", "fold", "fold_shift"};
  return n;
}

bool parse_lane_map(const std::string& name, LaneMap* out) {
  for (uint8_t i = 0; i < lane_map_names().size(); ++i)
    if (lane_map_names()[i] == name) {
      *out = static_cast<LaneMap>(i);
      return true;
    }
  return false;
}

uint32_t max_lane_passes(uint32_t width, uint32_t lanes) { return 2 * ceil_div(width, lanes); }

uint32_t map_lanes(LaneMap m, uint64_t active, uint32_t width, uint32_t lanes, uint64_t* out) {
  active &= low_bits(width);
  const uint32_t passes = ceil_div(width, lanes);
  const bool clusters = lanes % 4 == 0;
  switch (m) {
    case LaneMap::Home: break;
    case LaneMap::Compact:
      return home(low_bits(static_cast<uint32_t>(__builtin_popcountll(active))), passes, lanes, out);
    case LaneMap::Half:
    case LaneMap::CompactHalf: {
      if (width < 2 || lanes < 2) break;
      const uint32_t hw = width / 2, hl = lanes / 2, per_half = ceil_div(width - hw, hl);
      const uint64_t halves[2] = {slice(active, 0, hw), slice(active, hw, width - hw)};
      const uint32_t issued = (halves[0] != 0) + (halves[1] != 0);
      const uint32_t n = (issued ? issued : 1) * per_half;
      if (m == LaneMap::CompactHalf)
        return home(low_bits(static_cast<uint32_t>(__builtin_popcountll(active))), n, hl, out);
      uint32_t k = 0;
      for (uint64_t h : halves)
        if (h || (!issued && k == 0)) k += home(h, per_half, hl, out + k);
      return k;
    }
    case LaneMap::Shift:
      if (!clusters) break;
      home(active, passes, lanes, out);
      for (uint32_t k = 0; k < passes; ++k) out[k] = shift_clusters(out[k]);
      return passes;
    case LaneMap::Fold:
    case LaneMap::FoldShift: {
      if (!clusters) break;
      home(active, passes, lanes, out);
      uint64_t low[64], high[64];
      bool any_low = false, any_high = false;
      for (uint32_t k = 0; k < passes; ++k) {
        low[k] = out[k] & kLowPairs;
        high[k] = (out[k] >> 2) & kLowPairs;
        any_low = any_low || low[k];
        any_high = any_high || high[k];
      }
      const bool shift = m == LaneMap::FoldShift;
      if (!any_low || !any_high) {  // one sub-warp: no folding needed
        for (uint32_t k = 0; k < passes; ++k)
          out[k] = shift ? shift_clusters(out[k]) : (any_low ? out[k] : high[k]);
        return passes;
      }
      for (uint32_t k = 0; k < passes; ++k) {
        out[k] = shift ? shift_pairs(low[k]) : low[k];
        out[passes + k] = shift ? shift_pairs(high[k]) : high[k];
      }
      return 2 * passes;
    }
  }
  return home(active, passes, lanes, out);
}

}  // namespace simt::sm
