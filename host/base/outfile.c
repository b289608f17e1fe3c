/* outfile.c - every output file of chunkfill goes through here (.npy, .png, palettes, tiles,
 * regions, manifests, the viewer page): a temporary file beside the target, written, flushed
 * and fsync'd, then renamed over it, so a half-written output never appears under its name.
 *
 * What is at the path decides first (lstat): nothing or a regular file is replaced; a symlink
 * is written through (the regular file it resolves to is replaced, beside it, as editors do);
 * a device, FIFO, socket or directory, or a link to one or to nothing, is refused with one line
 * naming the path and what it is. Allocates the temporary's name and the resolved path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

/* what a non-regular file is, in words */
static const char *kind_name(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symlink" : "not a regular file";
}

/* Names the temporaries of one process apart; the pid names processes apart. */
static atomic_uint tmp_counter;

/* Creates an empty temporary beside path ("dir/.base.pid.n.tmp", mode 0666 less the umask,
 * as fopen would). Returns the descriptor and the malloc'd name in *tmp, or -1 with errno. */
static int create_temp(const char *path, char **tmp)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t cap = strlen(path) + 48;
    char *name = malloc(cap);
    *tmp = NULL;
    if (!name) return errno = ENOMEM, -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&tmp_counter, 1u);
        snprintf(name, cap, "%.*s.%s.%ld.%u.tmp", (int)dirlen, path, path + dirlen, (long)getpid(), n);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return *tmp = name, fd;
        if (errno != EEXIST) break;
    }
    int saved = errno;
    free(name);
    errno = saved;
    return -1;
}

/* The file a write to path replaces, malloc'd in *target (path itself, or what a symlink
 * resolves to); CF_OK, or a one-line error naming path and what is there. */
static cf_status out_target(const char *path, char **target, cf_error *err)
{
    struct stat st;
    *target = NULL;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) return err_set(err, CF_ERR_IO, "%s: cannot write there: %s", path, strerror(errno)), CF_ERR_IO;
    } else if (S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real) {
            int e = errno;
            return err_set(err, CF_ERR_IO, "%s: is a symlink to %s: refusing to write through it", path,
                           e == ENOENT ? "nothing" : e == ELOOP ? "itself (a loop)" : strerror(e)), CF_ERR_IO;
        }
        int bad = stat(real, &st) != 0;
        if (bad) err_set(err, CF_ERR_IO, "%s: is a symlink to %s: cannot write there: %s", path, real, strerror(errno));
        else if ((bad = !S_ISREG(st.st_mode)))
            err_set(err, CF_ERR_IO, "%s: is a symlink to %s, %s: refusing to replace it with a file", path, real, kind_name(st.st_mode));
        if (bad) return free(real), CF_ERR_IO;
        *target = real;
        return CF_OK;
    } else if (!S_ISREG(st.st_mode)) {
        return err_set(err, CF_ERR_IO, "%s: is %s: refusing to replace it with a file (an output must be a regular file or a new name)",
                       path, kind_name(st.st_mode)), CF_ERR_IO;
    }
    if (!(*target = strdup(path))) return err_set(err, CF_ERR_NOMEM, "out of memory"), CF_ERR_NOMEM;
    return CF_OK;
}

cf_status out_open(cf_output *o, const char *path, cf_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path) return err_set(err, CF_ERR_ARG, "an output needs a path");
    o->shown = path;
    char *target = NULL, *temp = NULL;
    cf_status st = out_target(path, &target, err);
    if (st != CF_OK || !target) return st != CF_OK ? st : CF_ERR_IO;
    int fd = create_temp(target, &temp);
    if (fd < 0) {
        st = err_set(err, CF_ERR_IO, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        free(target);
        return st;
    }
    o->path = target, o->temp = temp;
    if (!(o->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        out_abort(o);
        return err_set(err, CF_ERR_IO, "%s: cannot open the temporary file: %s", path, strerror(e));
    }
    return CF_OK;
}

cf_status out_close(cf_output *o, cf_error *err)
{
    if (!o->f) return o->temp ? CF_OK : err_set(err, CF_ERR_ARG, "%s: not open", o->shown ? o->shown : "output");
    int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int e = errno;
    if (fclose(o->f) != 0 && !bad) bad = 1, e = errno;
    o->f = NULL;
    if (!bad) return CF_OK;
    cf_status st = err_set(err, CF_ERR_IO, "%s: write error: %s", o->shown, strerror(e ? e : EIO));
    out_abort(o);
    return st;
}

cf_status out_commit(cf_output *o, cf_error *err)
{
    if (!o->temp) {
        out_abort(o);
        return err_set(err, CF_ERR_ARG, "%s: not open", o->shown ? o->shown : "output"), CF_ERR_ARG;
    }
    cf_status st = out_close(o, err);
    if (st != CF_OK) return st;
    if (rename(o->temp, o->path) != 0) {
        st = err_set(err, CF_ERR_IO, "%s: cannot rename the finished file into place: %s", o->shown, strerror(errno));
        out_abort(o);
        return st;
    }
    free(o->temp), o->temp = NULL;
    free(o->path), o->path = NULL;
    return CF_OK;
}

void out_abort(cf_output *o)
{
    if (!o) return;
    if (o->f) fclose(o->f), o->f = NULL;
    if (o->temp) unlink(o->temp);
    free(o->temp), o->temp = NULL;
    free(o->path), o->path = NULL;
}

cf_status out_write_file(const char *path, const void *data, size_t n, cf_error *err)
{
    cf_output o;
    cf_status st = out_open(&o, path, err);
    if (st != CF_OK) return st;
    if (n && fwrite(data, 1, n, o.f) != n) {
        st = err_set(err, CF_ERR_IO, "%s: write error: %s", path, strerror(errno));
        out_abort(&o);
        return st;
    }
    return out_commit(&o, err);
}

cf_status out_check_dir(const char *path, cf_error *err)
{
    struct stat st;
    if (!path || !*path) return err_set(err, CF_ERR_ARG, "an output folder needs a path");
    if (stat(path, &st) != 0) {
        /* a dangling symlink stats as nothing: mkdir would fail on it with EEXIST */
        if (errno == ENOENT && lstat(path, &st) == 0)
            return err_set(err, CF_ERR_IO, "%s: is a symlink to nothing: refusing to write a folder there", path);
        return CF_OK; /* nothing there, or no way there: the caller's mkdir says which */
    }
    if (!S_ISDIR(st.st_mode))
        return err_set(err, CF_ERR_IO, "%s: is %s, not a folder: refusing to write a folder of outputs there", path,
                       S_ISREG(st.st_mode) ? "a regular file" : kind_name(st.st_mode));
    return CF_OK;
}
