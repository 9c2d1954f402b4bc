extern "C" __global__ void __launch_bounds__(128) add_kernel(float* x, float* y, float* out, int n) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 4;
#line 8 "tests/golden/cuda/kernels/add.py"
    int v5 = (int)blockIdx.x;
    int v7 = ((int)(((unsigned)v5) * ((unsigned)1024)));
    int v8[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v8[mt_e] = (mt_b0_0 + (mt_e / 4) * 512 + mt_e % 4);
    int v9[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v9[mt_e] = ((int)(((unsigned)v7) + ((unsigned)v8[mt_e])));
#line 9 "tests/golden/cuda/kernels/add.py"
    bool v10[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v10[mt_e] = (v9[mt_e] < n);
#line 10 "tests/golden/cuda/kernels/add.py"
    float* v11[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v11[mt_e] = (x + v9[mt_e]);
    float v13[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = *(const float4*)(v11[mt_e]);
            v13[mt_g + 0] = mt_q.x;
            v13[mt_g + 1] = mt_q.y;
            v13[mt_g + 2] = mt_q.z;
            v13[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v11[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v13[mt_e] = (v10[mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
        }
    }
#line 11 "tests/golden/cuda/kernels/add.py"
    float* v14[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v14[mt_e] = (y + v9[mt_e]);
    float v15[8];
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            float4 mt_q = *(const float4*)(v14[mt_e]);
            v15[mt_g + 0] = mt_q.x;
            v15[mt_g + 1] = mt_q.y;
            v15[mt_g + 2] = mt_q.z;
            v15[mt_g + 3] = mt_q.w;
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v14[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                v15[mt_e] = (v10[mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
        }
    }
#line 12 "tests/golden/cuda/kernels/add.py"
    float* v16[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v16[mt_e] = (out + v9[mt_e]);
    float v17[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v17[mt_e] = (v13[mt_e] + v15[mt_e]);
    #pragma unroll
    for (int mt_g = 0; mt_g < 8; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = v17[mt_e];
            {
                const int mt_e = mt_g;
                *(float4*)(v16[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v16[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v10[mt_e]) *(mt_h + (mt_e - mt_g)) = v17[mt_e];
        }
    }
}
