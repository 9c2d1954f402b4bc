# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --num-warps 8 --emit mlir | %FileCheck %s
# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --num-warps 8 --emit mlir | %mlir-opt --verify-each -o /dev/null
# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --backend mlir --emit ptx | %FileCheck %s --check-prefix=PTX
# The original's MLIR module of the masked add (one element per thread):
# memref parameters, the fixed prologue, constants by value, scf.if loads
# yielding the fallback, a masked store.
# CHECK: {{^}}module attributes {gpu.container_module} {
# CHECK-NEXT: {{^}}  gpu.module @kernels {
# CHECK-NEXT: {{^}}    gpu.func @add_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>, %n: i32) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
# CHECK-NEXT: {{^}}      %bid_x = gpu.block_id x
# CHECK-NEXT: {{^}}      %tid_x = gpu.thread_id x
# CHECK-NEXT: {{^}}      %block_id_x = arith.index_cast %bid_x : index to i32
# CHECK-NEXT: {{^}}      %thread_id_x = arith.index_cast %tid_x : index to i32
# CHECK-NEXT: {{^}}      %c_i32_256 = arith.constant 256 : i32
# CHECK-NEXT: {{^}}      %c_f32_0_0 = arith.constant 0.000000e+00 : f32
# CHECK-NEXT: {{^}}      %v1 = arith.muli %block_id_x, %c_i32_256 : i32
# CHECK-NEXT: {{^}}      %v3 = arith.addi %v1, %thread_id_x : i32
# CHECK-NEXT: {{^}}      %v4 = arith.cmpi slt, %v3, %n : i32
# CHECK-NEXT: {{^}}      %idx5 = arith.index_cast %v3 : i32 to index
# CHECK-NEXT: {{^}}      %v6 = scf.if %v4 -> (f32) {
# CHECK-NEXT: {{^}}        %loaded6 = memref.load %x[%idx5] : memref<?xf32>
# CHECK-NEXT: {{^}}        scf.yield %loaded6 : f32
# CHECK-NEXT: {{^}}      } else {
# CHECK-NEXT: {{^}}        scf.yield %c_f32_0_0 : f32
# CHECK-NEXT: {{^}}      }
# CHECK: {{^}}      %v10 = arith.addf %v6, %v8 : f32
# CHECK-NEXT: {{^}}      scf.if %v4 {
# CHECK-NEXT: {{^}}        memref.store %v10, %out[%idx9] : memref<?xf32>
# CHECK-NEXT: {{^}}      }
# CHECK-NEXT: {{^}}      gpu.return
# PTX: .target sm_90
# PTX: .visible .entry add_kernel(
# PTX: ld.global.f32
# PTX: st.global.f32
import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)
