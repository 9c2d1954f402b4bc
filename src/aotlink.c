/* aotlink.c: a dispatcher over ahead-of-time specialisations of one
 * kernel (`mytriton aot-link A.h B.h ... -o NAME`).
 *
 * Input: the texts of headers mt_aot_generate wrote, each with its
 * "mytriton-aot-link:" line (name, kernel, warps, constexprs, parameters
 * with their hints).  Output: NAME.h and NAME.c declaring the same API
 * as one specialisation (NAME, NAME_load, NAME_unload, NAME_errmsg) plus
 * NAME_select, which says which specialisation a call would take.
 *
 * The choice is Triton's link.py's: the specialisations are tried in
 * order of how many hints they carry, most first (ties keep the order
 * given), and the first whose hints all hold for the argument values is
 * launched: a ":16" pointer is 16-byte aligned, a ":16" integer a
 * multiple of 16, a ":1" integer equal to 1.  Unlike link.py, every
 * specialisation keeps the full parameter list (a ":1" argument is
 * passed and checked, not dropped), so the dispatcher forwards the
 * arguments unchanged, and no match is an MT_ERR_ARG with a message.
 *
 * Invariants: the headers must name the same kernel, parameters (names
 * and types) and constexpr values, and no two may carry the same hints
 * (one would never be chosen); anything else is an error naming the
 * header. */
#include "mt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINK_TAG "mytriton-aot-link: "

typedef struct LinkSpec {
    const char *file;   /* the header's file name */
    char *name, *kernel, *consts;
    int warps;
    AotParam *params;
    int nparams;
    int nhints;
} LinkSpec;

static const Loc no_loc = {0, 0};

/* "key=value" at *p (value up to a space, or inside [...] for consts) */
static char *take_field(Arena *a, const char **p, const char *key) {
    size_t kl = strlen(key);
    while (**p == ' ')
        (*p)++;
    if (strncmp(*p, key, kl) != 0 || (*p)[kl] != '=')
        return NULL;
    const char *v = *p + kl + 1, *end;
    if (*v == '[') {
        end = strchr(v, ']');
        if (!end)
            return NULL;
        *p = end + 1;
        return arena_strndup(a, v + 1, (size_t)(end - v - 1));
    }
    end = v + strcspn(v, " \n");
    *p = end;
    return arena_strndup(a, v, (size_t)(end - v));
}

/* One parameter "*fp32:16 x". */
static bool parse_param(Arena *a, const char *s, size_t n, AotParam *out) {
    memset(out, 0, sizeof *out);
    const char *sp = memchr(s, ' ', n);
    if (!sp)
        return false;
    out->name = arena_strndup(a, sp + 1, n - (size_t)(sp + 1 - s));
    if (!aot_is_identifier(out->name))
        return false;
    const char *t = s;
    out->is_ptr = *t == '*';
    t += out->is_ptr;
    const char *colon = memchr(t, ':', (size_t)(sp - t));
    size_t tl = (size_t)((colon ? colon : sp) - t);
    out->dtype = MT_DTYPE_NONE;
    for (int d = 0; d < MT_DTYPE_COUNT; d++)
        if (strlen(mt_dtype_name((mt_dtype)d)) == tl && !strncmp(mt_dtype_name((mt_dtype)d), t, tl))
            out->dtype = (mt_dtype)d;
    if (colon) {
        char *end;
        long h = strtol(colon + 1, &end, 10);
        if (end != sp || h < 1 || h > (1L << 30))
            return false;
        out->hint = (int)h;
    }
    return out->dtype != MT_DTYPE_NONE;
}

static int parse_header(Ctx *c, const char *text, const char *file, LinkSpec *s) {
    memset(s, 0, sizeof *s);
    s->file = file;
    const char *p = text ? strstr(text, LINK_TAG) : NULL;
    if (!p)
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "'%s' is not a header written by `mytriton aot` (no '%s' line)", file,
                          LINK_TAG);
    p += strlen(LINK_TAG);
    char *warps;
    if (!(s->name = take_field(c->arena, &p, "name")) ||
        !(s->kernel = take_field(c->arena, &p, "kernel")) ||
        !(warps = take_field(c->arena, &p, "warps")) ||
        !(s->consts = take_field(c->arena, &p, "consts")) || strncmp(p, " params=", 8) != 0 ||
        !aot_is_identifier(s->name))
        goto bad;
    s->warps = atoi(warps);
    p += 8;
    int cap = 0;
    while (*p && *p != '\n') {
        size_t n = strcspn(p, ",\n");
        AotParam q;
        if (!parse_param(c->arena, p, n, &q))
            goto bad;
        VEC_PUSH(c->arena, s->params, s->nparams, cap, q);
        s->nhints += q.hint != 0;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
bad:
    return diag_error(c, no_loc, MT_ERR_ARG, "'%s': malformed '%s' line", file, LINK_TAG);
}

