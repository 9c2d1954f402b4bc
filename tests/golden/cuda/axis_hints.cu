extern "C" __global__ void __launch_bounds__(128) wrap_copy_kernel(float* x, float* out, int n, int stride) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 4;
#line 9 "tests/golden/cuda/kernels/axis_hints.py"
    int v5 = (int)blockIdx.x;
#line 10 "tests/golden/cuda/kernels/axis_hints.py"
    int v6 = (int)blockIdx.y;
#line 11 "tests/golden/cuda/kernels/axis_hints.py"
    int v8 = ((int)(((unsigned)v5) * ((unsigned)512)));
    int v9[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v9[mt_e] = (mt_b0_0 + mt_e);
    int v10[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v10[mt_e] = ((int)(((unsigned)v8) + ((unsigned)v9[mt_e])));
    int v11[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v11[mt_e] = mt_rem(v10[mt_e], n);
    int v12[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v12[mt_e] = v11[mt_e];
    int v13[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v13[mt_e] = v12[mt_e];
#line 12 "tests/golden/cuda/kernels/axis_hints.py"
    int v14 = ((int)(((unsigned)v6) * ((unsigned)stride)));
    float* v15 = mt_base_ptr(x + v14);
    float* v16[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v16[mt_e] = (v15 + v13[mt_e]);
    float v17[4];
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        const int mt_e = mt_g;
        float4 mt_q = *(const float4*)(v16[mt_e]);
        v17[mt_g + 0] = mt_q.x;
        v17[mt_g + 1] = mt_q.y;
        v17[mt_g + 2] = mt_q.z;
        v17[mt_g + 3] = mt_q.w;
    }
#line 13 "tests/golden/cuda/kernels/axis_hints.py"
    int v18 = ((int)(((unsigned)v6) * ((unsigned)n)));
    float* v19 = mt_base_ptr(out + v18);
    float* v21 = mt_base_ptr(v19 + v8);
    float* v23[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v23[mt_e] = (v21 + v9[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        float mt_q[4];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_q[mt_e - mt_g] = v17[mt_e];
        {
            const int mt_e = mt_g;
            *(float4*)(v23[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
        }
    }
}
