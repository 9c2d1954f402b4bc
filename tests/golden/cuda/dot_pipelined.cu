extern "C" __global__ void __launch_bounds__(128, 5) matmul_kernel(float* a, float* b, float* c, int M, int N, int K) {
    __shared__ __align__(16) float dot_lhs[2 * 1280];
    __shared__ __align__(16) float dot_rhs[2 * 1024];
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
    int mt_b1_0 = (mt_w1_0 * 4 + mt_l1_0) * 4;
    int mt_l1_1 = mt_lane % 8;
    int mt_w1_1 = mt_warp % 1;
    int mt_b1_1 = (mt_w1_1 * 8 + mt_l1_1) * 4;
    int mt_l2_0 = mt_lane / 16;
    int mt_w2_0 = mt_warp / 1;
    int mt_b2_0 = (mt_w2_0 * 2 + mt_l2_0) * 1;
    int mt_l2_1 = mt_lane % 16;
    int mt_w2_1 = mt_warp % 1;
    int mt_b2_1 = (mt_w2_1 * 16 + mt_l2_1) * 4;
#line 11 "tests/golden/cuda/kernels/matmul.py"
    int v7 = (int)blockIdx.x;
#line 12 "tests/golden/cuda/kernels/matmul.py"
    int v8 = (int)blockIdx.y;
#line 13 "tests/golden/cuda/kernels/matmul.py"
    int v10 = ((int)(((unsigned)v7) * ((unsigned)64)));
    int v11[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v11[mt_e] = (mt_b0_0 + mt_e * 32);
    int v12[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v12[mt_e] = ((int)(((unsigned)v10) + ((unsigned)v11[mt_e])));
#line 14 "tests/golden/cuda/kernels/matmul.py"
    int v13 = ((int)(((unsigned)v8) * ((unsigned)64)));
    int v15[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v15[mt_e] = ((int)(((unsigned)v13) + ((unsigned)v11[mt_e])));
#line 15 "tests/golden/cuda/kernels/matmul.py"
    float v16[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v16[mt_e] = 0.0f;
#line 16 "tests/golden/cuda/kernels/matmul.py"
    float v21[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v21[mt_e] = v16[(mt_e / 8) * 8 + (mt_e % 8)];
    if (0 < K) {
        const int k_base = 0;
#line 17 "tests/golden/cuda/kernels/matmul.py"
        int v22[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v22[mt_e] = (mt_b0_1 + mt_e);
        int v23[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v23[mt_e] = ((int)(((unsigned)k_base) + ((unsigned)v22[mt_e])));
#line 18 "tests/golden/cuda/kernels/matmul.py"
        int v25[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v25[mt_e] = ((int)(((unsigned)v12[mt_e]) * ((unsigned)K)));
        float* v26[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v26[mt_e] = (a + v25[mt_e]);
        float* v28[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v28[mt_e] = (v26[(mt_e / 4)] + v23[(mt_e % 4)]);
#line 19 "tests/golden/cuda/kernels/matmul.py"
        bool v30[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v30[mt_e] = (v12[mt_e] < M);
        bool v32[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v32[mt_e] = (v23[mt_e] < K);
        bool v33[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v33[mt_e] = (v30[(mt_e / 4)] & v32[(mt_e % 4)]);
#line 18 "tests/golden/cuda/kernels/matmul.py"
        float v35[8];
        #pragma unroll
        for (int mt_g = 0; mt_g < 8; mt_g += 4) {
            bool mt_all = true;
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_all = mt_all && v33[(mt_e / 4) * 4 + (mt_e % 4)];
            {
                const int mt_e = mt_g;
                mt_all = mt_all && (((unsigned long long)v28[(mt_e / 4) * 4 + (mt_e % 4)]) & 15ull) == 0;
            }
            if (mt_all) {
                const int mt_e = mt_g;
                float4 mt_q = *(const float4*)(v28[(mt_e / 4) * 4 + (mt_e % 4)]);
                v35[mt_g + 0] = mt_q.x;
                v35[mt_g + 1] = mt_q.y;
                v35[mt_g + 2] = mt_q.z;
                v35[mt_g + 3] = mt_q.w;
            } else {
                float* mt_h;
                {
                    const int mt_e = mt_g;
                    mt_h = v28[(mt_e / 4) * 4 + (mt_e % 4)];
                }
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    v35[mt_e] = (v33[(mt_e / 4) * 4 + (mt_e % 4)] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
            }
        }
#line 20 "tests/golden/cuda/kernels/matmul.py"
        int mt_rc0[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            mt_rc0[mt_e] = (mt_b2_0 + mt_e * 8);
        int mt_rc1[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            mt_rc1[mt_e] = ((int)(((unsigned)k_base) + ((unsigned)mt_rc0[mt_e])));
        int v37[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v37[mt_e] = ((int)(((unsigned)mt_rc1[mt_e]) * ((unsigned)N)));
        float* v38[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v38[mt_e] = (b + v37[mt_e]);
        int mt_rc2[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            mt_rc2[mt_e] = (mt_b2_1 + mt_e);
        int mt_rc3[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            mt_rc3[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc2[mt_e])));
        float* v40[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v40[mt_e] = (v38[(mt_e / 4)] + mt_rc3[(mt_e % 4)]);
#line 21 "tests/golden/cuda/kernels/matmul.py"
        bool v42[2];
        #pragma unroll
        for (int mt_e = 0; mt_e < 2; ++mt_e)
            v42[mt_e] = (mt_rc1[mt_e] < K);
        bool v44[4];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v44[mt_e] = (mt_rc3[mt_e] < N);
        bool v45[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v45[mt_e] = (v42[(mt_e / 4)] & v44[(mt_e % 4)]);
#line 20 "tests/golden/cuda/kernels/matmul.py"
        float v46[8];
        #pragma unroll
        for (int mt_g = 0; mt_g < 8; mt_g += 4) {
            bool mt_all = true;
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_all = mt_all && v45[(mt_e / 4) * 4 + (mt_e % 4)];
            {
                const int mt_e = mt_g;
                mt_all = mt_all && (((unsigned long long)v40[(mt_e / 4) * 4 + (mt_e % 4)]) & 15ull) == 0;
            }
            if (mt_all) {
                const int mt_e = mt_g;
                float4 mt_q = *(const float4*)(v40[(mt_e / 4) * 4 + (mt_e % 4)]);
                v46[mt_g + 0] = mt_q.x;
                v46[mt_g + 1] = mt_q.y;
                v46[mt_g + 2] = mt_q.z;
                v46[mt_g + 3] = mt_q.w;
            } else {
                float* mt_h;
                {
                    const int mt_e = mt_g;
                    mt_h = v40[(mt_e / 4) * 4 + (mt_e % 4)];
                }
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    v46[mt_e] = (v45[(mt_e / 4) * 4 + (mt_e % 4)] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
            }
        }
        #pragma unroll
        for (int mt_g = 0; mt_g < 8; mt_g += 4) {
            const int mt_e = mt_g;
            *(float4*)&dot_lhs[(mt_b0_0 + (mt_e / 4) * 32) * 20 + (mt_b0_1 + (mt_e % 4))] = make_float4(v35[mt_g], v35[mt_g + 1], v35[mt_g + 2], v35[mt_g + 3]);
        }
        #pragma unroll
        for (int mt_g = 0; mt_g < 8; mt_g += 4) {
            const int mt_e = mt_g;
            *(float4*)&dot_rhs[(mt_b2_0 + (mt_e / 4) * 8) * 64 + (mt_b2_1 + (mt_e % 4))] = make_float4(v46[mt_g], v46[mt_g + 1], v46[mt_g + 2], v46[mt_g + 3]);
        }
    }
    __syncthreads();
    for (int k_base = 0; k_base < K; k_base += 16) {
        int dot_stage = (k_base / 16) & 1;
        const bool mt_more = k_base + 16 < K;
        float mt_na[8];
        float mt_nb[8];
        if (mt_more) {
            const int mt_k_next = k_base + 16;
#line 17 "tests/golden/cuda/kernels/matmul.py"
            int v22[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                v22[mt_e] = (mt_b0_1 + mt_e);
            int v23[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                v23[mt_e] = ((int)(((unsigned)mt_k_next) + ((unsigned)v22[mt_e])));
#line 18 "tests/golden/cuda/kernels/matmul.py"
            int v25[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v25[mt_e] = ((int)(((unsigned)v12[mt_e]) * ((unsigned)K)));
            float* v26[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v26[mt_e] = (a + v25[mt_e]);
            float* v28[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v28[mt_e] = (v26[(mt_e / 4)] + v23[(mt_e % 4)]);
#line 19 "tests/golden/cuda/kernels/matmul.py"
            bool v30[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v30[mt_e] = (v12[mt_e] < M);
            bool v32[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                v32[mt_e] = (v23[mt_e] < K);
            bool v33[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v33[mt_e] = (v30[(mt_e / 4)] & v32[(mt_e % 4)]);
#line 18 "tests/golden/cuda/kernels/matmul.py"
            float v35[8];
            #pragma unroll
            for (int mt_g = 0; mt_g < 8; mt_g += 4) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    mt_all = mt_all && v33[(mt_e / 4) * 4 + (mt_e % 4)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v28[(mt_e / 4) * 4 + (mt_e % 4)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    float4 mt_q = *(const float4*)(v28[(mt_e / 4) * 4 + (mt_e % 4)]);
                    v35[mt_g + 0] = mt_q.x;
                    v35[mt_g + 1] = mt_q.y;
                    v35[mt_g + 2] = mt_q.z;
                    v35[mt_g + 3] = mt_q.w;
                } else {
                    float* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v28[(mt_e / 4) * 4 + (mt_e % 4)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                        v35[mt_e] = (v33[(mt_e / 4) * 4 + (mt_e % 4)] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
                }
            }
#line 20 "tests/golden/cuda/kernels/matmul.py"
            int mt_rc4[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc4[mt_e] = (mt_b2_0 + mt_e * 8);
            int mt_rc5[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc5[mt_e] = ((int)(((unsigned)mt_k_next) + ((unsigned)mt_rc4[mt_e])));
            int v37[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v37[mt_e] = ((int)(((unsigned)mt_rc5[mt_e]) * ((unsigned)N)));
            float* v38[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v38[mt_e] = (b + v37[mt_e]);
            int mt_rc6[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                mt_rc6[mt_e] = (mt_b2_1 + mt_e);
            int mt_rc7[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                mt_rc7[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc6[mt_e])));
            float* v40[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v40[mt_e] = (v38[(mt_e / 4)] + mt_rc7[(mt_e % 4)]);
#line 21 "tests/golden/cuda/kernels/matmul.py"
            bool v42[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v42[mt_e] = (mt_rc5[mt_e] < K);
            bool v44[4];
            #pragma unroll
            for (int mt_e = 0; mt_e < 4; ++mt_e)
                v44[mt_e] = (mt_rc7[mt_e] < N);
            bool v45[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v45[mt_e] = (v42[(mt_e / 4)] & v44[(mt_e % 4)]);
#line 20 "tests/golden/cuda/kernels/matmul.py"
            float v46[8];
            #pragma unroll
            for (int mt_g = 0; mt_g < 8; mt_g += 4) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                    mt_all = mt_all && v45[(mt_e / 4) * 4 + (mt_e % 4)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v40[(mt_e / 4) * 4 + (mt_e % 4)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    float4 mt_q = *(const float4*)(v40[(mt_e / 4) * 4 + (mt_e % 4)]);
                    v46[mt_g + 0] = mt_q.x;
                    v46[mt_g + 1] = mt_q.y;
                    v46[mt_g + 2] = mt_q.z;
                    v46[mt_g + 3] = mt_q.w;
                } else {
                    float* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v40[(mt_e / 4) * 4 + (mt_e % 4)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                        v46[mt_e] = (v45[(mt_e / 4) * 4 + (mt_e % 4)] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
                }
            }
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_na[mt_e] = v35[mt_e];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_nb[mt_e] = v46[mt_e];
        }
#line 25 "tests/golden/cuda/kernels/matmul.py"
        #pragma unroll
        for (int dot_k = 0; dot_k < 16; dot_k += 4) {
            float mt_fa[16];
            #pragma unroll
            for (int mt_i = 0; mt_i < 4; mt_i += 1) {
                float4 mt_q = *(const float4*)&dot_lhs[dot_stage * 1280 + (mt_b1_0 + mt_i) * 20 + dot_k];
                mt_fa[4 * mt_i] = mt_q.x;
                mt_fa[4 * mt_i + 1] = mt_q.y;
                mt_fa[4 * mt_i + 2] = mt_q.z;
                mt_fa[4 * mt_i + 3] = mt_q.w;
            }
            {
                float mt_fb[8];
                #pragma unroll
                for (int mt_i = 0; mt_i < 8; mt_i += 4) {
                    float4 mt_q = *(const float4*)&dot_rhs[dot_stage * 1024 + (dot_k + 0) * 64 + (mt_b1_1 + (mt_i / 4) * 32 + mt_i % 4)];
                    mt_fb[mt_i] = mt_q.x;
                    mt_fb[mt_i + 1] = mt_q.y;
                    mt_fb[mt_i + 2] = mt_q.z;
                    mt_fb[mt_i + 3] = mt_q.w;
                }
                #pragma unroll
                for (int mt_e = 0; mt_e < 32; ++mt_e)
                    v21[mt_e] += mt_fa[(mt_e / 8) * 4 + 0] * mt_fb[mt_e % 8];
            }
            {
                float mt_fb[8];
                #pragma unroll
                for (int mt_i = 0; mt_i < 8; mt_i += 4) {
                    float4 mt_q = *(const float4*)&dot_rhs[dot_stage * 1024 + (dot_k + 1) * 64 + (mt_b1_1 + (mt_i / 4) * 32 + mt_i % 4)];
                    mt_fb[mt_i] = mt_q.x;
                    mt_fb[mt_i + 1] = mt_q.y;
                    mt_fb[mt_i + 2] = mt_q.z;
                    mt_fb[mt_i + 3] = mt_q.w;
                }
                #pragma unroll
                for (int mt_e = 0; mt_e < 32; ++mt_e)
                    v21[mt_e] += mt_fa[(mt_e / 8) * 4 + 1] * mt_fb[mt_e % 8];
            }
            {
                float mt_fb[8];
                #pragma unroll
                for (int mt_i = 0; mt_i < 8; mt_i += 4) {
                    float4 mt_q = *(const float4*)&dot_rhs[dot_stage * 1024 + (dot_k + 2) * 64 + (mt_b1_1 + (mt_i / 4) * 32 + mt_i % 4)];
                    mt_fb[mt_i] = mt_q.x;
                    mt_fb[mt_i + 1] = mt_q.y;
                    mt_fb[mt_i + 2] = mt_q.z;
                    mt_fb[mt_i + 3] = mt_q.w;
                }
                #pragma unroll
                for (int mt_e = 0; mt_e < 32; ++mt_e)
                    v21[mt_e] += mt_fa[(mt_e / 8) * 4 + 2] * mt_fb[mt_e % 8];
            }
            {
                float mt_fb[8];
                #pragma unroll
                for (int mt_i = 0; mt_i < 8; mt_i += 4) {
                    float4 mt_q = *(const float4*)&dot_rhs[dot_stage * 1024 + (dot_k + 3) * 64 + (mt_b1_1 + (mt_i / 4) * 32 + mt_i % 4)];
                    mt_fb[mt_i] = mt_q.x;
                    mt_fb[mt_i + 1] = mt_q.y;
                    mt_fb[mt_i + 2] = mt_q.z;
                    mt_fb[mt_i + 3] = mt_q.w;
                }
                #pragma unroll
                for (int mt_e = 0; mt_e < 32; ++mt_e)
                    v21[mt_e] += mt_fa[(mt_e / 8) * 4 + 3] * mt_fb[mt_e % 8];
            }
        }
        if (mt_more) {
            #pragma unroll
            for (int mt_g = 0; mt_g < 8; mt_g += 4) {
                const int mt_e = mt_g;
                *(float4*)&dot_lhs[(dot_stage ^ 1) * 1280 + (mt_b0_0 + (mt_e / 4) * 32) * 20 + (mt_b0_1 + (mt_e % 4))] = make_float4(mt_na[mt_g], mt_na[mt_g + 1], mt_na[mt_g + 2], mt_na[mt_g + 3]);
            }
            #pragma unroll
            for (int mt_g = 0; mt_g < 8; mt_g += 4) {
                const int mt_e = mt_g;
                *(float4*)&dot_rhs[(dot_stage ^ 1) * 1024 + (mt_b2_0 + (mt_e / 4) * 8) * 64 + (mt_b2_1 + (mt_e % 4))] = make_float4(mt_nb[mt_g], mt_nb[mt_g + 1], mt_nb[mt_g + 2], mt_nb[mt_g + 3]);
            }
        }
        __syncthreads();
    }
#line 28 "tests/golden/cuda/kernels/matmul.py"
    int mt_rc8[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc8[mt_e] = (mt_b1_0 + mt_e);
    int mt_rc9[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc9[mt_e] = ((int)(((unsigned)v10) + ((unsigned)mt_rc8[mt_e])));
    int v50[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v50[mt_e] = ((int)(((unsigned)mt_rc9[mt_e]) * ((unsigned)N)));
    float* v51[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v51[mt_e] = (c + v50[mt_e]);
    int mt_rc10[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        mt_rc10[mt_e] = (mt_b1_1 + (mt_e / 4) * 32 + mt_e % 4);
    int mt_rc11[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        mt_rc11[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc10[mt_e])));
    float* v53[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v53[mt_e] = (v51[(mt_e / 8)] + mt_rc11[(mt_e % 8)]);
#line 29 "tests/golden/cuda/kernels/matmul.py"
    bool v55[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v55[mt_e] = (mt_rc9[mt_e] < M);
    bool v57[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v57[mt_e] = (mt_rc11[mt_e] < N);
    bool v58[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v58[mt_e] = (v55[(mt_e / 8)] & v57[(mt_e % 8)]);
#line 28 "tests/golden/cuda/kernels/matmul.py"
    #pragma unroll
    for (int mt_g = 0; mt_g < 32; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v58[(mt_e / 8) * 8 + (mt_e % 8)];
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v53[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v21[(mt_e / 8) * 8 + (mt_e % 8)];
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
                if (v58[(mt_e / 8) * 8 + (mt_e % 8)]) *(mt_h + (mt_e - mt_g)) = v21[(mt_e / 8) * 8 + (mt_e % 8)];
        }
    }
}
