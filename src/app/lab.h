/* lab.h - `convis lab FILE.comp [IMAGE]`: the kernel lab (lab.c). */
#ifndef CONVIS_APP_LAB_H
#define CONVIS_APP_LAB_H

/* The command, its arguments after "lab": the exit status (0: the kernel
 * compiles and every output is right). */
int app_lab_main(int argc, char **argv);

#endif
