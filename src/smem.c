/* smem.c: the Version 18 shared-buffer contract (the seed's
 * CudaSharedBuffer).
 *
 * Input: a SharedBuffer describing a logical [rows, columns] tile with a
 * row padding and a stage count.  Output: its physical row stride, stage
 * and total sizes, byte count, and element addresses, both as integers and
 * as C text.  Invariant: every writer and every reader of shared memory in
 * cuda.c (dot tiles, conversion and reduction scratch, all planned by
 * smemplan.c) takes its address from smem_element_text, so the padded
 * stride and the stage offset can never disagree between producer and
 * consumer.
 * Invalid buffers (negative padding, fewer than one stage, non-positive
 * dims) and out-of-range integer coordinates give -1, never an address.
 * A wgmma tile (swizzle > 0) places (row, column) where the instruction
 * reads it: swizzled_index here, the same formula as mt_swz in
 * mt_kernel_rt.h, which its text calls. */
#include "mt.h"

#include <string.h>

static bool buffer_valid(const SharedBuffer *b) {
    return b && b->rows > 0 && b->columns > 0 && b->row_padding >= 0 &&
           b->stage_count >= 1;
}

int smem_row_stride(const SharedBuffer *b) {
    if (!buffer_valid(b))
        return -1;
    return b->columns + b->row_padding;
}

int64_t smem_stage_size(const SharedBuffer *b) {
    if (!buffer_valid(b))
        return -1;
    return (int64_t)b->rows * smem_row_stride(b);
}

int64_t smem_size(const SharedBuffer *b) {
    if (!buffer_valid(b))
        return -1;
    return (int64_t)b->stage_count * smem_stage_size(b);
}

static int64_t elem_size(DType d) { return dtype_info[d].bytes; }

int64_t smem_nbytes(const SharedBuffer *b) {
    if (!buffer_valid(b))
        return -1;
    return smem_size(b) * elem_size(b->elem);
}

/* Element index of (row, col) in one stage of a wgmma tile: with
 * perm_warps W, logical row 8 W r + 8 w + i (w = 4 g + wl) moves to the
 * row the hardware gives lane row i of warp wl in warpgroup g's m64 block
 * r / 2, half r % 2; then column blocks of `swizzle` bytes, and in each
 * row the 16-byte chunks XORed with the address bits 7 and up that the
 * swizzle mode takes. */
static int64_t swizzled_index(const SharedBuffer *b, int row, int col) {
    int W = b->perm_warps, esize = (int)dtype_info[b->elem].bytes;
    if (W) {
        int i = row & 7, w = (row >> 3) % W, r = (row >> 3) / W, groups = W / 4;
        row = (w / 4) * (b->rows / groups) + (r / 2) * 64 + (w % 4) * 16 + (r % 2) * 8 + i;
    }
    int cb = b->swizzle / esize, per = 16 / esize, chunks = cb / per;
    int x = (row * b->swizzle >> 7) & (chunks - 1);
    return (int64_t)(col / cb) * b->rows * cb + (int64_t)row * cb +
           ((col % cb / per) ^ x) * per + col % per;
}

int64_t smem_element(const SharedBuffer *b, int stage, int row, int column) {
    if (!buffer_valid(b) || stage < 0 || stage >= b->stage_count || row < 0 ||
        row >= b->rows || column < 0 || column >= b->columns)
        return -1;
    if (b->swizzle)
        return (int64_t)stage * smem_stage_size(b) + swizzled_index(b, row, column);
    return (int64_t)stage * smem_stage_size(b) +
           (int64_t)row * smem_row_stride(b) + column;
}

/* An operand of * or + needs parentheses unless it is one token. */
static bool is_atom(const char *e) {
    if (!*e)
        return false;
    if (e[0] == '(') { /* fully parenthesised already? */
        int depth = 0;
        for (const char *p = e; *p; p++) {
            depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
            if (depth == 0)
                return p[1] == 0;
        }
        return false;
    }
    for (const char *p = e; *p; p++) {
        char c = *p;
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '.';
        if (!word)
            return false;
    }
    return true;
}

static bool is_zero(const char *e) { return strcmp(e, "0") == 0; }

/* One term of the sum; a term alone at scale 1 is the whole address and
 * needs no parentheses. */
static void put_term(StrBuf *sb, bool *first, const char *e, int64_t scale,
                     bool alone) {
    if (is_zero(e) || scale == 0)
        return;
    if (!*first)
        sb_puts(sb, " + ");
    *first = false;
    bool bare = is_atom(e) || (alone && scale == 1);
    if (!bare)
        sb_putc(sb, '(');
    sb_puts(sb, e);
    if (!bare)
        sb_putc(sb, ')');
    if (scale != 1)
        sb_printf(sb, " * %lld", (long long)scale);
}

void smem_stage_text(StrBuf *sb, const SharedBuffer *b, const char *stage) {
    if (b->stage_count > 1 && !is_zero(stage)) {
        bool first = true;
        put_term(sb, &first, stage, smem_stage_size(b), false);
        sb_puts(sb, " + ");
    }
}

void smem_element_text(StrBuf *sb, const SharedBuffer *b, const char *stage,
                       const char *row, const char *column) {
    if (b->swizzle) {
        smem_stage_text(sb, b, stage);
        sb_printf(sb, "mt_swz(%s, %s, %d, %d, %d, %d)", row, column, (int)b->rows,
                  b->swizzle / (int)dtype_info[b->elem].bytes, (int)dtype_info[b->elem].bytes,
                  b->perm_warps);
        return;
    }
    const char *term[3] = {b->stage_count > 1 ? stage : "0", row, column};
    int64_t scale[3] = {smem_stage_size(b), smem_row_stride(b), 1};
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += !is_zero(term[i]) && scale[i] != 0;
    bool first = true;
    for (int i = 0; i < 3; i++)
        put_term(sb, &first, term[i], scale[i], n == 1);
    if (first)
        sb_putc(sb, '0');
}

static int gcd_int(int a, int b) {
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int smem_bank_padding(int columns, int simultaneous_rows) {
    if (columns <= 0)
        return 0;
    int distinct_banks = 32 / gcd_int(columns, 32);
    return simultaneous_rows > distinct_banks ? 1 : 0;
}

int smem_bank(int64_t word_offset) {
    int64_t b = word_offset % 32;
    return (int)(b < 0 ? b + 32 : b);
}
