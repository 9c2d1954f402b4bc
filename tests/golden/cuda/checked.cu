extern "C" __global__ void __launch_bounds__(32) checked_kernel(int* x, int* out, int n, int d) {
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 1;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 2;
#line 8 "tests/golden/cuda/kernels/checked.py"
    int v5 = (int)blockIdx.x;
    mt_check_index((long long)(int)(v5), (long long)(int)(64), '*', -1, "tests/golden/cuda/kernels/checked.py", 8, 12, "checked_kernel");
    int v7 = ((int)(((unsigned)v5) * ((unsigned)64)));
    int v8[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v8[mt_e] = (mt_b0_0 + mt_e);
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_check_index((long long)(int)(v7), (long long)(int)(v8[mt_e]), '+', (mt_b0_0 + mt_e), "tests/golden/cuda/kernels/checked.py", 8, 12, "checked_kernel");
    int v9[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v9[mt_e] = ((int)(((unsigned)v7) + ((unsigned)v8[mt_e])));
#line 9 "tests/golden/cuda/kernels/checked.py"
    bool v10[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v10[mt_e] = (v9[mt_e] < n);
#line 10 "tests/golden/cuda/kernels/checked.py"
    int* v11[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v11[mt_e] = (x + v9[mt_e]);
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        if (v10[mt_e]) mt_check_access((const void *)(v11[mt_e]), 4, 0, (const void *)x, "x", "load", "tests/golden/cuda/kernels/checked.py", 10, 9, "checked_kernel");
    __syncthreads(); /* checked: no thread accesses before all checked */
    int v13[2];
    #pragma unroll
    for (int mt_g = 0; mt_g < 2; mt_g += 2) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            const int mt_e = mt_g;
            int2 mt_q = *(const int2*)(v11[mt_e]);
            v13[mt_g + 0] = mt_q.x;
            v13[mt_g + 1] = mt_q.y;
        } else {
            int* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v11[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
                v13[mt_e] = (v10[mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0);
        }
    }
#line 11 "tests/golden/cuda/kernels/checked.py"
    int* v14[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v14[mt_e] = (out + v9[mt_e]);
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        mt_check_div(d, (mt_b0_0 + mt_e), "//", "tests/golden/cuda/kernels/checked.py", 11, 26, "checked_kernel");
    int v15[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v15[mt_e] = mt_div(v13[mt_e], d);
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        if (v10[mt_e]) mt_check_access((const void *)(v14[mt_e]), 4, 1, (const void *)out, "out", "store", "tests/golden/cuda/kernels/checked.py", 11, 5, "checked_kernel");
    __syncthreads(); /* checked: no thread accesses before all checked */
    #pragma unroll
    for (int mt_g = 0; mt_g < 2; mt_g += 2) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
            mt_all = mt_all && v10[mt_e];
        if (mt_all) {
            int mt_q[2];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
                mt_q[mt_e - mt_g] = v15[mt_e];
            {
                const int mt_e = mt_g;
                *(int2*)(v14[mt_e]) = make_int2(mt_q[0], mt_q[1]);
            }
        } else {
            int* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v14[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 2; ++mt_e)
                if (v10[mt_e]) *(mt_h + (mt_e - mt_g)) = v15[mt_e];
        }
    }
}
