// Host side of raytrace: builds a random sphere scene over a large ground
// sphere, a bounding volume hierarchy over it (median split on the longest
// axis, up to 4 spheres per leaf), renders it on the device and checks each
// pixel against a CPU tracer that performs the same float operations in the
// same order (fma where the kernel uses fmaf), so results should agree to
// the last bit; the comparison still allows a small tolerance.
#include <algorithm>
#include <cmath>

#include "common.h"

namespace simt::workloads {
namespace {

// Same layouts as the kernel's structs.
struct BvhNode {
  float lo[3];
  float hi[3];
  int32_t first;  // inner: left child; leaf: first sphere
  int32_t count;  // inner: right child; leaf: -(number of spheres)
};
struct Sphere {
  float center[3];
  float radius;
  float color[3];
  float reflectivity;
};
static_assert(sizeof(BvhNode) == 32 && sizeof(Sphere) == 32, "layout must match the kernel");

constexpr int kLeafSize = 4;
constexpr int kStackSize = 32;
constexpr float kHitEpsilon = 1e-3f;
constexpr int kMaxBounces = 4;
constexpr float kLight[3] = {-6.0f, 10.0f, -2.0f};

struct Vec3 {
  float x, y, z;
};
Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 scale(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
Vec3 madd(Vec3 a, float s, Vec3 b) { return {std::fma(a.x, s, b.x), std::fma(a.y, s, b.y), std::fma(a.z, s, b.z)}; }
float dot(Vec3 a, Vec3 b) { return std::fma(a.x, b.x, std::fma(a.y, b.y, a.z * b.z)); }
Vec3 normalize(Vec3 a) {
  float len = std::sqrt(dot(a, a));
  return {a.x / len, a.y / len, a.z / len};
}
float nonzero(float v) { return std::fabs(v) < 1e-6f ? (v < 0.0f ? -1e-6f : 1e-6f) : v; }

// Recursively builds the subtree over spheres [first, first + count).
int build(std::vector<BvhNode>& nodes, std::vector<Sphere>& spheres, int first, int count) {
  int index = static_cast<int>(nodes.size());
  nodes.push_back({});
  BvhNode node{};
  for (int k = 0; k < 3; ++k) {
    node.lo[k] = INFINITY;
    node.hi[k] = -INFINITY;
  }
  float clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = first; i < first + count; ++i) {
    const Sphere& s = spheres[i];
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], s.center[k] - s.radius);
      node.hi[k] = std::max(node.hi[k], s.center[k] + s.radius);
      clo[k] = std::min(clo[k], s.center[k]);
      chi[k] = std::max(chi[k], s.center[k]);
    }
  }
  if (count <= kLeafSize) {
    node.first = first;
    node.count = -count;
  } else {
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (chi[k] - clo[k] > chi[axis] - clo[axis]) axis = k;
    int half = count / 2;
    std::nth_element(spheres.begin() + first, spheres.begin() + first + half, spheres.begin() + first + count,
                     [axis](const Sphere& a, const Sphere& b) { return a.center[axis] < b.center[axis]; });
    node.first = build(nodes, spheres, first, half);
    node.count = build(nodes, spheres, first + half, count - half);
  }
  nodes[index] = node;
  return index;
}

// Mirror of the kernel's traverse().
int traverse(const std::vector<BvhNode>& nodes, const std::vector<Sphere>& spheres, Vec3 o, Vec3 d, float t_max,
             bool any_hit, float* t_out) {
  Vec3 inv{1.0f / d.x, 1.0f / d.y, 1.0f / d.z};
  int stack[kStackSize];
  int sp = 0;
  stack[sp++] = 0;
  int hit = -1;
  float best = t_max;
  while (sp > 0) {
    const BvhNode& node = nodes[stack[--sp]];
    float t0x = (node.lo[0] - o.x) * inv.x, t1x = (node.hi[0] - o.x) * inv.x;
    float t0y = (node.lo[1] - o.y) * inv.y, t1y = (node.hi[1] - o.y) * inv.y;
    float t0z = (node.lo[2] - o.z) * inv.z, t1z = (node.hi[2] - o.z) * inv.z;
    float t_enter = std::fmax(std::fmax(std::fmin(t0x, t1x), std::fmin(t0y, t1y)), std::fmax(std::fmin(t0z, t1z), 0.0f));
    float t_exit = std::fmin(std::fmin(std::fmax(t0x, t1x), std::fmax(t0y, t1y)), std::fmin(std::fmax(t0z, t1z), best));
    if (t_enter > t_exit) continue;
    if (node.count >= 0) {
      if (sp + 2 <= kStackSize) {
        stack[sp++] = node.count;
        stack[sp++] = node.first;
      }
      continue;
    }
    for (int i = node.first; i < node.first - node.count; ++i) {
      const Sphere& s = spheres[i];
      Vec3 oc = sub(o, {s.center[0], s.center[1], s.center[2]});
      float b = dot(oc, d);
      float c = std::fma(-s.radius, s.radius, dot(oc, oc));
      float disc = std::fma(b, b, -c);
      if (disc <= 0.0f) continue;
      float root = std::sqrt(disc);
      float t = -b - root;
      if (t <= kHitEpsilon) t = -b + root;
      if (t > kHitEpsilon && t < best) {
        best = t;
        hit = i;
      }
    }
    if (any_hit && hit >= 0) break;
  }
  *t_out = best;
  return hit;
}

