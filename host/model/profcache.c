/* profcache.c - the profile each device keeps (profcache.h): where its file is, writing it
 * through the output-file rules (outfile.h), and reading it back as --profile would. */
#define _GNU_SOURCE
#include "clcoalesce/profcache.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clcoalesce/outfile.h"

#define PART_MAX 80 /* characters of a device or driver name in a file name */

/* s as a file name's part into out: letters, digits, '.' and '_' kept, every other run of
 * characters one '-', none at either end, at most PART_MAX characters ("unknown" if empty). */
static void name_part(const char *s, char *out)
{
    size_t n = 0;
    for (; *s != '\0' && n < PART_MAX; s++) {
        unsigned char c = (unsigned char)*s;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_';
        if (keep)
            out[n++] = (char)c;
        else if (n > 0 && out[n - 1] != '-')
            out[n++] = '-';
    }
    while (n > 0 && out[n - 1] == '-')
        n--;
    out[n] = '\0';
    if (n == 0)
        strcpy(out, "unknown");
}

/* The folder the profiles are kept in, into out; false when none can be named. */
static bool folder(char *out, size_t len)
{
    const char *dir = getenv("CLCOALESCE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (dir != NULL && dir[0] != '\0')
        n = snprintf(out, len, "%s", dir);
    else if (xdg != NULL && xdg[0] == '/') /* the XDG rule: a relative one is ignored */
        n = snprintf(out, len, "%s/clcoalesce", xdg);
    else if (home != NULL && home[0] != '\0')
        n = snprintf(out, len, "%s/.cache/clcoalesce", home);
    else
        return false;
    return n > 0 && (size_t)n < len;
}

bool clc_profcache_path(const struct clc_device_meta *d, const char *api, char *out, size_t len)
{
    char dir[4096], dev[PART_MAX + 1], drv[PART_MAX + 1];
    if (!folder(dir, sizeof dir))
        return false;
    name_part(d->name, dev);
    name_part(d->driver, drv);
    int n = snprintf(out, len, "%s/profile-%s-%s-%s.json", dir, api, dev, drv);
    return n > 0 && (size_t)n < len;
}

/* mkdir -p for the folders above path's last '/', each new one 0700 (a user's cache), and
 * the last one writable; CLC_OK, or CLC_ERR with errno set. */
static int make_folders(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *end = strrchr(dir, '/');
    if (end == NULL || end == dir)
        return CLC_OK;
    *end = '\0';
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char was = *p;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return CLC_ERR;
        *p = was;
        if (was == '\0')
            return access(dir, W_OK | X_OK) == 0 ? CLC_OK : CLC_ERR;
    }
}

int clc_profcache_store(const struct clc_device_meta *d, const char *api,
                        int (*fill)(FILE *f, void *ctx), void *ctx, char *out, size_t len)
{
    if (!clc_profcache_path(d, api, out, len)) {
        clc_note("no folder to keep the device's profile in: HOME and CLCOALESCE_CACHE_DIR are "
                 "unset, or the path is too long");
        return CLC_ERR;
    }
    if (make_folders(out) != CLC_OK) {
        clc_note("cannot keep the device's profile in %s: %s", out, strerror(errno));
        return CLC_ERR;
    }
    return clc_output_write(out, fill, ctx);
}

bool clc_profcache_load(const struct clc_device_meta *d, const char *api, struct clc_profile *p,
                        char *path, size_t path_len, char *when, size_t when_len)
{
    struct stat st;
    if (!clc_profcache_path(d, api, path, path_len) || stat(path, &st) != 0)
        return false;
    /* a file that is not a profile at all is only noted: the run goes on without it */
    size_t len = 0;
    char *text = clc_read_text(path, &len);
    json_t *root = text != NULL ? json_loadb(text, len, 0, NULL) : NULL;
    bool looks = json_is_string(json_object_get(root, "tool"));
    json_decref(root);
    free(text);
    if (!looks || clc_profile_load(path, p) != CLC_OK) {
        clc_note("the device's kept profile %s is not one and is left aside; 'clcoalesce "
                 "profile' measures it again", path);
        return false;
    }
    if (strcmp(p->device, d->name) != 0 || strcmp(p->api, api) != 0) {
        clc_note("the kept profile %s is of '%s' (%s), not of this device: left aside", path,
                 p->device, p->api);
        return false;
    }
    struct tm tm;
    if (localtime_r(&st.st_mtime, &tm) == NULL ||
        strftime(when, when_len, "%Y-%m-%d %H:%M", &tm) == 0)
        snprintf(when, when_len, "?");
    return true;
}
