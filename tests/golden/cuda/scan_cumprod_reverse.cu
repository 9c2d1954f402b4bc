extern "C" __global__ void __launch_bounds__(128) cumprod_rows_kernel(float* x, float* y) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane / 16;
    int mt_w0_0 = mt_warp / 1;
    int mt_b0_0 = (mt_w0_0 * 2 + mt_l0_0) * 1;
    int mt_l0_1 = mt_lane % 16;
    int mt_w0_1 = mt_warp % 1;
    int mt_b0_1 = (mt_w0_1 * 16 + mt_l0_1) * 4;
#line 13 "tests/golden/cuda/kernels/scan.py"
    int v3[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v3[mt_e] = mt_b0_0;
#line 14 "tests/golden/cuda/kernels/scan.py"
    int v5[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v5[mt_e] = (mt_b0_1 + mt_e);
#line 15 "tests/golden/cuda/kernels/scan.py"
    int v8[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v8[mt_e] = ((int)(((unsigned)v3[0]) * ((unsigned)64)));
    float* v9[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v9[mt_e] = (y + v8[0]);
    float* v10[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v10[mt_e] = (v9[0] + v5[mt_e]);
    float* v12[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v12[mt_e] = (x + v8[0]);
    float* v13[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v13[mt_e] = (v12[0] + v5[mt_e]);
    float v14[4];
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        const int mt_e = mt_g;
        float4 mt_q = *(const float4*)(v13[0 * 4 + mt_e]);
        v14[mt_g + 0] = mt_q.x;
        v14[mt_g + 1] = mt_q.y;
        v14[mt_g + 2] = mt_q.z;
        v14[mt_g + 3] = mt_q.w;
    }
    float v15[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v15[mt_e] = v14[0 * 4 + mt_e];
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        for (int mt_q = 0; mt_q < 1; ++mt_q) {
            const int mt_r = 0 - mt_q;
            for (int mt_s = 2; mt_s >= 0; --mt_s) {
                v15[mt_j * 4 + mt_r * 4 + mt_s] = (v15[mt_j * 4 + mt_r * 4 + mt_s + 1] * v15[mt_j * 4 + mt_r * 4 + mt_s]);
            }
            float mt_t15_0;
            mt_t15_0 = v15[mt_j * 4 + mt_r * 4 + 0];
            bool mt_hl15 = false;
            float mt_x15_0;
            float mt_o1_15_0 = __shfl_xor_sync(0xffffffffu, mt_t15_0, 1);
            if ((mt_l0_1 & 1) == 0) {
                if (mt_hl15) {
                    mt_x15_0 = (mt_o1_15_0 * mt_x15_0);
                } else {
                    mt_x15_0 = mt_o1_15_0;
                    mt_hl15 = true;
                }
                mt_t15_0 = (mt_o1_15_0 * mt_t15_0);
            } else {
                mt_t15_0 = (mt_t15_0 * mt_o1_15_0);
            }
            float mt_o2_15_0 = __shfl_xor_sync(0xffffffffu, mt_t15_0, 2);
            if ((mt_l0_1 & 2) == 0) {
                if (mt_hl15) {
                    mt_x15_0 = (mt_o2_15_0 * mt_x15_0);
                } else {
                    mt_x15_0 = mt_o2_15_0;
                    mt_hl15 = true;
                }
                mt_t15_0 = (mt_o2_15_0 * mt_t15_0);
            } else {
                mt_t15_0 = (mt_t15_0 * mt_o2_15_0);
            }
            float mt_o4_15_0 = __shfl_xor_sync(0xffffffffu, mt_t15_0, 4);
            if ((mt_l0_1 & 4) == 0) {
                if (mt_hl15) {
                    mt_x15_0 = (mt_o4_15_0 * mt_x15_0);
                } else {
                    mt_x15_0 = mt_o4_15_0;
                    mt_hl15 = true;
                }
                mt_t15_0 = (mt_o4_15_0 * mt_t15_0);
            } else {
                mt_t15_0 = (mt_t15_0 * mt_o4_15_0);
            }
            float mt_o8_15_0 = __shfl_xor_sync(0xffffffffu, mt_t15_0, 8);
            if ((mt_l0_1 & 8) == 0) {
                if (mt_hl15) {
                    mt_x15_0 = (mt_o8_15_0 * mt_x15_0);
                } else {
                    mt_x15_0 = mt_o8_15_0;
                    mt_hl15 = true;
                }
                mt_t15_0 = (mt_o8_15_0 * mt_t15_0);
            } else {
                mt_t15_0 = (mt_t15_0 * mt_o8_15_0);
            }
            bool mt_h15 = false;
            float mt_p15_0;
            if (mt_hl15) {
                if (mt_h15) {
                    mt_p15_0 = (mt_p15_0 * mt_x15_0);
                } else {
                    mt_p15_0 = mt_x15_0;
                    mt_h15 = true;
                }
            }
            if (mt_h15) {
                for (int mt_s = 0; mt_s < 4; ++mt_s) {
                    v15[mt_j * 4 + mt_r * 4 + mt_s] = (mt_p15_0 * v15[mt_j * 4 + mt_r * 4 + mt_s]);
                }
            }
        }
    }
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        float mt_q[4];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_q[mt_e - mt_g] = v15[0 * 4 + mt_e];
        {
            const int mt_e = mt_g;
            *(float4*)(v10[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
        }
    }
}
