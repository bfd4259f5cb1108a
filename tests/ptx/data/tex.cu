__global__ void texk(cudaTextureObject_t tex, float4* out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float4>(tex, x, y);
  float v = tex1Dfetch<float>(tex, x);
  out[0].x += v;
}
