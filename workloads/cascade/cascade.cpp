// Host side of cascade: makes a smooth random 8-bit image, a random cascade
// of Haar-like features whose thresholds are "trained" on the image itself
// (feature thresholds near the median response, stage thresholds at a chosen
// pass rate), runs the integral-image kernels and the detector, and checks
// the integral image and the stage reached by every window exactly.
#include <algorithm>
#include <cmath>

#include "common.h"

namespace simt::workloads {
namespace {

constexpr int kWindow = 24;
constexpr int kMaxRects = 3;
constexpr int kMaxFeatures = 160;  // MAX_FEATURES in cascade.cu
constexpr int kMaxStages = 32;
constexpr int kStages = 14;

// Same layouts as the kernel's structs.
struct Rect {
  int32_t x, y, w, h, weight;
};
struct Feature {
  Rect rects[kMaxRects];
  int32_t num_rects, threshold, below, above;
};
struct Stage {
  int32_t first_feature, num_features, threshold;
};
static_assert(sizeof(Feature) == 76 && sizeof(Stage) == 12, "layout must match the kernel");

struct Image {
  int width, height;
  std::vector<uint8_t> pixels;
  std::vector<int32_t> integral;  // (height + 1) x (width + 1)
};

Image make_image(int width, int height, Rng& rng) {
  Image img{width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height), {}};
  struct Blob {
    float x, y, sigma, amplitude;
  };
  std::vector<Blob> blobs(std::max(4, width * height / 2048));
  for (auto& b : blobs)
    b = {rng.unit() * width, rng.unit() * height, 2.0f + 10.0f * rng.unit(), 160.0f * (rng.unit() - 0.5f)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float v = 128.0f + 24.0f * (rng.unit() - 0.5f);
      for (const auto& b : blobs) {
        float dx = x - b.x, dy = y - b.y;
        float d2 = dx * dx + dy * dy;
        if (d2 < 16.0f * b.sigma * b.sigma) v += b.amplitude * std::exp(-d2 / (2.0f * b.sigma * b.sigma));
      }
      img.pixels[static_cast<size_t>(y) * width + x] = static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, v)));
    }
  const int stride = width + 1;
  img.integral.assign(static_cast<size_t>(height + 1) * stride, 0);
  for (int y = 0; y < height; ++y) {
    int32_t row = 0;
    for (int x = 0; x < width; ++x) {
      row += img.pixels[static_cast<size_t>(y) * width + x];
      img.integral[static_cast<size_t>(y + 1) * stride + x + 1] = img.integral[static_cast<size_t>(y) * stride + x + 1] + row;
    }
  }
  return img;
}

int32_t rect_sum(const Image& img, int x, int y, int w, int h) {
  const int s = img.width + 1;
  const auto& ii = img.integral;
  return ii[(y + h) * s + (x + w)] - ii[y * s + (x + w)] - ii[(y + h) * s + x] + ii[y * s + x];
}

int32_t feature_value(const Image& img, const Feature& f, int wx, int wy) {
  int32_t value = 0;
  for (int r = 0; r < f.num_rects; ++r) {
    const Rect& rc = f.rects[r];
    value += rc.weight * rect_sum(img, wx + rc.x, wy + rc.y, rc.w, rc.h);
  }
  return value;
}

int32_t stage_votes(const Image& img, const std::vector<Feature>& features, const Stage& st, int wx, int wy) {
  int32_t votes = 0;
  for (int f = st.first_feature; f < st.first_feature + st.num_features; ++f)
    votes += feature_value(img, features[f], wx, wy) < features[f].threshold ? features[f].below : features[f].above;
  return votes;
}

