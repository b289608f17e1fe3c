/* json.c - JSON files of a pack: read, checked and parsed once for every front-end.
 *
 * The checks (all with a located one-line error): size (pack.c), empty file,
 * UTF-8, no \u0000 in strings, a bounded number of values, malformed JSON with
 * its line and column, duplicate keys. Comments are read as Gson's lenient reader
 * (the game's) reads them: //, # and C comments, and its )]}' prefix (strip_comments). The tree is cJSON's; the caller deletes it.
 * Errors and locations go through the field reader's context (fields.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/base.h"

/* 1 when s[0..n) is valid UTF-8; else 0 and *bad = offset of the first bad byte */
static int utf8_valid(const unsigned char *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        size_t k;
        unsigned cp;
        if (b < 0x80) {
            i++;
            continue;
        }
        if ((b & 0xe0) == 0xc0) k = 1, cp = b & 0x1fu;
        else if ((b & 0xf0) == 0xe0) k = 2, cp = b & 0x0fu;
        else if ((b & 0xf8) == 0xf0) k = 3, cp = b & 0x07u;
        else return *bad = i, 0;
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (s[i + j] & 0xc0) != 0x80) return *bad = i, 0;
            cp = (cp << 6) | (s[i + j] & 0x3fu);
        }
        if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff))
            return *bad = i, 0;
        i += k + 1;
    }
    return 1;
}

static void line_col(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') (*line)++, *col = 1;
        else (*col)++;
    }
}

/* Gson's lenient reader (the game reads data files with it) skips comments: // and # to the
 * end of the line, and C comments. They become spaces here (line breaks kept), so that
 * every offset, and so every line and column of an error, stays the original one. Also its
 * non-execute prefix )]}' at the start. Returns 0, or the offset of an unterminated comment
 * plus 1. */
