# The typed SSA of a mixed-precision kernel: Triton's promotion (a float
# literal takes the half tensor's type, f16 with bf16 is f16, an fp32
# scalar makes f32) and the cast to the pointer's element type.
# RUN: %mytriton compile %S/../../golden/cuda/kernels/mixed.py --kernel mixed_kernel --signature '*fp16:16,*bf16:16,*fp16:16,i32,fp32,1024' --emit ssa-opt | %FileCheck --strict-whitespace %s
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, f16(0.0) : vector<1024 x f16>
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, bf16(0.0) : vector<1024 x bf16>
# CHECK: mul %{{[0-9]+}}, f16(2.0) : vector<1024 x f16>
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : vector<1024 x f16>
# CHECK: mul %{{[0-9]+}}, scale : vector<1024 x f32>
# CHECK: cast %{{[0-9]+}} : vector<1024 x f16>
