extern "C" __global__ void __launch_bounds__(128) argmax_rows_kernel(float* x, int* y) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane / 32;
    int mt_w0_0 = mt_warp / 1;
    int mt_b0_0 = (mt_w0_0 * 1 + mt_l0_0) * 1;
    int mt_l0_1 = mt_lane % 32;
    int mt_w0_1 = mt_warp % 1;
    int mt_b0_1 = (mt_w0_1 * 32 + mt_l0_1) * 4;
#line 20 "tests/golden/cuda/kernels/scan.py"
    int v3[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v3[mt_e] = (mt_b0_0 + mt_e * 4);
#line 21 "tests/golden/cuda/kernels/scan.py"
    int v4[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v4[mt_e] = (mt_b0_1 + (mt_e / 4) * 128 + mt_e % 4);
#line 22 "tests/golden/cuda/kernels/scan.py"
    int* v5[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v5[mt_e] = (y + v3[mt_e]);
    int v8[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v8[mt_e] = ((int)(((unsigned)v3[mt_e]) * ((unsigned)256)));
    float* v9[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v9[mt_e] = (x + v8[mt_e]);
    float* v11[16];
    #pragma unroll
    for (int mt_e = 0; mt_e < 16; ++mt_e)
        v11[mt_e] = (v9[(mt_e / 8)] + v4[(mt_e % 8)]);
    float v12[16];
    #pragma unroll
    for (int mt_g = 0; mt_g < 16; mt_g += 4) {
        const int mt_e = mt_g;
        float4 mt_q = *(const float4*)(v11[(mt_e / 8) * 8 + (mt_e % 8)]);
        v12[mt_g + 0] = mt_q.x;
        v12[mt_g + 1] = mt_q.y;
        v12[mt_g + 2] = mt_q.z;
        v12[mt_g + 3] = mt_q.w;
    }
    int v15[16];
    #pragma unroll
    for (int mt_e = 0; mt_e < 16; ++mt_e)
        v15[mt_e] = v4[(mt_e % 8)];
    float mt_in16_0[16];
    #pragma unroll
    for (int mt_e = 0; mt_e < 16; ++mt_e)
        mt_in16_0[mt_e] = v12[(mt_e / 8) * 8 + (mt_e % 8)];
    float v16[2];
    int mt_in16_1[16];
    #pragma unroll
    for (int mt_e = 0; mt_e < 16; ++mt_e)
        mt_in16_1[mt_e] = v15[(mt_e / 8) * 8 + (mt_e % 8)];
    int v17[2];
    #pragma unroll
    for (int mt_j = 0; mt_j < 2; ++mt_j) {
        float mt_t16_0;
        int mt_t16_1;
        mt_t16_0 = mt_in16_0[mt_j * 8 + 0];
        mt_t16_1 = mt_in16_1[mt_j * 8 + 0];
        for (int mt_s = 1; mt_s < 8; ++mt_s) {
            {
                bool v22 = (mt_t16_0 > mt_in16_0[mt_j * 8 + mt_s]);
                bool v23 = (mt_t16_0 == mt_in16_0[mt_j * 8 + mt_s]);
                bool v24 = (mt_t16_1 < mt_in16_1[mt_j * 8 + mt_s]);
                bool v25 = (v23 & v24);
                bool v26 = (v22 | v25);
                float v27 = (v26 ? mt_t16_0 : mt_in16_0[mt_j * 8 + mt_s]);
                int v28 = (v26 ? mt_t16_1 : mt_in16_1[mt_j * 8 + mt_s]);
                float mt_y0 = v27;
                int mt_y1 = v28;
                mt_t16_0 = mt_y0;
                mt_t16_1 = mt_y1;
            }
        }
        float mt_o1_16_0 = __shfl_xor_sync(0xffffffffu, mt_t16_0, 1);
        int mt_o1_16_1 = __shfl_xor_sync(0xffffffffu, mt_t16_1, 1);
        {
            bool v22 = (mt_t16_0 > mt_o1_16_0);
            bool v23 = (mt_t16_0 == mt_o1_16_0);
            bool v24 = (mt_t16_1 < mt_o1_16_1);
            bool v25 = (v23 & v24);
            bool v26 = (v22 | v25);
            float v27 = (v26 ? mt_t16_0 : mt_o1_16_0);
            int v28 = (v26 ? mt_t16_1 : mt_o1_16_1);
            float mt_y0 = v27;
            int mt_y1 = v28;
            mt_t16_0 = mt_y0;
            mt_t16_1 = mt_y1;
        }
        float mt_o2_16_0 = __shfl_xor_sync(0xffffffffu, mt_t16_0, 2);
        int mt_o2_16_1 = __shfl_xor_sync(0xffffffffu, mt_t16_1, 2);
        {
            bool v22 = (mt_t16_0 > mt_o2_16_0);
            bool v23 = (mt_t16_0 == mt_o2_16_0);
            bool v24 = (mt_t16_1 < mt_o2_16_1);
            bool v25 = (v23 & v24);
            bool v26 = (v22 | v25);
            float v27 = (v26 ? mt_t16_0 : mt_o2_16_0);
            int v28 = (v26 ? mt_t16_1 : mt_o2_16_1);
            float mt_y0 = v27;
            int mt_y1 = v28;
            mt_t16_0 = mt_y0;
            mt_t16_1 = mt_y1;
        }
        float mt_o4_16_0 = __shfl_xor_sync(0xffffffffu, mt_t16_0, 4);
        int mt_o4_16_1 = __shfl_xor_sync(0xffffffffu, mt_t16_1, 4);
        {
            bool v22 = (mt_t16_0 > mt_o4_16_0);
            bool v23 = (mt_t16_0 == mt_o4_16_0);
            bool v24 = (mt_t16_1 < mt_o4_16_1);
            bool v25 = (v23 & v24);
            bool v26 = (v22 | v25);
            float v27 = (v26 ? mt_t16_0 : mt_o4_16_0);
            int v28 = (v26 ? mt_t16_1 : mt_o4_16_1);
            float mt_y0 = v27;
            int mt_y1 = v28;
            mt_t16_0 = mt_y0;
            mt_t16_1 = mt_y1;
        }
        float mt_o8_16_0 = __shfl_xor_sync(0xffffffffu, mt_t16_0, 8);
        int mt_o8_16_1 = __shfl_xor_sync(0xffffffffu, mt_t16_1, 8);
        {
            bool v22 = (mt_t16_0 > mt_o8_16_0);
            bool v23 = (mt_t16_0 == mt_o8_16_0);
            bool v24 = (mt_t16_1 < mt_o8_16_1);
            bool v25 = (v23 & v24);
            bool v26 = (v22 | v25);
            float v27 = (v26 ? mt_t16_0 : mt_o8_16_0);
            int v28 = (v26 ? mt_t16_1 : mt_o8_16_1);
            float mt_y0 = v27;
            int mt_y1 = v28;
            mt_t16_0 = mt_y0;
            mt_t16_1 = mt_y1;
        }
        float mt_o16_16_0 = __shfl_xor_sync(0xffffffffu, mt_t16_0, 16);
        int mt_o16_16_1 = __shfl_xor_sync(0xffffffffu, mt_t16_1, 16);
        {
            bool v22 = (mt_t16_0 > mt_o16_16_0);
            bool v23 = (mt_t16_0 == mt_o16_16_0);
            bool v24 = (mt_t16_1 < mt_o16_16_1);
            bool v25 = (v23 & v24);
            bool v26 = (v22 | v25);
            float v27 = (v26 ? mt_t16_0 : mt_o16_16_0);
            int v28 = (v26 ? mt_t16_1 : mt_o16_16_1);
            float mt_y0 = v27;
            int mt_y1 = v28;
            mt_t16_0 = mt_y0;
            mt_t16_1 = mt_y1;
        }
        v16[mt_j] = mt_t16_0;
        v17[mt_j] = mt_t16_1;
    }
    #if !defined(__CUDA_ARCH__)
    __syncthreads(); /* every thread's loads before the store (host) */
    #endif
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        if (mt_b0_1 < 1) *v5[mt_e] = v17[mt_e];
}
