/*
 * A small libretro frontend for testing hopkit_libretro.so (scripts/ci-libretro.sh): compiled
 * against the real libretro.h (Debian's retroarch-dev), it loads the core with dlopen, feeds it one
 * frame of input per line or byte of an input file, and checks what a frontend relies on:
 *
 *   frontend CORE.so sticks FILE [options]   analog sticks + buttons from a hopkit-sim sticks file
 *   frontend CORE.so gamepad FILE [options]  d-pad + buttons from a gamepad file (WASM-4 bytes)
 *
 * options:
 *   --content GHOST     load a .ghost recording as content (default: none, the bundled ghost)
 *   --frames OUT        write every frame the core draws as 1024 bytes in the SSD1306 page layout
 *                       (what `hopkit-sim hash --sticks FILE --frames OUT` writes), for cmp
 *   --savestates K,...  serialize after frames K..., then for each: restore it, replay the rest of
 *                       the input and require the final savestate byte for byte and the final
 *                       state-hash line; then require corrupt, wrong-version and short states
 *                       refused with the state unchanged
 *
 * Sticks file lines: `left_x left_y right_x right_y buttons`, 12-bit ADC counts (0..4095) and
 * JUMP 1 | FIRE 2 | LEFT_STICK 4 | RIGHT_STICK 8; `#` lines are comments. A count c is sent as
 * the libretro axis value round(c * 65535 / 4095) - 32768 (y: of 4095 - c, libretro's y points
 * down), buttons as B, A, L3, R3. Gamepad bytes: 1 B, 2 A, 16 left, 32 right, 64 up, 128 down.
 *
 * Prints the core's log lines (prefixed `core:`), the time per retro_run, and last the core's
 * final `state-hash: 0x...` line without its tick, comparable with `hopkit-sim hash`. Exits 1 on
 * any failed check, 2 on bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <libretro.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_FRAMES 36000
#define MAX_SAVES 16
#define W 128
#define H 64

struct frame_input {
    int16_t analog[4]; /* lx, ly, rx, ry */
    uint16_t joypad;   /* bit n = RETRO_DEVICE_ID_JOYPAD_* n */
};

static struct frame_input *inputs;
static long n_frames;
static long current;
static FILE *frames_out;
static int pixel_format = RETRO_PIXEL_FORMAT_0RGB1555;
static long video_frames, audio_frames, descriptors;
static char last_hash[64];
static long last_hash_tick = -1;
static int bad_video;

static void (*core_init)(void);
static void (*core_deinit)(void);
static unsigned (*core_api_version)(void);
static void (*core_get_system_info)(struct retro_system_info *);
static void (*core_get_system_av_info)(struct retro_system_av_info *);
static void (*core_set_environment)(retro_environment_t);
static void (*core_set_video_refresh)(retro_video_refresh_t);
static void (*core_set_audio_sample)(retro_audio_sample_t);
static void (*core_set_audio_sample_batch)(retro_audio_sample_batch_t);
static void (*core_set_input_poll)(retro_input_poll_t);
static void (*core_set_input_state)(retro_input_state_t);
static void (*core_run)(void);
static size_t (*core_serialize_size)(void);
static bool (*core_serialize)(void *, size_t);
static bool (*core_unserialize)(const void *, size_t);
static bool (*core_load_game)(const struct retro_game_info *);
static void (*core_unload_game)(void);