static bool same_hints(const LinkSpec *a, const LinkSpec *b) {
    for (int i = 0; i < a->nparams; i++)
        if (a->params[i].hint != b->params[i].hint)
            return false;
    return true;
}

static int check_compatible(Ctx *c, const LinkSpec *a, const LinkSpec *b) {
    const char *what = NULL;
    if (strcmp(a->kernel, b->kernel) != 0)
        what = "kernels";
    else if (strcmp(a->consts, b->consts) != 0)
        what = "constexpr values";
    else if (a->nparams != b->nparams)
        what = "parameter lists";
    for (int i = 0; !what && i < a->nparams; i++)
        if (strcmp(a->params[i].name, b->params[i].name) != 0 ||
            a->params[i].dtype != b->params[i].dtype || a->params[i].is_ptr != b->params[i].is_ptr)
            what = "parameter lists";
    if (!what && same_hints(a, b))
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "'%s' and '%s' specialise the same hints: one would never be chosen",
                          a->file, b->file);
    if (what)
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "'%s' and '%s' are not specialisations of one kernel: their %s differ",
                          a->file, b->file, what);
    return 0;
}

/* The condition under which spec s is taken: "1" when it has no hints. */
static void put_condition(StrBuf *sb, const LinkSpec *s) {
    int n = 0;
    for (int i = 0; i < s->nparams; i++) {
        const AotParam *p = &s->params[i];
        if (!p->hint)
            continue;
        sb_puts(sb, n++ ? " && " : "");
        if (p->is_ptr)
            sb_printf(sb, "(uintptr_t)%s %% %d == 0", p->name, p->hint);
        else if (p->hint == 1)
            sb_printf(sb, "%s == 1", p->name);
        else
            sb_printf(sb, "%s %% %d == 0", p->name, p->hint);
    }
    if (!n)
        sb_puts(sb, "1");
}

/* "int NAME_select(float *x, int32_t n)" */
static void put_select_decl(StrBuf *sb, const char *name, const LinkSpec *s) {
    StrBuf ps;
    sb_init(&ps);
    aot_put_params(&ps, s->params, s->nparams);
    sb_printf(sb, "int %s_select(%s)", name, ps.len > 2 ? sb_str(&ps) + 2 : "void");
    sb_free(&ps);
}

static void put_link_header(StrBuf *sb, const char *name, LinkSpec *specs, int n) {
    sb_printf(sb, "/* %s.h: generated by `mytriton aot-link`; do not edit.\n *\n"
                  " * mt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz, ...)\n"
                  " *   launches kernel %s through the first of these specialisations whose\n"
                  " *   hints the arguments satisfy (none: MT_ERR_ARG):\n",
              name, name, specs[0].kernel);
    for (int i = 0; i < n; i++) {
        sb_printf(sb, " *     %d: %s (%s) when ", i, specs[i].name, specs[i].file);
        put_condition(sb, &specs[i]);
        sb_puts(sb, "\n");
    }
    sb_printf(sb, " * int %s_select(...): the number of the specialisation %s would\n"
                  " *   launch for these arguments, -1 when none.\n */\n",
              name, name);
    aot_header_open(sb, name);
    sb_printf(sb, "mt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz", name);
    aot_put_params(sb, specs[0].params, specs[0].nparams);
    sb_puts(sb, ");\n");
    put_select_decl(sb, name, &specs[0]);
    sb_puts(sb, ";\n");
    aot_header_close(sb, name);
}

static void put_args(StrBuf *sb, const LinkSpec *s) {
    for (int i = 0; i < s->nparams; i++)
        sb_printf(sb, "%s%s", i ? ", " : "", s->params[i].name);
}