// Mirror of the kernel's per-pixel body.
Vec3 shade_pixel(const std::vector<BvhNode>& nodes, const std::vector<Sphere>& spheres, int px, int py, int width,
                 int height) {
  float aspect = static_cast<float>(width) / static_cast<float>(height);
  float sx = ((static_cast<float>(px) + 0.5f) * (2.0f / static_cast<float>(width)) - 1.0f) * aspect;
  float sy = 1.0f - (static_cast<float>(py) + 0.5f) * (2.0f / static_cast<float>(height));
  Vec3 o{0.0f, 0.0f, 0.0f};
  Vec3 d = normalize({sx, sy, 1.5f});
  Vec3 light{kLight[0], kLight[1], kLight[2]};
  Vec3 color{0.0f, 0.0f, 0.0f};
  float weight = 1.0f;
  for (int bounce = 0; bounce <= kMaxBounces; ++bounce) {
    d = {nonzero(d.x), nonzero(d.y), nonzero(d.z)};
    float t;
    int hit = traverse(nodes, spheres, o, d, 1e30f, false, &t);
    if (hit < 0) {
      float sky = std::fma(0.5f, d.y, 0.5f);
      color = madd({0.5f, 0.7f, 1.0f}, weight * sky, color);
      break;
    }
    const Sphere& s = spheres[hit];
    Vec3 p = madd(d, t, o);
    Vec3 n = scale(sub(p, {s.center[0], s.center[1], s.center[2]}), 1.0f / s.radius);
    Vec3 to_light = sub(light, p);
    float light_dist = std::sqrt(dot(to_light, to_light));
    Vec3 l = scale(to_light, 1.0f / light_dist);
    float lambert = dot(n, l);
    float shade = 0.1f;
    if (lambert > 0.0f) {
      Vec3 so = madd(n, kHitEpsilon, p);
      Vec3 sd{nonzero(l.x), nonzero(l.y), nonzero(l.z)};
      float ts;
      if (traverse(nodes, spheres, so, sd, light_dist, true, &ts) < 0) shade = std::fma(0.9f, lambert, shade);
    }
    float k = (weight * (1.0f - s.reflectivity)) * shade;
    color = madd({s.color[0], s.color[1], s.color[2]}, k, color);
    weight = weight * s.reflectivity;
    if (weight < 0.01f) break;
    d = madd(n, -2.0f * dot(d, n), d);
    o = madd(n, kHitEpsilon, p);
  }
  return color;
}

std::vector<Sphere> make_scene(int count, Rng& rng) {
  std::vector<Sphere> spheres;
  // Ground: a huge sphere below the scene.
  spheres.push_back({{0.0f, -1001.5f, 8.0f}, 1000.0f, {0.6f, 0.6f, 0.55f}, 0.2f});
  for (int i = 0; i < count; ++i) {
    Sphere s{};
    s.radius = 0.15f + 0.45f * rng.unit();
    s.center[0] = -6.0f + 12.0f * rng.unit();
    s.center[1] = -1.5f + s.radius + 3.0f * rng.unit();
    s.center[2] = 3.0f + 14.0f * rng.unit();
    for (float& c : s.color) c = 0.2f + 0.8f * rng.unit();
    // About a third are mirrors, the rest mostly diffuse.
    s.reflectivity = rng.unit() < 0.35f ? 0.5f + 0.45f * rng.unit() : 0.15f * rng.unit();
    spheres.push_back(s);
  }
  return spheres;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "raytrace");
  const int width = size == Size::Small ? 32 : size == Size::Medium ? 128 : 288;
  const int height = size == Size::Small ? 24 : size == Size::Medium ? 80 : 180;
  const int num_spheres = size == Size::Small ? 48 : size == Size::Medium ? 160 : 320;
  Rng rng(0x7a7u + num_spheres);
  std::vector<Sphere> spheres = make_scene(num_spheres, rng);
  std::vector<BvhNode> nodes;
  build(nodes, spheres, 0, static_cast<int>(spheres.size()));

  uint64_t d_nodes = dev.upload(nodes), d_spheres = dev.upload(spheres);
  uint64_t d_image = dev.malloc(static_cast<uint64_t>(width) * height * 3 * sizeof(float));
  const uint32_t bx = 16, by = 8;
  runtime::KernelArgs args;
  args.push<uint64_t>(d_nodes).push<uint64_t>(d_spheres).push<uint64_t>(d_image);
  args.push<int32_t>(width).push<int32_t>(height).push<int32_t>(kMaxBounces);
  args.push<float>(kLight[0]).push<float>(kLight[1]).push<float>(kLight[2]);
  dev.launch(mod, "raytrace", {(width + bx - 1) / bx, (height + by - 1) / by, 1}, {bx, by, 1}, args);

  auto got = dev.download<float>(d_image, static_cast<size_t>(width) * height * 3);
  std::vector<float> want(got.size());
  for (int py = 0; py < height; ++py)
    for (int px = 0; px < width; ++px) {
      Vec3 c = shade_pixel(nodes, spheres, px, py, width, height);
      size_t i = (static_cast<size_t>(py) * width + px) * 3;
      want[i] = c.x;
      want[i + 1] = c.y;
      want[i + 2] = c.z;
    }
  return compare_close(got, want, "image", 1e-5, 1e-6);
}

const bool registered = register_workload(
    {"raytrace", WorkloadClass::Divergent,
     "ray tracing of spheres through a BVH (local-array stack), reflections and shadow rays", &run});

}  // namespace
}  // namespace simt::workloads
