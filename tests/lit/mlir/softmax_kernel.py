# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,1024' --emit mlir | %FileCheck %s
# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,1024' --emit mlir | %mlir-opt --verify-each -o /dev/null
# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,1024' --backend mlir --emit ptx | %FileCheck %s --check-prefix=PTX
# Row softmax: 8 elements per thread (slots _0.._7), the row max and sum
# as the CUDA reduction (own slots, xor shuffles, the 4 warps' partials in
# workgroup memory between barriers), exp as Triton's ex2.approx.
# CHECK: gpu.func @softmax_kernel({{.*}}) workgroup(%mt_wg0: memref<4xf32, #gpu.address_space<workgroup>>, %mt_wg1: memref<4xf32, #gpu.address_space<workgroup>>) kernel
# CHECK: %c_f32_neg_inf = arith.constant 0xFF800000 : f32
# CHECK: %v{{[0-9]+}}_7 = scf.if
# CHECK: arith.maxnumf
# CHECK: gpu.shuffle xor %{{.*}}, %c_i32_16, %c_i32_32 : f32
# CHECK: gpu.barrier
# CHECK: llvm.inline_asm "ex2.approx.f32 $0, $1;", "=f,f"
# CHECK: llvm.inline_asm "div.full.f32 $0, $1, $2;", "=f,f,f"
# PTX: shfl.sync.bfly.b32
# PTX: bar.sync
# PTX: ex2.approx.f32
import mytriton as triton
import mytriton.language as tl


@triton.jit
def softmax_kernel(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + row * n + offs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + row * n + offs, e / tl.sum(e, axis=0), mask=mask)
