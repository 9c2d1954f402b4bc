extern "C" __global__ void __launch_bounds__(128) softmax_kernel(float* out, float* x, int stride) {
    __shared__ __align__(16) long long mt_smem[2];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 4;
#line 8 "tests/golden/cuda/kernels/softmax.py"
    int v4 = (int)blockIdx.x;
#line 9 "tests/golden/cuda/kernels/softmax.py"
    int v5[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v5[mt_e] = (mt_b0_0 + (mt_e / 4) * 512 + mt_e % 4);
#line 10 "tests/golden/cuda/kernels/softmax.py"
    int v6 = ((int)(((unsigned)v4) * ((unsigned)stride)));
    float* v7 = mt_base_ptr(x + v6);
    float* v8[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v8[mt_e] = (v7 + v5[mt_e]);
    float v9[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v8[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = *(const float4*)(v8[mt_e]);
            v9[mt_g + 0] = mt_q.x;
            v9[mt_g + 1] = mt_q.y;
            v9[mt_g + 2] = mt_q.z;
            v9[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v8[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v9[mt_e] = (*(mt_h + (mt_e - mt_g)));
        }
    }
#line 11 "tests/golden/cuda/kernels/softmax.py"
    float mt_p10[1];
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        float mt_r10;
        #pragma unroll
        for (int mt_s = 0; mt_s < 8; ++mt_s)
            mt_r10 = mt_s == 0 ? v9[mt_s] : mt_fmaxnumf(mt_r10, v9[mt_s]);
        float mt_o10_16 = __shfl_xor_sync(0xffffffffu, mt_r10, 16);
        mt_r10 = mt_fmaxnumf(mt_r10, mt_o10_16);
        float mt_o10_8 = __shfl_xor_sync(0xffffffffu, mt_r10, 8);
        mt_r10 = mt_fmaxnumf(mt_r10, mt_o10_8);
        float mt_o10_4 = __shfl_xor_sync(0xffffffffu, mt_r10, 4);
        mt_r10 = mt_fmaxnumf(mt_r10, mt_o10_4);
        float mt_o10_2 = __shfl_xor_sync(0xffffffffu, mt_r10, 2);
        mt_r10 = mt_fmaxnumf(mt_r10, mt_o10_2);
        float mt_o10_1 = __shfl_xor_sync(0xffffffffu, mt_r10, 1);
        mt_r10 = mt_fmaxnumf(mt_r10, mt_o10_1);
        mt_p10[mt_j] = mt_r10;
    }
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j)
        if (mt_l0_0 == 0) ((float*)mt_smem)[mt_w0_0] = mt_p10[mt_j];
    __syncthreads();
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        float mt_t10[4];
        #pragma unroll
        for (int mt_w = 0; mt_w < 4; ++mt_w)
            mt_t10[mt_w] = ((float*)mt_smem)[mt_w];
        mt_t10[0] = mt_fmaxnumf(mt_t10[0], mt_t10[2]);
        mt_t10[1] = mt_fmaxnumf(mt_t10[1], mt_t10[3]);
        mt_t10[0] = mt_fmaxnumf(mt_t10[0], mt_t10[1]);
        mt_p10[mt_j] = mt_t10[0];
    }
    __syncthreads();
    float v10 = mt_p10[0];
    float v11[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v11[mt_e] = (v9[mt_e] - v10);
#line 12 "tests/golden/cuda/kernels/softmax.py"
    float v12[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v12[mt_e] = mt_expf(v11[mt_e]);
#line 13 "tests/golden/cuda/kernels/softmax.py"
    float* v14 = mt_base_ptr(out + v6);
    float* v15[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v15[mt_e] = (v14 + v5[mt_e]);
    float mt_p16[1];
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        float mt_r16;
        #pragma unroll
        for (int mt_s = 0; mt_s < 8; ++mt_s)
            mt_r16 = mt_s == 0 ? v12[mt_s] : mt_r16 + v12[mt_s];
        float mt_o16_16 = __shfl_xor_sync(0xffffffffu, mt_r16, 16);
        mt_r16 = mt_r16 + mt_o16_16;
        float mt_o16_8 = __shfl_xor_sync(0xffffffffu, mt_r16, 8);
        mt_r16 = mt_r16 + mt_o16_8;
        float mt_o16_4 = __shfl_xor_sync(0xffffffffu, mt_r16, 4);
        mt_r16 = mt_r16 + mt_o16_4;
        float mt_o16_2 = __shfl_xor_sync(0xffffffffu, mt_r16, 2);
        mt_r16 = mt_r16 + mt_o16_2;
        float mt_o16_1 = __shfl_xor_sync(0xffffffffu, mt_r16, 1);
        mt_r16 = mt_r16 + mt_o16_1;
        mt_p16[mt_j] = mt_r16;
    }
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j)
        if (mt_l0_0 == 0) ((float*)mt_smem)[mt_w0_0] = mt_p16[mt_j];
    __syncthreads();
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        float mt_t16[4];
        #pragma unroll
        for (int mt_w = 0; mt_w < 4; ++mt_w)
            mt_t16[mt_w] = ((float*)mt_smem)[mt_w];
        mt_t16[0] = mt_t16[0] + mt_t16[2];
        mt_t16[1] = mt_t16[1] + mt_t16[3];
        mt_t16[0] = mt_t16[0] + mt_t16[1];
        mt_p16[mt_j] = mt_t16[0];
    }
    __syncthreads();
    float v16 = mt_p16[0];
    float v17[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v17[mt_e] = mt_divf(v12[mt_e], v16);
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v15[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v17[mt_e];
            {
                const int mt_e = mt_g;
                *(float4*)(v15[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v15[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                *(mt_h + (mt_e - mt_g)) = v17[mt_e];
        }
    }
}
