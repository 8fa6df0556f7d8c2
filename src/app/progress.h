/* progress.h - `convis progress FILE... [--csv]`: learners' attempts files
 * summed up for a teacher (progress.c). */
#ifndef CONVIS_PROGRESS_H
#define CONVIS_PROGRESS_H

/* The command, its arguments after "progress": the exit status. */
int app_progress_main(int argc, char **argv);

#endif