// A random two- or three-band Haar-like feature inside the window.
Feature random_feature(Rng& rng) {
  Feature f{};
  int kind = static_cast<int>(rng.range(0, 3));
  int bands = kind < 2 ? 2 : 3;
  bool horizontal = kind % 2 == 0;  // bands side by side along x
  int bw = static_cast<int>(rng.range(2, (kWindow - 1) / bands)), bh = static_cast<int>(rng.range(2, kWindow - 2));
  if (!horizontal) std::swap(bw, bh);
  int total_w = horizontal ? bw * bands : bw, total_h = horizontal ? bh : bh * bands;
  int x0 = static_cast<int>(rng.range(0, kWindow - total_w)), y0 = static_cast<int>(rng.range(0, kWindow - total_h));
  f.num_rects = bands;
  for (int b = 0; b < bands; ++b) {
    int weight = bands == 2 ? (b == 0 ? 1 : -1) : (b == 1 ? -2 : 1);
    f.rects[b] = {x0 + (horizontal ? b * bw : 0), y0 + (horizontal ? 0 : b * bh), bw, bh, weight};
  }
  return f;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "cascade");
  const int width = size == Size::Small ? 80 : size == Size::Medium ? 320 : 960;
  const int height = size == Size::Small ? 48 : size == Size::Medium ? 240 : 720;
  const int step = 2;
  Rng rng(0xca5cu + width);
  Image img = make_image(width, height, rng);
  const int windows_x = (width - kWindow) / step + 1, windows_y = (height - kWindow) / step + 1;
  const int num_windows = windows_x * windows_y;
  auto window_pos = [&](int w, int* wx, int* wy) {
    *wx = (w % windows_x) * step;
    *wy = (w / windows_x) * step;
  };

  // "Train" the cascade on this image: the surviving windows set each
  // stage's threshold. Early stages pass about half, later ones about 80%.
  std::vector<Feature> features;
  std::vector<Stage> stages;
  std::vector<int> alive(num_windows);
  for (int w = 0; w < num_windows; ++w) alive[w] = w;
  for (int s = 0; s < kStages && !alive.empty(); ++s) {
    Stage st{static_cast<int32_t>(features.size()), 2 + s, 0};
    for (int k = 0; k < st.num_features; ++k) {
      Feature f = random_feature(rng);
      std::vector<int32_t> sample;
      for (int i = 0; i < 15; ++i) {
        int wx, wy;
        window_pos(alive[rng.range(0, static_cast<int64_t>(alive.size()) - 1)], &wx, &wy);
        sample.push_back(feature_value(img, f, wx, wy));
      }
      std::nth_element(sample.begin(), sample.begin() + 7, sample.end());
      f.threshold = sample[7];
      int32_t vote = static_cast<int32_t>(rng.range(1, 9));
      bool flip = rng.next() & 1;
      f.below = flip ? -vote : vote;
      f.above = flip ? vote : -vote;
      features.push_back(f);
    }
    std::vector<int32_t> votes;
    for (int w : alive) {
      int wx, wy;
      window_pos(w, &wx, &wy);
      votes.push_back(stage_votes(img, features, st, wx, wy));
    }
    std::vector<int32_t> sorted = votes;
    size_t cut = sorted.size() * (s < 3 ? 50 : 20) / 100;
    std::nth_element(sorted.begin(), sorted.begin() + cut, sorted.end());
    st.threshold = sorted[cut];
    std::vector<int> next;
    for (size_t i = 0; i < alive.size(); ++i)
      if (votes[i] >= st.threshold) next.push_back(alive[i]);
    alive.swap(next);
    stages.push_back(st);
  }
  if (static_cast<int>(features.size()) > kMaxFeatures || static_cast<int>(stages.size()) > kMaxStages)
    return {false, "cascade: generated cascade exceeds the kernel's shared-memory tables"};

  // Integral image on the device.
  uint64_t d_img = dev.upload(img.pixels);
  uint64_t d_integral = dev.malloc(img.integral.size() * sizeof(int32_t));
  runtime::KernelArgs rows;
  rows.push<uint64_t>(d_img).push<uint64_t>(d_integral).push<int32_t>(width).push<int32_t>(height);
  dev.launch(mod, "integral_rows", {static_cast<uint32_t>(height), 1, 1}, {128, 1, 1}, rows);
  runtime::KernelArgs cols;
  cols.push<uint64_t>(d_integral).push<int32_t>(width).push<int32_t>(height);
  dev.launch(mod, "integral_cols", {static_cast<uint32_t>((width + 1 + 127) / 128), 1, 1}, {128, 1, 1}, cols);

  // Detector.
  uint64_t d_features = dev.upload(features), d_stages = dev.upload(stages);
  uint64_t d_passed = dev.malloc(num_windows * sizeof(int32_t));
  runtime::KernelArgs detect;
  detect.push<uint64_t>(d_integral).push<int32_t>(width).push<uint64_t>(d_features).push<uint64_t>(d_stages);
  detect.push<int32_t>(static_cast<int32_t>(features.size())).push<int32_t>(static_cast<int32_t>(stages.size()));
  detect.push<int32_t>(windows_x).push<int32_t>(windows_y).push<int32_t>(step).push<uint64_t>(d_passed);
  const uint32_t block = 128;
  dev.launch(mod, "cascade_detect", {(num_windows + block - 1) / block, 1, 1}, {block, 1, 1}, detect);

  Result ri = compare_exact(dev.download<int32_t>(d_integral, img.integral.size()), img.integral, "integral");
  if (!ri.ok) return ri;
  std::vector<int32_t> want(num_windows);
  for (int w = 0; w < num_windows; ++w) {
    int wx, wy;
    window_pos(w, &wx, &wy);
    int passed = 0;
    for (const Stage& st : stages) {
      if (stage_votes(img, features, st, wx, wy) < st.threshold) break;
      ++passed;
    }
    want[w] = passed;
  }
  Result r = compare_exact(dev.download<int32_t>(d_passed, num_windows), want, "stages_passed");
  if (r.ok) {
    int all = static_cast<int>(std::count(want.begin(), want.end(), static_cast<int32_t>(stages.size())));
    r.message += " (" + std::to_string(all) + " of " + std::to_string(num_windows) + " windows pass all " +
                 std::to_string(stages.size()) + " stages)";
  }
  return r;
}

const bool registered = register_workload(
    {"cascade", WorkloadClass::Divergent,
     "Viola-Jones-style cascade over an integral image, windows rejected at their first failing stage", &run});

}  // namespace
}  // namespace simt::workloads
