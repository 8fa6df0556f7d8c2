/* img_place_new where the file system has no hard links (FAT, exFAT, some
 * network mounts): this test's own link() answers EPERM, as theirs do, in
 * place of the C library's; a whole file must still reach its new name,
 * and never over a file there. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "core/image.h"

static int links_tried;

int link(const char *from, const char *to)
{
    (void)from, (void)to;
    ++links_tried;
    errno = EPERM;
    return -1;
}

static bool write_text(FILE *f, const void *ctx)
{
    return fputs(ctx, f) >= 0;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(void)
{
    char dir[] = "/tmp/convis-test-place.XXXXXX", path[128], old[128];
    CHECK(mkdtemp(dir) != NULL, "a scratch folder");
    snprintf(path, sizeof path, "%s/new.json", dir);
    snprintf(old, sizeof old, "%s/old.json", dir);

    CHECK(img_write_file(path, write_text, "{\"a\": 1}\n", true) && file_size(path) == 9 && links_tried == 1,
          "a new file through the name taken with O_EXCL: %s (size %ld)", err_msg(), file_size(path));
    CHECK(!img_write_file(path, write_text, "{}\n", true) && err_last_kind() == ERR_EXISTS && file_size(path) == 9,
          "never over a file: %s, size %ld", err_msg(), file_size(path));
    FILE *f = fopen(old, "w");
    CHECK(f && fputs("mine", f) >= 0 && fclose(f) == 0, "a file of the user's");
    CHECK(img_place_new(path, old) != 0 && errno == EEXIST && file_size(old) == 4, "img_place_new keeps it");
    unlink(path);
    unlink(old);
    CHECK(rmdir(dir) == 0, "nothing else left in the folder (no temporary file)");
    return CHECK_SUMMARY();
}
