extern "C" __global__ void __launch_bounds__(128) matmul_kernel(float* a, float* b, float* c, int M, int N, int K) {
    __shared__ __align__(16) float dot_lhs[2 * 544];
    __shared__ __align__(16) float dot_rhs[2 * 512];
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
    for (int k_base = 0; k_base < K; k_base += 16) {
        int dot_stage = (k_base / 16) & 1;
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
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v35[mt_e] = (v33[0 * 4 + mt_e] ? (*v28[0 * 4 + mt_e]) : 0.0f);
#line 20 "tests/golden/cuda/kernels/matmul.py"
        int mt_rc0[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            mt_rc0[mt_e] = mt_b1_0;
        int mt_rc1[1];
        #pragma unroll
        for (int mt_e = 0; mt_e < 1; ++mt_e)
            mt_rc1[mt_e] = ((int)(((unsigned)k_base) + ((unsigned)mt_rc0[0])));
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
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            v46[mt_e] = (v45[0 * 4 + mt_e] ? (*v40[0 * 4 + mt_e]) : 0.0f);
#line 25 "tests/golden/cuda/kernels/matmul.py"
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            dot_lhs[dot_stage * 544 + mt_b0_0 * 17 + (mt_b0_1 + mt_e)] = v35[mt_e];
        #pragma unroll
        for (int mt_e = 0; mt_e < 4; ++mt_e)
            dot_rhs[dot_stage * 512 + mt_b1_0 * 32 + (mt_b1_1 + mt_e)] = v46[mt_e];
        __syncthreads();
        float v47[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v47[mt_e] = 0.0f;
        #pragma unroll
        for (int dot_k = 0; dot_k < 16; ++dot_k) {
        #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v47[mt_e] += dot_lhs[dot_stage * 544 + (mt_b1_0 + (mt_e / 4) * 16) * 17 + dot_k] * dot_rhs[dot_stage * 512 + dot_k * 32 + (mt_b1_1 + (mt_e % 4))];
        }
        float v48[8];
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v48[mt_e] = (v21[(mt_e / 4) * 4 + (mt_e % 4)] + v47[(mt_e / 4) * 4 + (mt_e % 4)]);
#line 27 "tests/golden/cuda/kernels/matmul.py"
        float* v49 = mt_base_ptr(c + v7);
        bool v50 = (K < 0);
        if (threadIdx.x == 0 && v50) *v49 = 0.0f;
        #pragma unroll
        for (int mt_e = 0; mt_e < 8; ++mt_e)
            v21[mt_e] = v48[(mt_e / 4) * 4 + (mt_e % 4)];
    }
    __syncthreads();
#line 28 "tests/golden/cuda/kernels/matmul.py"
    int mt_rc4[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_rc4[mt_e] = (mt_b1_0 + mt_e * 16);
    int mt_rc5[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_rc5[mt_e] = ((int)(((unsigned)v10) + ((unsigned)mt_rc4[mt_e])));
    int v52[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v52[mt_e] = ((int)(((unsigned)mt_rc5[mt_e]) * ((unsigned)N)));
    float* v53[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v53[mt_e] = (c + v52[mt_e]);
    int mt_rc6[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc6[mt_e] = (mt_b1_1 + mt_e);
    int mt_rc7[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc7[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc6[mt_e])));
    float* v55[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v55[mt_e] = (v53[(mt_e / 4)] + mt_rc7[(mt_e % 4)]);
#line 29 "tests/golden/cuda/kernels/matmul.py"
    bool v57[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v57[mt_e] = (mt_rc5[mt_e] < M);
    bool v59[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v59[mt_e] = (mt_rc7[mt_e] < N);
    bool v60[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v60[mt_e] = (v57[(mt_e / 4)] & v59[(mt_e % 4)]);
#line 28 "tests/golden/cuda/kernels/matmul.py"
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        if (v60[(mt_e / 4) * 4 + (mt_e % 4)]) *v55[mt_e] = v21[(mt_e / 4) * 4 + (mt_e % 4)];
}
