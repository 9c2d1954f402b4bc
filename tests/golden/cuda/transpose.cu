extern "C" __global__ void __launch_bounds__(128) transpose(float* x_ptr, float* y_ptr, int M, int N) {
    __shared__ __align__(16) long long mt_smem[2080];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane / 16;
    int mt_w0_0 = mt_warp / 1;
    int mt_b0_0 = (mt_w0_0 * 2 + mt_l0_0) * 1;
    int mt_l0_1 = mt_lane % 16;
    int mt_w0_1 = mt_warp % 1;
    int mt_b0_1 = (mt_w0_1 * 16 + mt_l0_1) * 4;
    int mt_l1_0 = mt_lane % 16;
    int mt_w1_0 = mt_warp % 1;
    int mt_b1_0 = (mt_w1_0 * 16 + mt_l1_0) * 4;
    int mt_l1_1 = mt_lane / 16;
    int mt_w1_1 = mt_warp / 1;
    int mt_b1_1 = (mt_w1_1 * 2 + mt_l1_1) * 1;
#line 9 "tests/golden/cuda/kernels/transpose.py"
    int v5 = (int)blockIdx.x;
    int v7 = ((int)(((unsigned)v5) * ((unsigned)64)));
    int v8[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v8[mt_e] = (mt_b0_0 + mt_e * 8);
    int v9[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v9[mt_e] = ((int)(((unsigned)v7) + ((unsigned)v8[mt_e])));
#line 10 "tests/golden/cuda/kernels/transpose.py"
    int v10 = (int)blockIdx.y;
    int v11 = ((int)(((unsigned)v10) * ((unsigned)64)));
    int v13[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v13[mt_e] = ((int)(((unsigned)v11) + ((unsigned)v8[mt_e])));
#line 11 "tests/golden/cuda/kernels/transpose.py"
    int v15[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v15[mt_e] = ((int)(((unsigned)v9[mt_e]) * ((unsigned)N)));
    float* v16[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v16[mt_e] = (x_ptr + v15[mt_e]);
    int mt_rc0[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc0[mt_e] = (mt_b0_1 + mt_e);
    int mt_rc1[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc1[mt_e] = ((int)(((unsigned)v11) + ((unsigned)mt_rc0[mt_e])));
    float* v18[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v18[mt_e] = (v16[(mt_e / 4)] + mt_rc1[(mt_e % 4)]);
    float v19[32];
    #pragma unroll
    for (int mt_g = 0; mt_g < 32; mt_g += 4) {
        const int mt_e = mt_g;
        float4 mt_q = *(const float4*)(v18[(mt_e / 4) * 4 + (mt_e % 4)]);
        v19[mt_g + 0] = mt_q.x;
        v19[mt_g + 1] = mt_q.y;
        v19[mt_g + 2] = mt_q.z;
        v19[mt_g + 3] = mt_q.w;
    }
#line 12 "tests/golden/cuda/kernels/transpose.py"
    int v26[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v26[mt_e] = ((int)(((unsigned)v13[mt_e]) * ((unsigned)M)));
    float* v27[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v27[mt_e] = (y_ptr + v26[mt_e]);
    int mt_rc2[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc2[mt_e] = (mt_b0_1 + mt_e);
    int mt_rc3[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc3[mt_e] = ((int)(((unsigned)v7) + ((unsigned)mt_rc2[mt_e])));
    float* v29[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v29[mt_e] = (v27[(mt_e / 4)] + mt_rc3[(mt_e % 4)]);
    float v30[32];
    v30[0] = v19[0];
    v30[1] = v19[4];
    v30[2] = v19[8];
    v30[3] = v19[12];
    v30[4] = v19[16];
    v30[5] = v19[20];
    v30[6] = v19[24];
    v30[7] = v19[28];
    v30[8] = v19[1];
    v30[9] = v19[5];
    v30[10] = v19[9];
    v30[11] = v19[13];
    v30[12] = v19[17];
    v30[13] = v19[21];
    v30[14] = v19[25];
    v30[15] = v19[29];
    v30[16] = v19[2];
    v30[17] = v19[6];
    v30[18] = v19[10];
    v30[19] = v19[14];
    v30[20] = v19[18];
    v30[21] = v19[22];
    v30[22] = v19[26];
    v30[23] = v19[30];
    v30[24] = v19[3];
    v30[25] = v19[7];
    v30[26] = v19[11];
    v30[27] = v19[15];
    v30[28] = v19[19];
    v30[29] = v19[23];
    v30[30] = v19[27];
    v30[31] = v19[31];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; mt_e += 1) {
        {
            ((float*)mt_smem)[(mt_b1_0 + (mt_e / 8)) * 65 + (mt_b1_1 + (mt_e % 8) * 8)] = v30[mt_e];
        }
    }
    __syncthreads();
    float mt_cv4[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; mt_e += 1) {
        {
            mt_cv4[mt_e] = ((float*)mt_smem)[(mt_b0_0 + (mt_e / 4) * 8) * 65 + (mt_b0_1 + (mt_e % 4))];
        }
    }
    __syncthreads();
    #pragma unroll
    for (int mt_g = 0; mt_g < 32; mt_g += 4) {
        float mt_q[4];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_q[mt_e - mt_g] = mt_cv4[(mt_e / 4) * 4 + (mt_e % 4)];
        {
            const int mt_e = mt_g;
            *(float4*)(v29[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
        }
    }
}
