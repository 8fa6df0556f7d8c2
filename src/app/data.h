/* data.h - where convis finds the files it loads at run time. */
#ifndef CONVIS_DATA_H
#define CONVIS_DATA_H

#include <stdbool.h>
#include <stddef.h>

/* The folder holding shaders/ and assets/, without a trailing '/': the first
 * of $CONVIS_DATA_DIR, the installed share/convis beside the executable
 * (PREFIX/bin/../share/convis) and the source tree convis was built from
 * that has a shaders/ folder; else the install prefix's share/convis, where
 * a missing file then gets its own message. */
const char *app_data_dir(void);

/* A file of the user's own in convis's data folder, $XDG_DATA_HOME/convis/NAME
 * (else ~/.local/share/convis/NAME): true with the path in buf, with `make`
 * its folders made where missing (mkdir -p); false when neither is known or
 * a folder cannot be made. */
bool app_user_file(const char *name, bool make, char *buf, size_t size);

/* The folder the executable is in (main sets it at start-up). */
void app_data_set_base(const char *exe_dir);

#endif
