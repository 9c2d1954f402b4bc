/* diag.c: located diagnostics.
 *
 * Input: a Ctx (file name and source text), a Loc and a message.  Output:
 * the first error of a compilation recorded in the Ctx as
 *
 *     kernel.py:12:9: error: message
 *         offs = tl.arange(0, BLOCK) + x
 *                ^
 *
 * Later errors are dropped: the first one is the one that explains the
 * rest.  A Loc of line 0 (no location, e.g. a runtime failure) gives
 * "error: message" alone.  The caret column counts display characters,
 * with tabs expanded to the next multiple of 8 as Python does. */
#include "mt.h"

#include <stdio.h>
#include <string.h>

static void put_source_line(Ctx *c, Loc loc) {
    if (!c->src || loc.line <= 0)
        return;
    const char *p = c->src, *end = c->src + c->srclen;
    for (int line = 1; line < loc.line && p < end; p++)
        if (*p == '\n')
            line++;
    if (p >= end && loc.line > 1)
        return;
    const char *eol = p;
    while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
    StrBuf *sb = &c->err;
    int width = 0, caret = -1;
    for (const char *q = p; q < eol; q++) {
        if (q - p == loc.col - 1)
            caret = width;
        if (*q == '\t') {
            int next = (width / 8 + 1) * 8;
            sb_indent(sb, next - width);
            width = next;
        } else {
            sb_putc(sb, *q);
            /* count only the first byte of a UTF-8 sequence */
            if (((unsigned char)*q & 0xC0) != 0x80)
                width++;
        }
    }
    sb_putc(sb, '\n');
    if (caret < 0)
        caret = width;
    sb_indent(sb, caret);
    sb_puts(sb, "^\n");
}

int diag_verror(Ctx *c, Loc loc, mt_status st, const char *fmt, va_list ap) {
    if (c->status != MT_OK)
        return -1;
    c->status = st == MT_OK ? MT_ERR_INTERNAL : st;
    c->err_loc = loc;
    sb_clear(&c->err);
    if (loc.line > 0)
        sb_printf(&c->err, "%s:%d:%d: ", c->filename ? c->filename : "<kernel>",
                  loc.line, loc.col);
    sb_puts(&c->err, "error: ");
    sb_vprintf(&c->err, fmt, ap);
    sb_putc(&c->err, '\n');
    put_source_line(c, loc);
    return -1;
}

void diag_clear(Ctx *c) {
    c->status = MT_OK;
    c->err_loc = (Loc){0, 0};
    sb_clear(&c->err);
}

int diag_error(Ctx *c, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}
