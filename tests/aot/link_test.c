/* link_test: the dispatcher `mytriton aot-link` writes over three host
 * specialisations of strided_add (stride.py), built by run.sh:
 *   0  s16: "*fp32:16 x3, i32:16 n, i32:1 stride"  (aligned, n % 16 == 0, stride 1)
 *   1  s1:  "*fp32:16 x3, i32 n, i32:1 stride"     (aligned, stride 1)
 *   2  any: no hints
 * Every branch is taken: strided_add_select names the expected one, the
 * launch through the dispatcher gives the right sums, and the
 * specialisation one rank more specific refuses the same arguments (so
 * the dispatcher cannot have launched it).  strict (s16 and s1 only)
 * refuses what neither accepts. */
#include "dispatch.h"
#include "strict.h"
#include "s1.h"
#include "s16.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(int cond, const char *what) {
    if (!cond) {
        fprintf(stderr, "FAILED: %s\n", what);
        failures++;
    }
}

/* One case: n elements, stride, x offset by skew floats (skew 1: not
 * 16-byte aligned). */
static void run_case(int n, int stride, int skew, int want_branch) {
    float *xbuf = malloc(((size_t)n * stride + 4) * sizeof(float));
    float *y = malloc((size_t)n * sizeof(float)), *out = malloc((size_t)n * sizeof(float));
    float *x = xbuf + skew;
    for (int i = 0; i < n * stride; i++)
        x[i] = (float)i;
    for (int i = 0; i < n; i++) {
        y[i] = 0.5f * (float)i;
        out[i] = -1.0f;
    }
    char what[128];
    snprintf(what, sizeof what, "n=%d stride=%d skew=%d: branch %d", n, stride, skew, want_branch);
    int got = strided_add_select(x, y, out, n, stride);
    printf("%s: select says %d\n", what, got);
    expect(got == want_branch, what);
    mt_status st = strided_add(NULL, (unsigned)(n + 255) / 256, 1, 1, x, y, out, n, stride);
    if (st != MT_OK)
        fprintf(stderr, "launch: %s\n", strided_add_errmsg());
    expect(st == MT_OK, "launch through the dispatcher");
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != (float)(i * stride) + 0.5f * (float)i;
    expect(bad == 0, "results");
    /* the more specific specialisation refuses these arguments */
    if (want_branch == 1)
        expect(s16(NULL, 1, 1, 1, x, y, out, n, stride) == MT_ERR_ARG &&
                   strstr(s16_errmsg(), "multiple of 16"),
               "s16 refuses n % 16 != 0");
    if (want_branch == 2)
        expect(s1(NULL, 1, 1, 1, x, y, out, n, stride) == MT_ERR_ARG &&
                   (strstr(s1_errmsg(), "aligned") || strstr(s1_errmsg(), "value 1")),
               "s1 refuses an unaligned x or stride != 1");
    free(xbuf);
    free(y);
    free(out);
}

int main(void) {
    expect(strided_add_load() == MT_OK && strict_load() == MT_OK, "load");
    run_case(1024, 1, 0, 0);
    run_case(1000, 1, 0, 1);
    run_case(1024, 2, 0, 2);
    run_case(1024, 1, 1, 2);
    run_case(1000, 3, 1, 2);
    /* no specialisation of strict accepts stride 2 */
    float buf[64] = {0};
    mt_status st = strict(NULL, 1, 1, 1, buf, buf, buf, 16, 2);
    printf("strict, stride 2: status %d, '%s'\n", (int)st, strict_errmsg());
    expect(st == MT_ERR_ARG && strstr(strict_errmsg(), "no specialisation") != NULL,
           "strict refuses stride 2");
    expect(strict_select(buf, buf, buf, 16, 2) == -1, "strict_select says none");
    /* a message from the chosen specialisation comes through the dispatcher */
    st = strided_add(NULL, 0, 1, 1, buf, buf, buf, 16, 1);
    expect(st == MT_ERR_ARG && strstr(strided_add_errmsg(), "grid") != NULL,
           "grid 0 through the dispatcher");
    expect(strided_add_unload() == MT_OK && strict_unload() == MT_OK, "unload");
    printf("link_test: %s\n", failures ? "FAILED" : "all branches ok");
    return failures != 0;
}
