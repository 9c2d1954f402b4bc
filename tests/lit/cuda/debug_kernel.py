# RUN: %mytriton compile %s --kernel debug_kernel --signature '*i32,*fp16,i32,64' --emit ssa --num-warps 2 | %FileCheck %s --check-prefix=SSA
# RUN: %mytriton compile %s --kernel debug_kernel --signature '*i32,*fp16,i32,64' --emit cuda --num-warps 2 | %FileCheck %s
# RUN: %mytriton compile %s --kernel debug_kernel --signature '*i32,*fp16,i32,64' --emit cuda --num-warps 2 --debug | %FileCheck %s --check-prefix=DEBUG
# tl.device_print, print, tl.static_print and tl.device_assert (tldebug.c,
# cuda_debug.c): Triton's line format; asserts only in debug mode.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def debug_kernel(X, H, n, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_print("BLOCK =", BLOCK, x)
    tl.device_print("x", x, hex=True)
    print("h% ", tl.load(H), n)
    print("done")
    tl.device_print("hf", tl.load(H), hex=True)
    tl.device_assert(x < n, "x < n")
    s = tl.load(X) + n
    tl.store(X + tl.arange(0, BLOCK), x + s)
# static_print writes while the kernel compiles (the CLI: stdout)
# SSA: BLOCK = 64 int32[constexpr[64]]
# SSA: print %2 {prefix=" x: ", hex=1}
# SSA: print %3, n {prefix=" h%: "}
# SSA: print {prefix=" done"}
# SSA-NOT: assert
# CHECK: printf("pid (%u, %u, %u) idx (%2u) x: 0x%08x\n", blockIdx.x, blockIdx.y, blockIdx.z, (unsigned)(mt_b0_0), (int)(v{{[0-9]+}}[0]));
# CHECK: printf("pid (%u, %u, %u) idx () h%%: (operand 0) %f\n", blockIdx.x, blockIdx.y, blockIdx.z, (double)(mt_f16_to_f32(v{{[0-9]+}})));
# CHECK: printf("pid (%u, %u, %u) idx () h%%: (operand 1) %i\n", blockIdx.x, blockIdx.y, blockIdx.z, (int)(n));
# CHECK: printf("pid (%u, %u, %u) done\n", blockIdx.x, blockIdx.y, blockIdx.z);
# CHECK: printf("pid (%u, %u, %u) idx () hf: 0x%04x\n", blockIdx.x, blockIdx.y, blockIdx.z, (unsigned)__double_as_longlong((double)(mt_f16_to_f32(v{{[0-9]+}}))));
# CHECK-NOT: __assertfail
# DEBUG: if (!v{{[0-9]+}}[0])
# DEBUG-NEXT: __assertfail("x < n", "{{.*}}debug_kernel.py", 18, "debug_kernel", sizeof(char));
# DEBUG-NEXT: __syncthreads();
# DEBUG: if (!v{{[0-9]+}})
# DEBUG-NEXT: __assertfail("int32 overflow detected for operation add", "{{.*}}debug_kernel.py", 19, "debug_kernel", sizeof(char));
# DEBUG: __assertfail("int32 overflow detected for operation add", "{{.*}}debug_kernel.py", 20, "debug_kernel", sizeof(char));
