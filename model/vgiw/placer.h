// Placement and routing of one block's dataflow graph on the MT-CGRF
// (seed 002 §3.1: "each basic block is converted into a dataflow graph and
// undergoes a place and route sequence"; small blocks are replicated).
//
// Replica after replica, the nodes are placed in graph order (every input
// before its consumer) on the free unit of their type that is nearest, in
// token latency, to the units of their inputs (ties: the lower unit). Then
// every edge is routed: a direct link between neighbouring units, or a
// shortest path over the switches of one parity class (grid_layout.h) whose
// links still have a free track; the edges leaving one producer share tracks
// (a switch forwards one token to several outputs). A replica that does not
// place or route is undone and replication stops; a graph whose first
// replica does not fit gets no placement (the compiler splits the block).
#pragma once

#include <cstdint>
#include <vector>

#include "vgiw/dataflow_graph.h"
#include "vgiw/grid_layout.h"

namespace simt::vgiw {

struct RoutedEdge {
  uint32_t from = 0, to = 0;  // nodes
  bool control = false;
  uint32_t latency = 1;       // cycles
  std::vector<uint32_t> switches;  // the route's switches, in order (empty on a direct link)
};

struct Replica {
  std::vector<uint32_t> unit_of;  // node -> unit of the layout
  std::vector<RoutedEdge> edges;
};

struct Placement {
  std::vector<Replica> replicas;
  uint32_t max_latency = 0;       // over every edge
  uint32_t critical_path = 0;     // cycles from initiator to terminator, edges only
  double mean_latency = 0;
};

// `tracks`: tokens of distinct producers one switch-to-switch link carries.
Placement place_and_route(const DataflowGraph& g, const GridLayout& layout, uint32_t tracks,
                          uint32_t max_replicas = UINT32_MAX);

}  // namespace simt::vgiw
