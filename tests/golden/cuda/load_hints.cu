extern "C" __global__ void __launch_bounds__(128) hints_kernel(float* x, float* y, float* out, int n) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 4;
#line 19 "tests/lit/ssa/load_hints_kernel.py"
    int v5 = (int)blockIdx.x;
    int v7 = ((int)(((unsigned)v5) * ((unsigned)1024)));
    int v8[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v8[mt_e] = (mt_b0_0 + (mt_e / 4) * 512 + mt_e % 4);
    int v9[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v9[mt_e] = ((int)(((unsigned)v7) + ((unsigned)v8[mt_e])));
#line 20 "tests/lit/ssa/load_hints_kernel.py"
    bool v10[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v10[mt_e] = (v9[mt_e] < n);
#line 21 "tests/lit/ssa/load_hints_kernel.py"
    float* v11[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v11[mt_e] = (x + v9[mt_e]);
    float v12[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = __ldcg((const float4*)(v11[mt_e]));
            v12[mt_g + 0] = mt_q.x;
            v12[mt_g + 1] = mt_q.y;
            v12[mt_g + 2] = mt_q.z;
            v12[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v11[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v12[mt_e] = (v10[mt_e] ? __ldcg((mt_h + (mt_e - mt_g))) : 0.0f);
        }
    }
#line 22 "tests/lit/ssa/load_hints_kernel.py"
    float* v13[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v13[mt_e] = (y + v9[mt_e]);
    float v14[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = __ldcs((const float4*)(v13[mt_e]));
            v14[mt_g + 0] = mt_q.x;
            v14[mt_g + 1] = mt_q.y;
            v14[mt_g + 2] = mt_q.z;
            v14[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v13[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v14[mt_e] = (v10[mt_e] ? __ldcs((mt_h + (mt_e - mt_g))) : 0.0f);
        }
    }
#line 23 "tests/lit/ssa/load_hints_kernel.py"
    float v16[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v16[mt_e] = (v10[mt_e] ? (*((const volatile float*)v11[mt_e])) : 0.0f);
#line 24 "tests/lit/ssa/load_hints_kernel.py"
    float v18[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = __ldcv((const float4*)(v13[mt_e]));
            v18[mt_g + 0] = mt_q.x;
            v18[mt_g + 1] = mt_q.y;
            v18[mt_g + 2] = mt_q.z;
            v18[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v13[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v18[mt_e] = (v10[mt_e] ? __ldcv((mt_h + (mt_e - mt_g))) : 0.0f);
        }
    }
#line 25 "tests/lit/ssa/load_hints_kernel.py"
    float* v19[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v19[mt_e] = (out + v9[mt_e]);
    float v20[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v20[mt_e] = (v12[mt_e] + v14[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v20[mt_e];
            {
                const int mt_e = mt_g;
                __stcs((float4*)(v19[mt_e]), make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]));
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v19[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v10[mt_e]) __stcs((mt_h + (mt_e - mt_g)), v20[mt_e]);
        }
    }
#line 26 "tests/lit/ssa/load_hints_kernel.py"
    float* v21 = mt_base_ptr(out + n);
    float* v22[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v22[mt_e] = (v21 + v9[mt_e]);
    float v23[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v23[mt_e] = (v16[mt_e] + v18[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v22[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v23[mt_e];
            {
                const int mt_e = mt_g;
                __stcs((float4*)(v22[mt_e]), make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]));
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v22[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v10[mt_e]) __stcs((mt_h + (mt_e - mt_g)), v23[mt_e]);
        }
    }
#line 27 "tests/lit/ssa/load_hints_kernel.py"
    int v25 = ((int)(((unsigned)2) * ((unsigned)n)));
    float* v26 = mt_base_ptr(out + v25);
    float* v27[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v27[mt_e] = (v26 + v9[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v27[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v12[mt_e];
            {
                const int mt_e = mt_g;
                __stwt((float4*)(v27[mt_e]), make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]));
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v27[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v10[mt_e]) __stwt((mt_h + (mt_e - mt_g)), v12[mt_e]);
        }
    }
#line 28 "tests/lit/ssa/load_hints_kernel.py"
    float v28 = __ldca(x);
#line 29 "tests/lit/ssa/load_hints_kernel.py"
    int v30 = ((int)(((unsigned)3) * ((unsigned)n)));
    float* v31 = mt_base_ptr(out + v30);
    #if !defined(__CUDA_ARCH__)
    __syncthreads(); /* every thread's loads before the store (host) */
    #endif
    if (threadIdx.x == 0) __stwb(v31, v28);
}