static size_t strip_comments(char *t, size_t n)
{
    int in_str = 0;
    if (n >= 4 && memcmp(t, ")]}'", 4) == 0) memset(t, ' ', 4);
    for (size_t i = 0; i < n; i++) {
        char ch = t[i];
        if (in_str) {
            if (ch == '\\') i++;
            else if (ch == '"') in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '#' || (ch == '/' && i + 1 < n && t[i + 1] == '/')) {
            while (i < n && t[i] != '\n' && t[i] != '\r') t[i++] = ' ';
        } else if (ch == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t start = i;
            t[i++] = ' ', t[i++] = ' ';
            while (i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/')) {
                if (t[i] != '\n' && t[i] != '\r') t[i] = ' ';
                i++;
            }
            if (i >= n) return start + 1;
            t[i++] = ' ', t[i] = ' ';
        }
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* duplicate keys are an error (the JSON a pack author meant is ambiguous) */
static int check_tree(const cf_fields *c, const cJSON *v, cf_loc at)
{
    if (cJSON_IsObject(v)) {
        int n = 0;
        for (const cJSON *k = v->child; k; k = k->next) n++;
        if (n > 1) {
            const char **keys = malloc(sizeof(char *) * (size_t)n);
            if (!keys) return field_nomem(c);
            int i = 0;
            for (const cJSON *k = v->child; k; k = k->next) keys[i++] = k->string;
            qsort(keys, (size_t)n, sizeof *keys, cmp_str);
            for (i = 1; i < n; i++)
                if (strcmp(keys[i - 1], keys[i]) == 0) {
                    int r = field_fail(c, field_key(c, at, keys[i]), CF_ERR_JSON, "duplicate key \"%s\"", keys[i]);
                    free(keys);
                    return r;
                }
            free(keys);
        }
        for (const cJSON *k = v->child; k; k = k->next)
            if ((cJSON_IsObject(k) || cJSON_IsArray(k)) && check_tree(c, k, field_key(c, at, k->string)) < 0)
                return -1;
    } else if (cJSON_IsArray(v)) {
        int i = 0;
        for (const cJSON *k = v->child; k; k = k->next, i++)
            if ((cJSON_IsObject(k) || cJSON_IsArray(k)) && check_tree(c, k, field_index(c, at, i)) < 0)
                return -1;
    }
    return 0;
}

int json_load_rel(cf_arena *a, cf_pack *pk, const char *rel, cJSON **out, const char **out_display, cf_error *err)
{
    return json_load_rel_in(a, pk, -1, rel, out, out_display, err);
}

int json_load_rel_in(cf_arena *a, cf_pack *pk, int pack, const char *rel, cJSON **out, const char **out_display, cf_error *err)
{
    cf_fields cc, *c = &cc;
    field_init(c, a, err);
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    const char *display = NULL;
    int r = pack < 0 ? pack_read_rel(pk, rel, &text, &len, &display, c->err) : pack_read_rel_in(pk, pack, rel, &text, &len, &display, c->err);
    if (r <= 0) return r;
    /* the display path lives as long as the program (its nodes' locations name it),
     * not as long as the pack */
    display = arena_strdup(a, display);
    if (!display) {
        free(text);
        field_nomem(c);
        return -1;
    }
    cf_loc root = {display, NULL};
    size_t bad;
    if (len == 0 || strspn(text, " \t\r\n") == len) {
        field_fail(c, root, CF_ERR_JSON, "empty file");
        free(text);
        return -1;
    }
    if (!utf8_valid((const unsigned char *)text, len, &bad)) {
        int line, col;
        line_col(text, bad, &line, &col);
        field_fail(c, root, CF_ERR_JSON, "not UTF-8 (byte 0x%02x at line %d, column %d)",
             (unsigned char)text[bad], line, col);
        free(text);
        return -1;
    }
    {
        size_t open = strip_comments(text, len);
        if (open) {
            int line, col;
            line_col(text, open - 1, &line, &col);
            field_fail(c, root, CF_ERR_JSON, "a /* comment at line %d, column %d is not closed (*/)", line, col);
            free(text);
            return -1;
        }
        if (strspn(text, " \t\r\n") == len) {
            field_fail(c, root, CF_ERR_JSON, "empty file (only comments)");
            free(text);
            return -1;
        }
    }
    /* no raw NUL byte anywhere: JSON has none outside strings, and cJSON would end a
     * key or a string there (silently changing it) or stop reading the file */
    {
        const char *nul = memchr(text, 0, len);
        if (nul) {
            int line, col;
            line_col(text, (size_t)(nul - text), &line, &col);
            field_fail(c, root, CF_ERR_JSON, "a NUL byte at line %d, column %d", line, col);
            free(text);
            return -1;
        }
    }
    /* before building a tree: a bounded number of values, and no \u0000 (cJSON
     * would cut the string there, silently changing an id or a key) */
    {
        size_t values = 1;
        int in_str = 0;
        for (size_t i = 0; i < len; i++) {
            char ch = text[i];
            if (in_str) {
                if (ch == '\\') {
                    if (i + 5 < len && text[i + 1] == 'u' && text[i + 2] == '0' && text[i + 3] == '0' && text[i + 4] == '0'
                        && text[i + 5] == '0') {
                        int line, col;
                        line_col(text, i, &line, &col);
                        field_fail(c, root, CF_ERR_JSON, "a string holds \\u0000 (NUL) at line %d, column %d", line, col);
                        free(text);
                        return -1;
                    }
                    i++;
                } else if (ch == '"') {
                    in_str = 0;
                }
            } else if (ch == '"') {
                in_str = 1;
            } else if (ch == ',' || ch == '[' || ch == '{') {
                values++;
            }
        }
        if (values > CF_MAX_JSON_VALUES) {
            field_fail(c, root, CF_ERR_LIMIT, "more than %d JSON values in one file (the limit: %d)", CF_MAX_JSON_VALUES,
                 CF_MAX_JSON_VALUES);
            free(text);
            return -1;
        }
    }
    const char *end = NULL;
    const char *start = text;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) start += 3;
    cJSON *j = cJSON_ParseWithLengthOpts(start, len - (size_t)(start - text), &end, 0);
    if (!j) {
        size_t off = end ? (size_t)(end - text) : 0;
        int line, col;
        line_col(text, off, &line, &col);
        const char *e = text + off;
        const char *why = "";
        if (strncmp(e, "NaN", 3) == 0 || strncmp(e, "Infinity", 8) == 0 || strncmp(e, "-Infinity", 9) == 0)
            why = " (NaN and Infinity are not JSON numbers)";
        /* cJSON stops at the character after the one it could not read */
        else if (*e == '\'' || (e > text && e[-1] == '\''))
            why = " (a 'single-quoted' string: write it in double quotes; comments are read, but not the rest of Gson's lenient syntax)";
        else if (e > text && ((e[-1] >= 'a' && e[-1] <= 'z') || (e[-1] >= 'A' && e[-1] <= 'Z') || e[-1] == '_'))
            why = " (an unquoted word: names and strings need double quotes)";
        else if (*e == ';' || *e == '=' || (e > text && (e[-1] == ';' || e[-1] == '=')))
            why = " (write , between values and : between a name and its value)";
        else {
            int d = 0, maxd = 0, in_str = 0;
            for (const char *q = text; q < e; q++) {
                if (in_str) {
                    if (*q == '\\' && q + 1 < e) q++;
                    else if (*q == '"') in_str = 0;
                } else if (*q == '"') in_str = 1;
                else if (*q == '[' || *q == '{') d++, maxd = d > maxd ? d : maxd;
                else if (*q == ']' || *q == '}') d--;
            }
            if (maxd >= CJSON_NESTING_LIMIT) why = " (nested deeper than the JSON reader's limit)";
        }
        field_fail(c, root, CF_ERR_JSON, "malformed JSON at line %d, column %d%s", line, col, why);
        free(text);
        return -1;
    }
    /* one value per file: only white space (and comments, blanked above) after it */
    if (end) {
        size_t off = (size_t)(end - text);
        off += strspn(text + off, " \t\r\n");
        if (off < len) {
            int line, col;
            line_col(text, off, &line, &col);
            field_fail(c, root, CF_ERR_JSON, "text after the JSON value at line %d, column %d", line, col);
            cJSON_Delete(j);
            free(text);
            return -1;
        }
    }
    if (check_tree(c, j, root) < 0) {
        cJSON_Delete(j);
        free(text);
        return -1;
    }
    free(text);
    *out = j;
    *out_display = display;
    return 1;
}
