extern "C" __global__ void __launch_bounds__(128) cumsum_kernel(float* x, float* y) {
    __shared__ __align__(16) long long mt_smem[4];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 2;
#line 7 "tests/golden/cuda/kernels/scan.py"
    int v3[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v3[mt_e] = (mt_b0_0 + mt_e);
#line 8 "tests/golden/cuda/kernels/scan.py"
    float* v4[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v4[mt_e] = (y + v3[mt_e]);
    float* v5[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v5[mt_e] = (x + v3[mt_e]);
    float v6[2];
    #pragma unroll
    for (int mt_g = 0; mt_g < 2; mt_g += 2) {
        const int mt_e = mt_g;
        float2 mt_q = *(const float2*)(v5[mt_e]);
        v6[mt_g + 0] = mt_q.x;
        v6[mt_g + 1] = mt_q.y;
    }
    float v7[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v7[mt_e] = v6[mt_e];
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        for (int mt_q = 0; mt_q < 1; ++mt_q) {
            const int mt_r = mt_q;
            for (int mt_s = 1; mt_s < 2; ++mt_s) {
                v7[mt_r * 2 + mt_s] = (v7[mt_r * 2 + mt_s - 1] + v7[mt_r * 2 + mt_s]);
            }
            float mt_t7_0;
            mt_t7_0 = v7[mt_r * 2 + 1];
            bool mt_hl7 = false;
            float mt_x7_0;
            float mt_o1_7_0 = __shfl_xor_sync(0xffffffffu, mt_t7_0, 1);
            if ((mt_l0_0 & 1) != 0) {
                if (mt_hl7) {
                    mt_x7_0 = (mt_o1_7_0 + mt_x7_0);
                } else {
                    mt_x7_0 = mt_o1_7_0;
                    mt_hl7 = true;
                }
                mt_t7_0 = (mt_o1_7_0 + mt_t7_0);
            } else {
                mt_t7_0 = (mt_t7_0 + mt_o1_7_0);
            }
            float mt_o2_7_0 = __shfl_xor_sync(0xffffffffu, mt_t7_0, 2);
            if ((mt_l0_0 & 2) != 0) {
                if (mt_hl7) {
                    mt_x7_0 = (mt_o2_7_0 + mt_x7_0);
                } else {
                    mt_x7_0 = mt_o2_7_0;
                    mt_hl7 = true;
                }
                mt_t7_0 = (mt_o2_7_0 + mt_t7_0);
            } else {
                mt_t7_0 = (mt_t7_0 + mt_o2_7_0);
            }
            float mt_o4_7_0 = __shfl_xor_sync(0xffffffffu, mt_t7_0, 4);
            if ((mt_l0_0 & 4) != 0) {
                if (mt_hl7) {
                    mt_x7_0 = (mt_o4_7_0 + mt_x7_0);
                } else {
                    mt_x7_0 = mt_o4_7_0;
                    mt_hl7 = true;
                }
                mt_t7_0 = (mt_o4_7_0 + mt_t7_0);
            } else {
                mt_t7_0 = (mt_t7_0 + mt_o4_7_0);
            }
            float mt_o8_7_0 = __shfl_xor_sync(0xffffffffu, mt_t7_0, 8);
            if ((mt_l0_0 & 8) != 0) {
                if (mt_hl7) {
                    mt_x7_0 = (mt_o8_7_0 + mt_x7_0);
                } else {
                    mt_x7_0 = mt_o8_7_0;
                    mt_hl7 = true;
                }
                mt_t7_0 = (mt_o8_7_0 + mt_t7_0);
            } else {
                mt_t7_0 = (mt_t7_0 + mt_o8_7_0);
            }
            float mt_o16_7_0 = __shfl_xor_sync(0xffffffffu, mt_t7_0, 16);
            if ((mt_l0_0 & 16) != 0) {
                if (mt_hl7) {
                    mt_x7_0 = (mt_o16_7_0 + mt_x7_0);
                } else {
                    mt_x7_0 = mt_o16_7_0;
                    mt_hl7 = true;
                }
                mt_t7_0 = (mt_o16_7_0 + mt_t7_0);
            } else {
                mt_t7_0 = (mt_t7_0 + mt_o16_7_0);
            }
            if (mt_l0_0 == 0) {
                (*(float*)&mt_smem[mt_w0_0]) = mt_t7_0;
            }
            __syncthreads();
            bool mt_hw7 = false;
            float mt_w7_0;
            for (int mt_i = 0; mt_i < 4; ++mt_i) {
                const int mt_wi = (mt_w0_0 & -4) + mt_i;
                float mt_wv7_0;
                mt_wv7_0 = (*(float*)&mt_smem[mt_wi]);
                if (mt_wi < mt_w0_0) {
                    if (mt_hw7) {
                        mt_w7_0 = (mt_w7_0 + mt_wv7_0);
                    } else {
                        mt_w7_0 = mt_wv7_0;
                        mt_hw7 = true;
                    }
                }
            }
            __syncthreads();
            bool mt_h7 = false;
            float mt_p7_0;
            if (mt_hw7) {
                if (mt_h7) {
                    mt_p7_0 = (mt_p7_0 + mt_w7_0);
                } else {
                    mt_p7_0 = mt_w7_0;
                    mt_h7 = true;
                }
            }
            if (mt_hl7) {
                if (mt_h7) {
                    mt_p7_0 = (mt_p7_0 + mt_x7_0);
                } else {
                    mt_p7_0 = mt_x7_0;
                    mt_h7 = true;
                }
            }
            if (mt_h7) {
                for (int mt_s = 0; mt_s < 2; ++mt_s) {
                    v7[mt_r * 2 + mt_s] = (mt_p7_0 + v7[mt_r * 2 + mt_s]);
                }
            }
        }
    }
    #pragma unroll
    for (int mt_g = 0; mt_g < 2; mt_g += 2) {
        float mt_q[2];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
            mt_q[mt_e - mt_g] = v7[mt_e];
        {
            const int mt_e = mt_g;
            *(float2*)(v4[mt_e]) = make_float2(mt_q[0], mt_q[1]);
        }
    }
}
