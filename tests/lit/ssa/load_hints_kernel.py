# RUN: %mytriton compile %s --kernel hints_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32,1024' --emit ssa-opt | %FileCheck %s
# cache_modifier=, eviction_policy= and volatile= ride on the load and store
# ops as attributes; only those that are set print.
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, none {cache=cg} : vector<1024 x f32>
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, none {evict=evict_first} : vector<1024 x f32>
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, none {cache=volatile} : vector<1024 x f32>
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, none {cache=cv, evict=evict_last} : vector<1024 x f32>
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {cache=cs}
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {evict=evict_first}
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {cache=wt, evict=evict_last}
# CHECK: load x, none, none {cache=ca} : f32
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}, none {cache=wb}
import mytriton as triton
import mytriton.language as tl


@triton.jit
def hints_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, cache_modifier=".cg")
    b = tl.load(y + offs, mask=mask, eviction_policy="evict_first")
    c = tl.load(x + offs, mask=mask, volatile=True)
    d = tl.load(y + offs, mask=mask, cache_modifier=".cv", eviction_policy="evict_last")
    tl.store(out + offs, a + b, mask=mask, cache_modifier=".cs")
    tl.store(out + n + offs, c + d, mask=mask, eviction_policy="evict_first")
    tl.store(out + 2 * n + offs, a, mask=mask, cache_modifier=".wt", eviction_policy="evict_last")
    s = tl.load(x, cache_modifier=".ca")
    tl.store(out + 3 * n, s, cache_modifier=".wb")
