/* keys.h - the key codes and modifiers of input events, as plain data:
 * what the platform layer sends and the action table binds, without SDL.
 * They live in core, below both, so that the model, which may not depend
 * on the platform layer, can name them. */
#ifndef CONVIS_CORE_KEYS_H
#define CONVIS_CORE_KEYS_H

/* Keys: printable ASCII as itself (letters lower-case), others from here. */
enum {
    PLAT_KEY_ESCAPE = 0x10000,
    PLAT_KEY_LEFT,
    PLAT_KEY_RIGHT,
    PLAT_KEY_UP,
    PLAT_KEY_DOWN,
    PLAT_KEY_PAGE_UP,
    PLAT_KEY_PAGE_DOWN,
    PLAT_KEY_F1,
    PLAT_KEY_F5,
    PLAT_KEY_F11,
    PLAT_KEY_HOME,
    PLAT_KEY_END,
};

/* Control keys keep their ASCII codes: '\b' backspace, '\t' tab, '\r' enter. */

enum {
    PLAT_MOD_SHIFT = 1 << 0,
    PLAT_MOD_CTRL = 1 << 1,
    PLAT_MOD_ALT = 1 << 2,
};

#endif
