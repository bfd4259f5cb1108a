// Parameters of per-lane power gating of the SP units' INT and FP pipelines
// (seeds 003 and 004; docs/power.md). Bound under "power.*".
//
//   power.gating      none (default: no lane power controllers at all, no cost),
//                     ideal (seed 003's evaluation: an oracle gates exactly the
//                     idle periods of at least BET cycles and never delays an
//                     issue), conventional (Hu et al.'s idle-detect controller,
//                     seed 004's baseline: wake-ups delay issue)
//   power.domain      lane | cluster (4 lanes gate together) | unit (the whole
//                     SP unit's INT or FP pipelines, as Warped-Gates)
//   power.idle_detect idle cycles before a domain gates (5)
//   power.bet         break-even time: gated cycles that pay for one gating (14)
//   power.wakeup      cycles from a wake-up request to the lanes being ON (3)
//   power.eager       gate after one idle cycle instead of idle_detect (seed 004 §3.3)
//   power.blackout    a domain that gated stays gated until BET has passed,
//                     even when work arrives (Warped-Gates)
#pragma once

#include <cstdint>
#include <string>

namespace simt::config { class ParamRegistry; }

namespace simt::power {

enum class Gating : uint8_t { None, Ideal, Conventional };

struct PowerParams {
  std::string gating = "none";
  std::string domain = "lane";
  uint32_t idle_detect = 5;
  uint32_t bet = 14;
  uint32_t wakeup = 3;
  bool eager = false;
  bool blackout = false;

  void bind(config::ParamRegistry& r);
  // Throws simt::input_error naming the option.
  void validate() const;

  Gating mode() const;
  // Lanes that gate together in an SP unit of `lanes` lanes.
  uint32_t domain_lanes(uint32_t lanes) const;
};

}  // namespace simt::power
