/* state.h - the app's state as key=value lines (phase=cpu, output=3, ...),
 * one per line: --print-state prints it, tests read it. */
#ifndef CONVIS_STATE_H
#define CONVIS_STATE_H

#include <stdio.h>

#include "app.h"

void app_print_state(const app *a, FILE *f);

#endif