static void die(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("frontend: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

static void core_log(enum retro_log_level level, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    line[strcspn(line, "\n")] = 0;
    printf("core: %s%s\n", level >= RETRO_LOG_WARN ? "(warn) " : "", line);
    unsigned long long hash;
    long tick;
    if (sscanf(line, "state-hash: 0x%16llx tick %ld", &hash, &tick) == 2) {
        snprintf(last_hash, sizeof last_hash, "state-hash: 0x%016llx", hash);
        last_hash_tick = tick;
    }
}

static bool environment(unsigned cmd, void *data) {
    switch (cmd) {
    case RETRO_ENVIRONMENT_GET_LOG_INTERFACE:
        ((struct retro_log_callback *)data)->log = core_log;
        return true;
    case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT:
        pixel_format = *(const enum retro_pixel_format *)data;
        return pixel_format == RETRO_PIXEL_FORMAT_RGB565 ||
               pixel_format == RETRO_PIXEL_FORMAT_0RGB1555;
    case RETRO_ENVIRONMENT_SET_SUPPORT_NO_GAME:
        return *(const bool *)data;
    case RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS: {
        const struct retro_input_descriptor *d = data;
        for (descriptors = 0; d[descriptors].description; descriptors++)
            ;
        return true;
    }
    default:
        return false;
    }
}

static void video(const void *data, unsigned width, unsigned height, size_t pitch) {
    video_frames++;
    if (!data || width != W || height != H || pitch < W * 2) {
        bad_video = 1;
        return;
    }
    if (!frames_out)
        return;
    /* The SSD1306 page layout: byte page*128 + x, bit y % 8. */
    uint8_t page[W * H / 8] = {0};
    for (unsigned y = 0; y < H; y++) {
        const uint16_t *row = (const uint16_t *)((const uint8_t *)data + y * pitch);
        for (unsigned x = 0; x < W; x++)
            if (row[x])
                page[(y / 8) * W + x] |= (uint8_t)(1u << (y % 8));
    }
    if (fwrite(page, sizeof page, 1, frames_out) != 1)
        die(2, "cannot write frames");
}

static void audio_sample(int16_t l, int16_t r) {
    (void)l;
    (void)r;
    audio_frames++;
}

static size_t audio_batch(const int16_t *data, size_t frames) {
    (void)data;
    audio_frames += (long)frames;
    return frames;
}

static void input_poll(void) {}

static int16_t input_state(unsigned port, unsigned device, unsigned index, unsigned id) {
    if (port != 0 || current < 0 || current >= n_frames)
        return 0;
    const struct frame_input *in = &inputs[current];
    if (device == RETRO_DEVICE_ANALOG && index <= RETRO_DEVICE_INDEX_ANALOG_RIGHT &&
        id <= RETRO_DEVICE_ID_ANALOG_Y)
        return in->analog[index * 2 + id];
    if (device == RETRO_DEVICE_JOYPAD) {
        if (id == RETRO_DEVICE_ID_JOYPAD_MASK)
            return (int16_t)in->joypad;
        if (id < 16)
            return (in->joypad >> id) & 1;
    }
    return 0;
}

static int16_t count_to_axis(long c) {
    return (int16_t)((c * 65535 + 2047) / 4095 - 32768);
}

static void read_sticks(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        die(2, "cannot open sticks file %s", path);
    char line[256];
    long lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == 0)
            continue;
        long v[5];
        char extra;
        if (sscanf(p, "%ld %ld %ld %ld %ld %c", &v[0], &v[1], &v[2], &v[3], &v[4], &extra) != 5)
            die(2, "sticks file %s line %ld: expected 5 numbers", path, lineno);
        for (int i = 0; i < 4; i++)
            if (v[i] < 0 || v[i] > 4095)
                die(2, "sticks file %s line %ld: count %ld outside 0..4095", path, lineno, v[i]);
        if (v[4] < 0 || v[4] > 15)
            die(2, "sticks file %s line %ld: buttons %ld outside 0..15", path, lineno, v[4]);
        if (n_frames == MAX_FRAMES)
            die(2, "sticks file %s: more than %d lines", path, MAX_FRAMES);
        struct frame_input *in = &inputs[n_frames++];
        in->analog[0] = count_to_axis(v[0]);
        in->analog[1] = count_to_axis(4095 - v[1]);
        in->analog[2] = count_to_axis(v[2]);
        in->analog[3] = count_to_axis(4095 - v[3]);
        in->joypad = 0;
        if (v[4] & 1)
            in->joypad |= 1u << RETRO_DEVICE_ID_JOYPAD_B;
        if (v[4] & 2)
            in->joypad |= 1u << RETRO_DEVICE_ID_JOYPAD_A;
        if (v[4] & 4)
            in->joypad |= 1u << RETRO_DEVICE_ID_JOYPAD_L3;
        if (v[4] & 8)
            in->joypad |= 1u << RETRO_DEVICE_ID_JOYPAD_R3;
    }
    fclose(f);
}

