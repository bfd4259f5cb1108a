// Whitted-style ray tracing of a sphere scene through a bounding volume
// hierarchy kept in global memory. Each thread follows one primary ray
// through several reflections; each hit also casts a shadow ray. Traversal is
// a while loop over an explicit node stack in a local array, so trip counts
// depend on where each ray goes.
//
// Arithmetic is written with explicit rounding (fmaf, __fadd_rn, __fmul_rn...)
// so the compiler cannot contract it differently from the host reference:
// a ray that grazes a sphere then takes the same branch on both sides.

struct BvhNode {
  float lo[3];
  float hi[3];
  int first;  // inner node: left child index; leaf: first sphere index
  int count;  // inner node: right child index; leaf: -(number of spheres)
};

struct Sphere {
  float center[3];
  float radius;
  float color[3];
  float reflectivity;
};

struct Vec3 {
  float x, y, z;
};

__device__ __forceinline__ Vec3 make(float x, float y, float z) { return Vec3{x, y, z}; }
__device__ __forceinline__ Vec3 sub(Vec3 a, Vec3 b) {
  return make(__fsub_rn(a.x, b.x), __fsub_rn(a.y, b.y), __fsub_rn(a.z, b.z));
}
__device__ __forceinline__ Vec3 scale(Vec3 a, float s) {
  return make(__fmul_rn(a.x, s), __fmul_rn(a.y, s), __fmul_rn(a.z, s));
}
// a * s + b, one rounding per component.
__device__ __forceinline__ Vec3 madd(Vec3 a, float s, Vec3 b) {
  return make(fmaf(a.x, s, b.x), fmaf(a.y, s, b.y), fmaf(a.z, s, b.z));
}
__device__ __forceinline__ float dot(Vec3 a, Vec3 b) {
  return fmaf(a.x, b.x, fmaf(a.y, b.y, __fmul_rn(a.z, b.z)));
}
__device__ __forceinline__ Vec3 normalize(Vec3 a) {
  float len = sqrtf(dot(a, a));
  return make(a.x / len, a.y / len, a.z / len);
}

#define STACK_SIZE 32
#define HIT_EPSILON 1e-3f

