extern "C" __global__ void __launch_bounds__(128) matmul_kernel(float* a, float* b, float* c, int M, int N, int K) {
    __shared__ __align__(16) float dot_lhs[544];
    __shared__ __align__(16) float dot_rhs[512];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane / 4;
    int mt_w0_0 = mt_warp / 1;
    int mt_b0_0 = (mt_w0_0 * 8 + mt_l0_0) * 1;
    int mt_l0_1 = mt_lane % 4;
    int mt_w0_1 = mt_warp % 1;
    int mt_b0_1 = (mt_w0_1 * 4 + mt_l0_1) * 4;
    int mt_l1_0 = mt_lane / 8;
    int mt_w1_0 = mt_warp / 1;
    int mt_b1_0 = (mt_w1_0 * 4 + mt_l1_0) * 1;
    int mt_l1_1 = mt_lane % 8;
    int mt_w1_1 = mt_warp % 1;
    int mt_b1_1 = (mt_w1_1 * 8 + mt_l1_1) * 4;
#line 11 "tests/golden/cuda/kernels/matmul.py"
    int v7 = (int)blockIdx.x;
#line 12 "tests/golden/cuda/kernels/matmul.py"
    int v8 = (int)blockIdx.y;
#line 13 "tests/golden/cuda/kernels/matmul.py"
    int v10 = ((int)(((unsigned)v7) * ((unsigned)32)));
    int v11[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v11[mt_e] = mt_b0_0;
    int v12[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v12[mt_e] = ((int)(((unsigned)v10) + ((unsigned)v11[0])));
#line 14 "tests/golden/cuda/kernels/matmul.py"
    int v13 = ((int)(((unsigned)v8) * ((unsigned)32)));
    int v15[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v15[mt_e] = ((int)(((unsigned)v13) + ((unsigned)v11[0])));
#line 15 "tests/golden/cuda/kernels/matmul.py"
    float v16[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v16[mt_e] = 0.0f;
#line 16 "tests/golden/cuda/kernels/matmul.py"
    float v21[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v21[mt_e] = v16[(mt_e / 4) * 4 + (mt_e % 4)];
    unsigned mt_trip19 = 0 < K && 16 > 0 ? ((unsigned)K - (unsigned)0 - 1u) / (unsigned)16 + 1u : 0u;
    for (unsigned mt_k19 = 0; mt_k19 < mt_trip19; ++mt_k19) {
        int v19 = (int)((unsigned)0 + mt_k19 * (unsigned)16);
#line 17 "tests/golden/cuda/kernels/matmul.py"
        int v22[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v22[mt_e] = (mt_b0_1 + mt_e);
        int v23[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v23[mt_e] = ((int)(((unsigned)v19) + ((unsigned)v22[mt_e])));
#line 18 "tests/golden/cuda/kernels/matmul.py"
        int v25[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v25[mt_e] = ((int)(((unsigned)v12[0]) * ((unsigned)K)));
        float* v26[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v26[mt_e] = (a + v25[0]);
        float* v28[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v28[mt_e] = (v26[0] + v23[mt_e]);
#line 19 "tests/golden/cuda/kernels/matmul.py"
        bool v30[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v30[mt_e] = (v12[0] < M);
        bool v32[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v32[mt_e] = (v23[mt_e] < K);
        bool v33[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v33[mt_e] = (v30[0] & v32[mt_e]);
#line 18 "tests/golden/cuda/kernels/matmul.py"
        float v35[4];
        #pragma unroll
        for (int mt_g = 0; mt_g < 4; mt_g += 4) {
            bool mt_all = true;
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_all = mt_all && v33[0 * 4 + mt_e];
            {
                const int mt_e = mt_g;
                mt_all = mt_all && (((unsigned long long)v28[0 * 4 + mt_e]) & 15ull) == 0;
            }
            if (mt_all) {
                const int mt_e = mt_g;
                float4 mt_q = *(const float4*)(v28[0 * 4 + mt_e]);
                v35[mt_g + 0] = mt_q.x;
                v35[mt_g + 1] = mt_q.y;
                v35[mt_g + 2] = mt_q.z;
                v35[mt_g + 3] = mt_q.w;
            } else {
                float* mt_h;
                {
                    const int mt_e = mt_g;
                    mt_h = v28[0 * 4 + mt_e];
                }
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    v35[mt_e] = (v33[0 * 4 + mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
            }
        }
#line 20 "tests/golden/cuda/kernels/matmul.py"
        int mt_rc0[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            mt_rc0[mt_e] = mt_b1_0;
        int mt_rc1[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            mt_rc1[mt_e] = ((int)(((unsigned)v19) + ((unsigned)mt_rc0[0])));
        int v37[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v37[mt_e] = ((int)(((unsigned)mt_rc1[0]) * ((unsigned)N)));
        float* v38[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v38[mt_e] = (b + v37[0]);
        int mt_rc2[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            mt_rc2[mt_e] = (mt_b1_1 + mt_e);
        int mt_rc3[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            mt_rc3[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc2[mt_e])));
        float* v40[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v40[mt_e] = (v38[0] + mt_rc3[mt_e]);
#line 21 "tests/golden/cuda/kernels/matmul.py"
        bool v42[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            v42[mt_e] = (mt_rc1[0] < K);
        bool v44[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v44[mt_e] = (mt_rc3[mt_e] < N);
        bool v45[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v45[mt_e] = (v42[0] & v44[mt_e]);
#line 20 "tests/golden/cuda/kernels/matmul.py"
        float v46[4];
        #pragma unroll
        for (int mt_g = 0; mt_g < 4; mt_g += 4) {
            bool mt_all = true;
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_all = mt_all && v45[0 * 4 + mt_e];
            {
                const int mt_e = mt_g;
                mt_all = mt_all && (((unsigned long long)v40[0 * 4 + mt_e]) & 15ull) == 0;
            }
            if (mt_all) {
                const int mt_e = mt_g;
                float4 mt_q = *(const float4*)(v40[0 * 4 + mt_e]);
                v46[mt_g + 0] = mt_q.x;
                v46[mt_g + 1] = mt_q.y;
                v46[mt_g + 2] = mt_q.z;
                v46[mt_g + 3] = mt_q.w;
            } else {
                float* mt_h;
                {
                    const int mt_e = mt_g;
                    mt_h = v40[0 * 4 + mt_e];
                }
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    v46[mt_e] = (v45[0 * 4 + mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
            }
        }
#line 23 "tests/golden/cuda/kernels/matmul.py"
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            dot_lhs[mt_b0_0 * 17 + (mt_b0_1 + mt_e)] = v35[mt_e];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            dot_rhs[mt_b1_0 * 32 + (mt_b1_1 + mt_e)] = v46[mt_e];
        __syncthreads();
        float v47[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v47[mt_e] = 0.0f;
        #pragma unroll
        for (int dot_k = 0; dot_k < 16; ++dot_k) {
        #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v47[mt_e] += dot_lhs[(mt_b1_0 + (mt_e / 4) * 16) * 17 + dot_k] * dot_rhs[dot_k * 32 + (mt_b1_1 + (mt_e % 4))];
        }
        __syncthreads();
        float v48[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v48[mt_e] = (v21[(mt_e / 4) * 4 + (mt_e % 4)] - v47[(mt_e / 4) * 4 + (mt_e % 4)]);
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v21[mt_e] = v48[(mt_e / 4) * 4 + (mt_e % 4)];
    }
#line 28 "tests/golden/cuda/kernels/matmul.py"
    int mt_rc4[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_rc4[mt_e] = (mt_b1_0 + mt_e * 16);
    int mt_rc5[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_rc5[mt_e] = ((int)(((unsigned)v10) + ((unsigned)mt_rc4[mt_e])));
    int v50[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v50[mt_e] = ((int)(((unsigned)mt_rc5[mt_e]) * ((unsigned)N)));
    float* v51[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v51[mt_e] = (c + v50[mt_e]);
    int mt_rc6[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc6[mt_e] = (mt_b1_1 + mt_e);
    int mt_rc7[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc7[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc6[mt_e])));
    float* v53[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v53[mt_e] = (v51[(mt_e / 4)] + mt_rc7[(mt_e % 4)]);
#line 29 "tests/golden/cuda/kernels/matmul.py"
    bool v55[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v55[mt_e] = (mt_rc5[mt_e] < M);
    bool v57[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v57[mt_e] = (mt_rc7[mt_e] < N);
    bool v58[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v58[mt_e] = (v55[(mt_e / 4)] & v57[(mt_e % 4)]);
#line 28 "tests/golden/cuda/kernels/matmul.py"
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v58[(mt_e / 4) * 4 + (mt_e % 4)];
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v53[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v21[(mt_e / 4) * 4 + (mt_e % 4)];
            {
                const int mt_e = mt_g;
                *(float4*)(v53[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v53[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v58[(mt_e / 4) * 4 + (mt_e % 4)]) *(mt_h + (mt_e - mt_g)) = v21[(mt_e / 4) * 4 + (mt_e % 4)];
        }
    }
}