static void read_gamepad(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        die(2, "cannot open gamepad file %s", path);
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (n_frames == MAX_FRAMES)
            die(2, "gamepad file %s: more than %d bytes", path, MAX_FRAMES);
        struct frame_input *in = &inputs[n_frames++];
        memset(in, 0, sizeof *in);
        static const struct {
            int bit;
            unsigned id;
        } map[] = {{1, RETRO_DEVICE_ID_JOYPAD_B},     {2, RETRO_DEVICE_ID_JOYPAD_A},
                   {16, RETRO_DEVICE_ID_JOYPAD_LEFT}, {32, RETRO_DEVICE_ID_JOYPAD_RIGHT},
                   {64, RETRO_DEVICE_ID_JOYPAD_UP},   {128, RETRO_DEVICE_ID_JOYPAD_DOWN}};
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
            if (c & map[i].bit)
                in->joypad |= (uint16_t)(1u << map[i].id);
    }
    fclose(f);
}

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p)
        die(1, "core has no %s", name);
    return p;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double *times_us; /* per frame of the main run */

static void run_from(long first, int timed) {
    for (current = first; current < n_frames; current++) {
        double t0 = now_us();
        core_run();
        if (timed)
            times_us[current] = now_us() - t0;
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 4)
        die(2, "usage: frontend CORE.so sticks|gamepad FILE [--content GHOST] [--frames OUT] "
               "[--savestates K,...]");
    const char *content_path = NULL, *frames_path = NULL, *saves_arg = NULL;
    for (int i = 4; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--content"))
            content_path = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--frames"))
            frames_path = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--savestates"))
            saves_arg = argv[++i];
        else
            die(2, "unknown argument %s", argv[i]);
    }
    inputs = calloc(MAX_FRAMES, sizeof *inputs);
    times_us = calloc(MAX_FRAMES, sizeof *times_us);
    if (!inputs || !times_us)
        die(2, "out of memory");
    if (!strcmp(argv[2], "sticks"))
        read_sticks(argv[3]);
    else if (!strcmp(argv[2], "gamepad"))
        read_gamepad(argv[3]);
    else
        die(2, "input kind must be sticks or gamepad, not %s", argv[2]);
    if (n_frames == 0)
        die(2, "%s: no frames", argv[3]);

    long save_at[MAX_SAVES];
    int n_saves = 0;
    for (const char *p = saves_arg; p && *p;) {
        char *end;
        long k = strtol(p, &end, 10);
        if (end == p || k < 1 || k >= n_frames || n_saves == MAX_SAVES)
            die(2, "--savestates: frames between 1 and %ld, at most %d", n_frames - 1, MAX_SAVES);
        save_at[n_saves++] = k;
        p = *end == ',' ? end + 1 : end;
    }

    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        die(1, "dlopen %s: %s", argv[1], dlerror());
    *(void **)&core_init = sym(lib, "retro_init");
    *(void **)&core_deinit = sym(lib, "retro_deinit");
    *(void **)&core_api_version = sym(lib, "retro_api_version");
    *(void **)&core_get_system_info = sym(lib, "retro_get_system_info");
    *(void **)&core_get_system_av_info = sym(lib, "retro_get_system_av_info");
    *(void **)&core_set_environment = sym(lib, "retro_set_environment");
    *(void **)&core_set_video_refresh = sym(lib, "retro_set_video_refresh");
    *(void **)&core_set_audio_sample = sym(lib, "retro_set_audio_sample");
    *(void **)&core_set_audio_sample_batch = sym(lib, "retro_set_audio_sample_batch");
    *(void **)&core_set_input_poll = sym(lib, "retro_set_input_poll");
    *(void **)&core_set_input_state = sym(lib, "retro_set_input_state");
    *(void **)&core_run = sym(lib, "retro_run");
    *(void **)&core_serialize_size = sym(lib, "retro_serialize_size");
    *(void **)&core_serialize = sym(lib, "retro_serialize");
    *(void **)&core_unserialize = sym(lib, "retro_unserialize");
    *(void **)&core_load_game = sym(lib, "retro_load_game");
    *(void **)&core_unload_game = sym(lib, "retro_unload_game");
    /* The rest of the API must be there too, even if this frontend does not call it. */
    const char *others[] = {"retro_reset", "retro_set_controller_port_device", "retro_cheat_reset",
                            "retro_cheat_set", "retro_load_game_special", "retro_get_region",
                            "retro_get_memory_data", "retro_get_memory_size"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        sym(lib, others[i]);

    if (core_api_version() != RETRO_API_VERSION)
        die(1, "core API version %u, expected %d", core_api_version(), RETRO_API_VERSION);
    core_set_environment(environment);
    core_set_video_refresh(video);
    core_set_audio_sample(audio_sample);
    core_set_audio_sample_batch(audio_batch);
    core_set_input_poll(input_poll);
    core_set_input_state(input_state);
    core_init();
    struct retro_system_info si;
    memset(&si, 0, sizeof si);
    core_get_system_info(&si);

    struct retro_game_info game = {0};
    void *content = NULL;
    if (content_path) {
        FILE *f = fopen(content_path, "rb");
        if (!f)
            die(2, "cannot open content %s", content_path);
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        content = malloc(size > 0 ? (size_t)size : 1);
        if (!content || (size > 0 && fread(content, (size_t)size, 1, f) != 1))
            die(2, "cannot read content %s", content_path);
        fclose(f);
        game.path = content_path;
        game.data = content;
        game.size = (size_t)size;
    }
    if (!core_load_game(content_path ? &game : NULL))
        die(1, "retro_load_game failed");
    struct retro_system_av_info av;
    memset(&av, 0, sizeof av);
    core_get_system_av_info(&av);
    printf("frontend: core %s %s (extensions %s), %ux%u aspect %.3f, %.1f fps, %.0f Hz, pixel "
           "format %s, %ld input descriptors\n",
           si.library_name, si.library_version, si.valid_extensions, av.geometry.base_width,
           av.geometry.base_height, av.geometry.aspect_ratio, av.timing.fps,
           av.timing.sample_rate,
           pixel_format == RETRO_PIXEL_FORMAT_RGB565 ? "RGB565" : "0RGB1555", descriptors);
    int failed = 0;
    if (av.geometry.base_width != W || av.geometry.base_height != H || av.timing.fps != 60.0 ||
        descriptors < 8 || si.need_fullpath) {
        printf("frontend: FAIL: unexpected system or AV info\n");
        failed = 1;
    }

    if (frames_path && !(frames_out = fopen(frames_path, "wb")))
        die(2, "cannot create %s", frames_path);

    size_t size = core_serialize_size();
    uint8_t *saves = calloc((size_t)MAX_SAVES + 2, size ? size : 1);
    uint8_t *end_state = saves + (size_t)MAX_SAVES * size;
    uint8_t *check = end_state + size;
    if (!saves)
        die(2, "out of memory");

    /* The main run, timed; savestates taken on the way (untimed). */
    long from = 0;
    for (int s = 0; s <= n_saves; s++) {
        long to = s < n_saves ? save_at[s] : n_frames;
        long keep = n_frames;
        n_frames = to;
        run_from(from, 1);
        n_frames = keep;
        if (s < n_saves && !core_serialize(saves + (size_t)s * size, size)) {
            printf("frontend: FAIL: retro_serialize after frame %ld\n", to);
            failed = 1;
        }
        from = to;
    }
    double total = 0;
    for (long i = 0; i < n_frames; i++)
        total += times_us[i];
    double first_us = times_us[0];
    qsort(times_us, (size_t)n_frames, sizeof *times_us, cmp_double);
    printf("frontend: %ld frames; retro_run mean %.1f us, median %.1f us, 99th percentile %.1f "
           "us, max %.1f us (first frame %.1f us); %ld video frames, %ld audio frames\n",
           n_frames, total / (double)n_frames, times_us[n_frames / 2],
           times_us[(n_frames * 99) / 100], times_us[n_frames - 1], first_us, video_frames,
           audio_frames);
    if (video_frames != n_frames || bad_video || audio_frames == 0) {
        printf("frontend: FAIL: a picture per frame at 128x64 and sound expected\n");
        failed = 1;
    }
    if (frames_out) {
        fclose(frames_out);
        frames_out = NULL;
    }

    if (n_saves > 0) {
        char end_hash[64];
        if (!core_serialize(end_state, size))
            die(1, "retro_serialize at the end failed");
        strcpy(end_hash, last_hash);
        for (int s = 0; s < n_saves; s++) {
            if (!core_unserialize(saves + (size_t)s * size, size)) {
                printf("frontend: FAIL: retro_unserialize of the state after frame %ld\n",
                       save_at[s]);
                failed = 1;
                continue;
            }
            run_from(save_at[s], 0);
            if (!core_serialize(check, size) || memcmp(check, end_state, size) != 0) {
                printf("frontend: FAIL: restored after frame %ld, replayed to %ld: the state "
                       "differs from the uninterrupted run's\n",
                       save_at[s], n_frames);
                failed = 1;
            } else if (strcmp(last_hash, end_hash) != 0) {
                printf("frontend: FAIL: restored after frame %ld: last hash line %s, uninterrupted "
                       "%s\n",
                       save_at[s], last_hash, end_hash);
                failed = 1;
            }
        }
        if (!failed)
            printf("frontend: savestates (%zu bytes) restored after frames %s and replayed: "
                   "the same %zu bytes at frame %ld\n",
                   size, saves_arg, size, n_frames);
        /* Refusals: a flipped byte, another format version, a short buffer; state unchanged. */
        struct {
            const char *what;
            size_t at;
            uint8_t xor;
            size_t len;
        } bad[] = {{"corrupt (one byte flipped)", size / 2, 0x40, size},
                   {"another format version", 8, 0x07, size},
                   {"not a savestate (magic)", 0, 0xff, size},
                   {"short (half the bytes)", 0, 0, size / 2}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memcpy(check, saves, size);
            check[bad[i].at] ^= bad[i].xor;
            if (core_unserialize(check, bad[i].len)) {
                printf("frontend: FAIL: %s savestate accepted\n", bad[i].what);
                failed = 1;
            }
            uint8_t *after = malloc(size);
            if (!after)
                die(2, "out of memory");
            if (!core_serialize(after, size) || memcmp(after, end_state, size) != 0) {
                printf("frontend: FAIL: a refused savestate changed the state\n");
                failed = 1;
            }
            free(after);
        }
        if (!failed)
            printf("frontend: corrupt, wrong-version, non-hopkit and short savestates refused; "
                   "state unchanged\n");
    }

    core_unload_game();
    core_deinit();
    dlclose(lib);
    free(content);
    free(saves);
    free(inputs);
    free(times_us);
    if (last_hash_tick != n_frames) {
        printf("frontend: FAIL: the core's last state-hash line is for tick %ld, expected %ld\n",
               last_hash_tick, n_frames);
        failed = 1;
    }
    printf("%s\n", last_hash);
    return failed;
}
