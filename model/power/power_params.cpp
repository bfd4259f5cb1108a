#include "power/power_params.h"

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::power {

void PowerParams::bind(config::ParamRegistry& r) {
  r.add_choice("power.gating", gating, {"none", "ideal", "conventional"},
               "lane power gating of the SP units' INT and FP pipelines: none (no controllers), ideal (seed 003's "
               "oracle: gates exactly the idle periods of at least power.bet cycles, never delays issue), "
               "conventional (idle-detect controller per domain; a wake-up delays issue)");
  r.add_choice("power.domain", domain, {"lane", "cluster", "unit"},
               "lanes that gate together: lane, cluster (4 lanes), unit (the whole SP unit, as Warped-Gates)");
  r.add("power.idle_detect", idle_detect, "idle cycles before a domain gates (conventional)", 1, 1000000);
  r.add("power.bet", bet, "break-even time: gated cycles that pay for one gating event", 1, 1000000);
  r.add("power.wakeup", wakeup, "cycles from a wake-up request until the lanes are ON (conventional)", 0, 1000000);
  r.add("power.eager", eager, "gate after one idle cycle instead of power.idle_detect (Origami's eager gating)");
  r.add("power.blackout", blackout,
        "a gated domain stays gated until power.bet cycles have passed even when work arrives (Warped-Gates)");
}

void PowerParams::validate() const {
  if (gating != "none" && gating != "ideal" && gating != "conventional")
    throw input_error("option power.gating: must be none, ideal or conventional (got '" + gating + "')");
  if (domain != "lane" && domain != "cluster" && domain != "unit")
    throw input_error("option power.domain: must be lane, cluster or unit (got '" + domain + "')");
  if (idle_detect < 1) throw input_error("option power.idle_detect: must be at least 1");
  if (bet < 1) throw input_error("option power.bet: must be at least 1");
  if (gating != "conventional" && (eager || blackout))
    throw input_error(std::string("option power.") + (eager ? "eager" : "blackout") +
                      ": applies to power.gating = conventional, not " + gating);
}

Gating PowerParams::mode() const {
  if (gating == "ideal") return Gating::Ideal;
  if (gating == "conventional") return Gating::Conventional;
  return Gating::None;
}

uint32_t PowerParams::domain_lanes(uint32_t lanes) const {
  if (domain == "unit") return lanes;
  if (domain == "cluster") return lanes < 4 ? lanes : 4;
  return 1;
}

}  // namespace simt::power