// Nearest hit along o + t d for t in (HIT_EPSILON, t_max); returns the sphere
// index or -1. With any_hit the first hit found ends the search (shadow rays).
__device__ int traverse(const BvhNode* __restrict__ nodes, const Sphere* __restrict__ spheres,
                        Vec3 o, Vec3 d, float t_max, bool any_hit, float* t_out) {
  Vec3 inv = make(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
  int stack[STACK_SIZE];
  int sp = 0;
  stack[sp++] = 0;
  int hit = -1;
  float best = t_max;
  while (sp > 0) {
    BvhNode node = nodes[stack[--sp]];
    // Slab test against the node's box.
    float t0x = __fmul_rn(__fsub_rn(node.lo[0], o.x), inv.x);
    float t1x = __fmul_rn(__fsub_rn(node.hi[0], o.x), inv.x);
    float t0y = __fmul_rn(__fsub_rn(node.lo[1], o.y), inv.y);
    float t1y = __fmul_rn(__fsub_rn(node.hi[1], o.y), inv.y);
    float t0z = __fmul_rn(__fsub_rn(node.lo[2], o.z), inv.z);
    float t1z = __fmul_rn(__fsub_rn(node.hi[2], o.z), inv.z);
    float t_enter = fmaxf(fmaxf(fminf(t0x, t1x), fminf(t0y, t1y)), fmaxf(fminf(t0z, t1z), 0.0f));
    float t_exit = fminf(fminf(fmaxf(t0x, t1x), fmaxf(t0y, t1y)), fminf(fmaxf(t0z, t1z), best));
    if (t_enter > t_exit) continue;
    if (node.count >= 0) {
      // Inner node: visit the left child first.
      if (sp + 2 <= STACK_SIZE) {
        stack[sp++] = node.count;
        stack[sp++] = node.first;
      }
      continue;
    }
    for (int i = node.first; i < node.first - node.count; ++i) {
      Sphere s = spheres[i];
      Vec3 oc = sub(o, make(s.center[0], s.center[1], s.center[2]));
      float b = dot(oc, d);
      float c = fmaf(-s.radius, s.radius, dot(oc, oc));
      float disc = fmaf(b, b, -c);
      if (disc <= 0.0f) continue;
      float root = sqrtf(disc);
      float t = __fsub_rn(-b, root);
      if (t <= HIT_EPSILON) t = __fadd_rn(-b, root);
      if (t > HIT_EPSILON && t < best) {
        best = t;
        hit = i;
      }
    }
    if (any_hit && hit >= 0) break;
  }
  *t_out = best;
  return hit;
}

// Keeps direction components away from zero so 1/d stays finite.
__device__ __forceinline__ float nonzero(float v) {
  return fabsf(v) < 1e-6f ? (v < 0.0f ? -1e-6f : 1e-6f) : v;
}

extern "C" __global__ void raytrace(const BvhNode* __restrict__ nodes,
                                    const Sphere* __restrict__ spheres, float* __restrict__ image,
                                    int width, int height, int max_bounces,
                                    float light_x, float light_y, float light_z) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;

  // Pinhole camera at the origin looking down +z.
  float aspect = (float)width / (float)height;
  float sx = __fmul_rn(__fsub_rn(__fmul_rn(__fadd_rn((float)px, 0.5f), 2.0f / (float)width), 1.0f), aspect);
  float sy = __fsub_rn(1.0f, __fmul_rn(__fadd_rn((float)py, 0.5f), 2.0f / (float)height));
  Vec3 o = make(0.0f, 0.0f, 0.0f);
  Vec3 d = normalize(make(sx, sy, 1.5f));
  Vec3 light = make(light_x, light_y, light_z);

  Vec3 color = make(0.0f, 0.0f, 0.0f);
  float weight = 1.0f;
  for (int bounce = 0; bounce <= max_bounces; ++bounce) {
    d = make(nonzero(d.x), nonzero(d.y), nonzero(d.z));
    float t;
    int hit = traverse(nodes, spheres, o, d, 1e30f, false, &t);
    if (hit < 0) {
      // Sky: a vertical gradient.
      float sky = fmaf(0.5f, d.y, 0.5f);
      color = madd(make(0.5f, 0.7f, 1.0f), __fmul_rn(weight, sky), color);
      break;
    }
    Sphere s = spheres[hit];
    Vec3 p = madd(d, t, o);
    Vec3 n = scale(sub(p, make(s.center[0], s.center[1], s.center[2])), 1.0f / s.radius);
    Vec3 to_light = sub(light, p);
    float light_dist = sqrtf(dot(to_light, to_light));
    Vec3 l = scale(to_light, 1.0f / light_dist);
    float lambert = dot(n, l);
    float shade = 0.1f;  // ambient
    if (lambert > 0.0f) {
      Vec3 so = madd(n, HIT_EPSILON, p);
      Vec3 sd = make(nonzero(l.x), nonzero(l.y), nonzero(l.z));
      float ts;
      if (traverse(nodes, spheres, so, sd, light_dist, true, &ts) < 0) shade = fmaf(0.9f, lambert, shade);
    }
    float k = __fmul_rn(__fmul_rn(weight, __fsub_rn(1.0f, s.reflectivity)), shade);
    color = madd(make(s.color[0], s.color[1], s.color[2]), k, color);
    weight = __fmul_rn(weight, s.reflectivity);
    if (weight < 0.01f) break;
    // Mirror reflection about the normal.
    d = madd(n, __fmul_rn(-2.0f, dot(d, n)), d);
    o = madd(n, HIT_EPSILON, p);
  }
  int idx = (py * width + px) * 3;
  image[idx + 0] = color.x;
  image[idx + 1] = color.y;
  image[idx + 2] = color.z;
}
