// European call and put prices by the Black-Scholes formula, one option per
// loop step (grid-stride). Transcendental-heavy (expf, logf, sqrtf) and
// branch-free apart from the sign fold in the normal CDF.

// Cumulative normal distribution: Abramowitz & Stegun 26.2.17 polynomial.
__device__ float normal_cdf(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f;
  const float inv_sqrt_2pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float cnd = inv_sqrt_2pi * expf(-0.5f * d * d) * poly;
  if (d > 0.0f) cnd = 1.0f - cnd;
  return cnd;
}

extern "C" __global__ void black_scholes(const float* __restrict__ spot, const float* __restrict__ strike,
                                         const float* __restrict__ years, float* __restrict__ call,
                                         float* __restrict__ put, float rate, float volatility, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float s = spot[i], x = strike[i], t = years[i];
    const float sqrt_t = sqrtf(t);
    const float d1 = (logf(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    const float d2 = d1 - volatility * sqrt_t;
    const float cnd1 = normal_cdf(d1), cnd2 = normal_cdf(d2);
    const float discount = expf(-rate * t);
    call[i] = s * cnd1 - x * discount * cnd2;
    put[i] = x * discount * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}
