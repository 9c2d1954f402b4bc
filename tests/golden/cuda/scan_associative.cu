extern "C" __global__ void __launch_bounds__(128) affine_scan_kernel(int* a, int* b, int* y) {
    __shared__ __align__(16) long long mt_smem[8];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 4;
#line 32 "tests/golden/cuda/kernels/scan.py"
    int v4[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v4[mt_e] = (mt_b0_0 + mt_e);
#line 33 "tests/golden/cuda/kernels/scan.py"
    int* v5[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v5[mt_e] = (a + v4[mt_e]);
    int v6[4];
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        const int mt_e = mt_g;
        int4 mt_q = *(const int4*)(v5[mt_e]);
        v6[mt_g + 0] = mt_q.x;
        v6[mt_g + 1] = mt_q.y;
        v6[mt_g + 2] = mt_q.z;
        v6[mt_g + 3] = mt_q.w;
    }
    int* v7[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v7[mt_e] = (b + v4[mt_e]);
    int v8[4];
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        const int mt_e = mt_g;
        int4 mt_q = *(const int4*)(v7[mt_e]);
        v8[mt_g + 0] = mt_q.x;
        v8[mt_g + 1] = mt_q.y;
        v8[mt_g + 2] = mt_q.z;
        v8[mt_g + 3] = mt_q.w;
    }
    int v9[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v9[mt_e] = v6[mt_e];
    int v10[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v10[mt_e] = v8[mt_e];
    #pragma unroll
    for (int mt_j = 0; mt_j < 1; ++mt_j) {
        for (int mt_q = 0; mt_q < 1; ++mt_q) {
            const int mt_r = 0 - mt_q;
            for (int mt_s = 2; mt_s >= 0; --mt_s) {
                {
#line 27 "tests/golden/cuda/kernels/scan.py"
                    int v15 = ((int)(((unsigned)v9[mt_r * 4 + mt_s + 1]) * ((unsigned)v9[mt_r * 4 + mt_s])));
                    int v16 = ((int)(((unsigned)v10[mt_r * 4 + mt_s + 1]) * ((unsigned)v9[mt_r * 4 + mt_s])));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)v10[mt_r * 4 + mt_s])));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    v9[mt_r * 4 + mt_s] = mt_y0;
                    v10[mt_r * 4 + mt_s] = mt_y1;
                }
            }
            int mt_t9_0;
            int mt_t9_1;
            mt_t9_0 = v9[mt_r * 4 + 0];
            mt_t9_1 = v10[mt_r * 4 + 0];
            bool mt_hl9 = false;
            int mt_x9_0;
            int mt_x9_1;
            int mt_o1_9_0 = __shfl_xor_sync(0xffffffffu, mt_t9_0, 1);
            int mt_o1_9_1 = __shfl_xor_sync(0xffffffffu, mt_t9_1, 1);
            if ((mt_l0_0 & 1) == 0) {
                if (mt_hl9) {
                    {
                        int v15 = ((int)(((unsigned)mt_o1_9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_o1_9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_x9_0 = mt_y0;
                        mt_x9_1 = mt_y1;
                    }
                } else {
                    mt_x9_0 = mt_o1_9_0;
                    mt_x9_1 = mt_o1_9_1;
                    mt_hl9 = true;
                }
                {
                    int v15 = ((int)(((unsigned)mt_o1_9_0) * ((unsigned)mt_t9_0)));
                    int v16 = ((int)(((unsigned)mt_o1_9_1) * ((unsigned)mt_t9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_t9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            } else {
                {
                    int v15 = ((int)(((unsigned)mt_t9_0) * ((unsigned)mt_o1_9_0)));
                    int v16 = ((int)(((unsigned)mt_t9_1) * ((unsigned)mt_o1_9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_o1_9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            }
            int mt_o2_9_0 = __shfl_xor_sync(0xffffffffu, mt_t9_0, 2);
            int mt_o2_9_1 = __shfl_xor_sync(0xffffffffu, mt_t9_1, 2);
            if ((mt_l0_0 & 2) == 0) {
                if (mt_hl9) {
                    {
                        int v15 = ((int)(((unsigned)mt_o2_9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_o2_9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_x9_0 = mt_y0;
                        mt_x9_1 = mt_y1;
                    }
                } else {
                    mt_x9_0 = mt_o2_9_0;
                    mt_x9_1 = mt_o2_9_1;
                    mt_hl9 = true;
                }
                {
                    int v15 = ((int)(((unsigned)mt_o2_9_0) * ((unsigned)mt_t9_0)));
                    int v16 = ((int)(((unsigned)mt_o2_9_1) * ((unsigned)mt_t9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_t9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            } else {
                {
                    int v15 = ((int)(((unsigned)mt_t9_0) * ((unsigned)mt_o2_9_0)));
                    int v16 = ((int)(((unsigned)mt_t9_1) * ((unsigned)mt_o2_9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_o2_9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            }
            int mt_o4_9_0 = __shfl_xor_sync(0xffffffffu, mt_t9_0, 4);
            int mt_o4_9_1 = __shfl_xor_sync(0xffffffffu, mt_t9_1, 4);
            if ((mt_l0_0 & 4) == 0) {
                if (mt_hl9) {
                    {
                        int v15 = ((int)(((unsigned)mt_o4_9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_o4_9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_x9_0 = mt_y0;
                        mt_x9_1 = mt_y1;
                    }
                } else {
                    mt_x9_0 = mt_o4_9_0;
                    mt_x9_1 = mt_o4_9_1;
                    mt_hl9 = true;
                }
                {
                    int v15 = ((int)(((unsigned)mt_o4_9_0) * ((unsigned)mt_t9_0)));
                    int v16 = ((int)(((unsigned)mt_o4_9_1) * ((unsigned)mt_t9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_t9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            } else {
                {
                    int v15 = ((int)(((unsigned)mt_t9_0) * ((unsigned)mt_o4_9_0)));
                    int v16 = ((int)(((unsigned)mt_t9_1) * ((unsigned)mt_o4_9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_o4_9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            }
            int mt_o8_9_0 = __shfl_xor_sync(0xffffffffu, mt_t9_0, 8);
            int mt_o8_9_1 = __shfl_xor_sync(0xffffffffu, mt_t9_1, 8);
            if ((mt_l0_0 & 8) == 0) {
                if (mt_hl9) {
                    {
                        int v15 = ((int)(((unsigned)mt_o8_9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_o8_9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_x9_0 = mt_y0;
                        mt_x9_1 = mt_y1;
                    }
                } else {
                    mt_x9_0 = mt_o8_9_0;
                    mt_x9_1 = mt_o8_9_1;
                    mt_hl9 = true;
                }
                {
                    int v15 = ((int)(((unsigned)mt_o8_9_0) * ((unsigned)mt_t9_0)));
                    int v16 = ((int)(((unsigned)mt_o8_9_1) * ((unsigned)mt_t9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_t9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            } else {
                {
                    int v15 = ((int)(((unsigned)mt_t9_0) * ((unsigned)mt_o8_9_0)));
                    int v16 = ((int)(((unsigned)mt_t9_1) * ((unsigned)mt_o8_9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_o8_9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            }
            int mt_o16_9_0 = __shfl_xor_sync(0xffffffffu, mt_t9_0, 16);
            int mt_o16_9_1 = __shfl_xor_sync(0xffffffffu, mt_t9_1, 16);
            if ((mt_l0_0 & 16) == 0) {
                if (mt_hl9) {
                    {
                        int v15 = ((int)(((unsigned)mt_o16_9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_o16_9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_x9_0 = mt_y0;
                        mt_x9_1 = mt_y1;
                    }
                } else {
                    mt_x9_0 = mt_o16_9_0;
                    mt_x9_1 = mt_o16_9_1;
                    mt_hl9 = true;
                }
                {
                    int v15 = ((int)(((unsigned)mt_o16_9_0) * ((unsigned)mt_t9_0)));
                    int v16 = ((int)(((unsigned)mt_o16_9_1) * ((unsigned)mt_t9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_t9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            } else {
                {
                    int v15 = ((int)(((unsigned)mt_t9_0) * ((unsigned)mt_o16_9_0)));
                    int v16 = ((int)(((unsigned)mt_t9_1) * ((unsigned)mt_o16_9_0)));
                    int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_o16_9_1)));
                    int mt_y0 = v15;
                    int mt_y1 = v17;
                    mt_t9_0 = mt_y0;
                    mt_t9_1 = mt_y1;
                }
            }
            if (mt_l0_0 == 0) {
                (*(int*)&mt_smem[mt_w0_0]) = mt_t9_0;
                (*(int*)&mt_smem[(1 + 0) * 4 + mt_w0_0]) = mt_t9_1;
            }
            __syncthreads();
            bool mt_hw9 = false;
            int mt_w9_0;
            int mt_w9_1;
            for (int mt_i = 0; mt_i < 4; ++mt_i) {
                const int mt_wi = (mt_w0_0 & -4) + 3 - mt_i;
                int mt_wv9_0;
                int mt_wv9_1;
                mt_wv9_0 = (*(int*)&mt_smem[mt_wi]);
                mt_wv9_1 = (*(int*)&mt_smem[(1 + 0) * 4 + mt_wi]);
                if (mt_wi > mt_w0_0) {
                    if (mt_hw9) {
                        {
                            int v15 = ((int)(((unsigned)mt_w9_0) * ((unsigned)mt_wv9_0)));
                            int v16 = ((int)(((unsigned)mt_w9_1) * ((unsigned)mt_wv9_0)));
                            int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_wv9_1)));
                            int mt_y0 = v15;
                            int mt_y1 = v17;
                            mt_w9_0 = mt_y0;
                            mt_w9_1 = mt_y1;
                        }
                    } else {
                        mt_w9_0 = mt_wv9_0;
                        mt_w9_1 = mt_wv9_1;
                        mt_hw9 = true;
                    }
                }
            }
            __syncthreads();
            bool mt_h9 = false;
            int mt_p9_0;
            int mt_p9_1;
            if (mt_hw9) {
                if (mt_h9) {
                    {
                        int v15 = ((int)(((unsigned)mt_p9_0) * ((unsigned)mt_w9_0)));
                        int v16 = ((int)(((unsigned)mt_p9_1) * ((unsigned)mt_w9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_w9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_p9_0 = mt_y0;
                        mt_p9_1 = mt_y1;
                    }
                } else {
                    mt_p9_0 = mt_w9_0;
                    mt_p9_1 = mt_w9_1;
                    mt_h9 = true;
                }
            }
            if (mt_hl9) {
                if (mt_h9) {
                    {
                        int v15 = ((int)(((unsigned)mt_p9_0) * ((unsigned)mt_x9_0)));
                        int v16 = ((int)(((unsigned)mt_p9_1) * ((unsigned)mt_x9_0)));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)mt_x9_1)));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        mt_p9_0 = mt_y0;
                        mt_p9_1 = mt_y1;
                    }
                } else {
                    mt_p9_0 = mt_x9_0;
                    mt_p9_1 = mt_x9_1;
                    mt_h9 = true;
                }
            }
            if (mt_h9) {
                for (int mt_s = 0; mt_s < 4; ++mt_s) {
                    {
                        int v15 = ((int)(((unsigned)mt_p9_0) * ((unsigned)v9[mt_r * 4 + mt_s])));
                        int v16 = ((int)(((unsigned)mt_p9_1) * ((unsigned)v9[mt_r * 4 + mt_s])));
                        int v17 = ((int)(((unsigned)v16) + ((unsigned)v10[mt_r * 4 + mt_s])));
                        int mt_y0 = v15;
                        int mt_y1 = v17;
                        v9[mt_r * 4 + mt_s] = mt_y0;
                        v10[mt_r * 4 + mt_s] = mt_y1;
                    }
                }
            }
        }
    }
#line 34 "tests/golden/cuda/kernels/scan.py"
    int* v18[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v18[mt_e] = (y + v4[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 4; mt_g += 4) {
        int mt_q[4];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_q[mt_e - mt_g] = v10[mt_e];
        {
            const int mt_e = mt_g;
            *(int4*)(v18[mt_e]) = make_int4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
        }
    }
}
