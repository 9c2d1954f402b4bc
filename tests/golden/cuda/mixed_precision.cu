extern "C" __global__ void __launch_bounds__(128) mixed_kernel(unsigned short* x_ptr, unsigned short* y_ptr, unsigned short* out_ptr, int n, float scale) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 8;
#line 9 "tests/golden/cuda/kernels/mixed.py"
    int v6 = (int)blockIdx.x;
    int v8 = ((int)(((unsigned)v6) * ((unsigned)1024)));
    int v9[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v9[mt_e] = (mt_b0_0 + mt_e);
    int v10[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v10[mt_e] = ((int)(((unsigned)v8) + ((unsigned)v9[mt_e])));
#line 10 "tests/golden/cuda/kernels/mixed.py"
    bool v11[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v11[mt_e] = (v10[mt_e] < n);
#line 11 "tests/golden/cuda/kernels/mixed.py"
    unsigned short* v12[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v12[mt_e] = (x_ptr + v10[mt_e]);
    unsigned short v14[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 8) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
            mt_all = mt_all && v11[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            uint4 mt_q = *(const uint4*)(v12[mt_e]);
            v14[mt_g + 0] = (unsigned short)(mt_q.x);
            v14[mt_g + 1] = (unsigned short)(mt_q.x >> 16);
            v14[mt_g + 2] = (unsigned short)(mt_q.y);
            v14[mt_g + 3] = (unsigned short)(mt_q.y >> 16);
            v14[mt_g + 4] = (unsigned short)(mt_q.z);
            v14[mt_g + 5] = (unsigned short)(mt_q.z >> 16);
            v14[mt_g + 6] = (unsigned short)(mt_q.w);
            v14[mt_g + 7] = (unsigned short)(mt_q.w >> 16);
        } else {
            unsigned short* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v12[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                v14[mt_e] = (v11[mt_e] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
        }
    }
#line 12 "tests/golden/cuda/kernels/mixed.py"
    unsigned short* v15[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v15[mt_e] = (y_ptr + v10[mt_e]);
    unsigned short v17[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 8) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
            mt_all = mt_all && v11[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            uint4 mt_q = *(const uint4*)(v15[mt_e]);
            v17[mt_g + 0] = (unsigned short)(mt_q.x);
            v17[mt_g + 1] = (unsigned short)(mt_q.x >> 16);
            v17[mt_g + 2] = (unsigned short)(mt_q.y);
            v17[mt_g + 3] = (unsigned short)(mt_q.y >> 16);
            v17[mt_g + 4] = (unsigned short)(mt_q.z);
            v17[mt_g + 5] = (unsigned short)(mt_q.z >> 16);
            v17[mt_g + 6] = (unsigned short)(mt_q.w);
            v17[mt_g + 7] = (unsigned short)(mt_q.w >> 16);
        } else {
            unsigned short* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v15[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                v17[mt_e] = (v11[mt_e] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
        }
    }
#line 13 "tests/golden/cuda/kernels/mixed.py"
    unsigned short v19[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v19[mt_e] = mt_f32_to_f16((mt_f16_to_f32(v14[mt_e]) * mt_f16_to_f32(((unsigned short)0x4000))));
    unsigned short v20[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v20[mt_e] = mt_f32_to_f16((mt_f16_to_f32(v19[mt_e]) + mt_f16_to_f32(mt_f32_to_f16(mt_bf16_to_f32(v17[mt_e])))));
    float v21[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v21[mt_e] = (mt_f16_to_f32(v20[mt_e]) * scale);
#line 14 "tests/golden/cuda/kernels/mixed.py"
    unsigned short* v22[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v22[mt_e] = (out_ptr + v10[mt_e]);
    unsigned short v23[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 2) {
        float mt_pr[2];
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
            mt_pr[mt_e - mt_g] = v21[mt_e];
        const unsigned mt_p = mt_f32x2_to_f16x2(mt_pr[0], mt_pr[1]);
        v23[mt_g] = (unsigned short)mt_p;
        v23[mt_g + 1] = (unsigned short)(mt_p >> 16);
    }
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 8) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
            mt_all = mt_all && v11[mt_e];
        if (mt_all) {
            unsigned short mt_q[8];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                mt_q[mt_e - mt_g] = v23[mt_e];
            {
                const int mt_e = mt_g;
                *(uint4*)(v22[mt_e]) = make_uint4(((unsigned)(unsigned short)mt_q[0] | (unsigned)(unsigned short)mt_q[1] << 16), ((unsigned)(unsigned short)mt_q[2] | (unsigned)(unsigned short)mt_q[3] << 16), ((unsigned)(unsigned short)mt_q[4] | (unsigned)(unsigned short)mt_q[5] << 16), ((unsigned)(unsigned short)mt_q[6] | (unsigned)(unsigned short)mt_q[7] << 16));
            }
        } else {
            unsigned short* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v22[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                if (v11[mt_e]) *(mt_h + (mt_e - mt_g)) = v23[mt_e];
        }
    }
}