static void put_link_source(StrBuf *sb, const char *name, LinkSpec *specs, int n) {
    sb_printf(sb, "/* %s.c: generated by `mytriton aot-link`; do not edit. */\n#include \"%s.h\"\n",
              name, name);
    for (int i = 0; i < n; i++)
        sb_printf(sb, "#include \"%s\"\n", specs[i].file);
    aot_put_runtime(sb, false);
    sb_printf(sb, "#line 1 \"%s.c (dispatch)\"\n", name);
    /* which specialisation's message NAME_errmsg gives: -1, our own */
    sb_printf(sb, "\nstatic MT_AOT_TLS int %s_last = -1;\n\n", name);
    put_select_decl(sb, name, &specs[0]);
    sb_puts(sb, " {\n");
    for (int i = 0; i < specs[0].nparams; i++)
        sb_printf(sb, "    (void)%s;\n", specs[0].params[i].name);
    for (int i = 0; i < n; i++) {
        sb_puts(sb, "    if (");
        put_condition(sb, &specs[i]);
        sb_printf(sb, ")\n        return %d;\n", i);
    }
    sb_puts(sb, "    return -1;\n}\n");
    sb_printf(sb, "\nmt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz", name);
    aot_put_params(sb, specs[0].params, specs[0].nparams);
    sb_printf(sb, ") {\n    switch ((%s_last = %s_select(", name, name);
    put_args(sb, &specs[0]);
    sb_puts(sb, "))) {\n");
    for (int i = 0; i < n; i++) {
        sb_printf(sb, "    case %d:\n        return %s(stream, gx, gy, gz%s", i, specs[i].name,
                  specs[i].nparams ? ", " : "");
        put_args(sb, &specs[i]);
        sb_puts(sb, ");\n");
    }
    sb_printf(sb, "    default:\n        return mt_aot_fail(MT_ERR_ARG, \"%s: no specialisation "
                  "of kernel '%s' accepts these arguments\");\n    }\n}\n",
              name, specs[0].kernel);
    /* load all or none */
    sb_printf(sb, "\nmt_status %s_load(void) {\n    mt_status st = MT_OK;\n    %s_last = -1;\n",
              name, name);
    for (int i = 0; i < n; i++)
        sb_printf(sb, "    if (st == MT_OK && (st = %s_load()) != MT_OK)\n"
                      "        mt_aot_fail(st, \"%%s\", %s_errmsg());\n",
                  specs[i].name, specs[i].name);
    sb_puts(sb, "    if (st != MT_OK) {\n");
    for (int i = 0; i < n; i++)
        sb_printf(sb, "        %s_unload();\n", specs[i].name);
    sb_puts(sb, "        return st;\n    }\n    return mt_aot_ok();\n}\n");
    sb_printf(sb, "\nmt_status %s_unload(void) {\n    mt_status st = MT_OK, s;\n    %s_last = -1;\n",
              name, name);
    for (int i = 0; i < n; i++)
        sb_printf(sb, "    if ((s = %s_unload()) != MT_OK && st == MT_OK)\n"
                      "        st = mt_aot_fail(s, \"%%s\", %s_errmsg());\n",
                  specs[i].name, specs[i].name);
    sb_puts(sb, "    return st != MT_OK ? st : mt_aot_ok();\n}\n");
    sb_printf(sb, "\nconst char *%s_errmsg(void) {\n    switch (%s_last) {\n", name, name);
    for (int i = 0; i < n; i++)
        sb_printf(sb, "    case %d:\n        return %s_errmsg();\n", i, specs[i].name);
    sb_puts(sb, "    default:\n        return mt_aot_msg;\n    }\n}\n");
}

mt_status mt_aot_link(mt_context *ctx, const char *name, const char *const *headers,
                      const char *const *names, int n, char **header, char **source) {
    if (!ctx)
        return MT_ERR_ARG;
    Arena *a = arena_new();
    if (!a)
        return MT_ERR_NOMEM;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = a;
    LinkSpec *specs = NULL;
    if (!header || !source || !headers || !names || n < 1) {
        diag_error(&c, no_loc, MT_ERR_ARG, "mt_aot_link: bad arguments (no headers)");
        goto fail;
    }
    *header = *source = NULL;
    if (!aot_is_identifier(name)) {
        diag_error(&c, no_loc, MT_ERR_ARG, "the name '%s' of the dispatcher is not a C identifier",
                   name ? name : "(null)");
        goto fail;
    }
    specs = arena_alloc(a, (size_t)n * sizeof *specs);
    for (int i = 0; i < n; i++) {
        const char *file = names[i] ? names[i] : "";
        if (!*file || strpbrk(file, "\"\\\n\r") || strstr(file, "*/")) {
            diag_error(&c, no_loc, MT_ERR_ARG, "'%s' cannot be #included by its name", file);
            goto fail;
        }
        if (parse_header(&c, headers[i], file, &specs[i]) < 0)
            goto fail;
        if (!strcmp(specs[i].name, name)) {
            diag_error(&c, no_loc, MT_ERR_ARG, "'%s' already defines '%s'", specs[i].file, name);
            goto fail;
        }
        for (int j = 0; j < i; j++)
            if (check_compatible(&c, &specs[j], &specs[i]) < 0)
                goto fail;
    }
    /* most hints first; a stable insertion sort keeps the given order */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && specs[j].nhints > specs[j - 1].nhints; j--) {
            LinkSpec t = specs[j];
            specs[j] = specs[j - 1];
            specs[j - 1] = t;
        }
    StrBuf h, s;
    sb_init(&h);
    sb_init(&s);
    put_link_header(&h, name, specs, n);
    put_link_source(&s, name, specs, n);
    arena_free(a);
    return aot_finish(&h, &s, header, source);
fail:;
    mt_status st = api_take_error(ctx, &c);
    sb_free(&c.err);
    arena_free(a);
    return st;
}
