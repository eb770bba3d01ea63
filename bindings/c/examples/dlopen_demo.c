/* dlopen_demo.c: load hopkit as a shared library at run time, the way a game engine loads a
 * native plugin (Godot GDExtension, Unity, LÖVE/LuaJIT FFI), step the demo rig through the C ABI
 * and print its state hash, the line `hopkit-sim hash --scene demo --ticks N` prints.
 *
 *   cargo build -p hopkit-ffi --release            # also builds target/release/libhopkit_ffi.so
 *   cc -std=c11 -Wall -Wextra -Werror -Ibindings/c/include bindings/c/examples/dlopen_demo.c \
 *      -ldl -o dlopen_demo && ./dlopen_demo target/release/libhopkit_ffi.so 600
 *
 * Only the header's types are used at compile time; every function is looked up with dlsym.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hopkit.h"

typedef HkStatus (*demo_init_fn)(HkDemoRig *);
typedef HkStatus (*demo_scripted_raw_fn)(uint32_t, HkRawSticks *);
typedef HkStatus (*demo_tick_fn)(HkDemoRig *, const HkRawSticks *);
typedef HkStatus (*demo_state_hash_fn)(const HkDemoRig *, uint64_t *);
typedef HkStatus (*format_hash_line_fn)(uint64_t, char *, size_t);

/* dlsym returns void *; converting it to a function pointer goes through memcpy (ISO C). */
static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
        exit(1);
    }
    return p;
}
#define LOOKUP(type, var, name) \
    type var;                   \
    do {                        \
        void *p_ = sym(lib, name); \
        memcpy(&var, &p_, sizeof var); \
    } while (0)

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "libhopkit_ffi.so";
    unsigned long ticks = argc > 2 ? strtoul(argv[2], NULL, 10) : 600;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        return 1;
    }
    LOOKUP(demo_init_fn, demo_init, "hk_demo_init");
    LOOKUP(demo_scripted_raw_fn, scripted_raw, "hk_demo_scripted_raw");
    LOOKUP(demo_tick_fn, demo_tick, "hk_demo_tick");
    LOOKUP(demo_state_hash_fn, state_hash, "hk_demo_state_hash");
    LOOKUP(format_hash_line_fn, format_line, "hk_format_hash_line");

    static HkDemoRig rig; /* caller-owned storage, HK_DEMO_RIG_SIZE bytes */
    if (demo_init(&rig) != HK_OK) return 1;
    for (unsigned long t = 0; t < ticks; t++) {
        HkRawSticks raw;
        if (scripted_raw((uint32_t)t, &raw) != HK_OK) return 1;
        if (demo_tick(&rig, &raw) != HK_OK) return 1;
    }
    uint64_t hash = 0;
    char line[HK_HASH_LINE_SIZE];
    if (state_hash(&rig, &hash) != HK_OK || format_line(hash, line, sizeof line) != HK_OK) return 1;
    printf("%s\n", line);
    dlclose(lib);
    return 0;
}
