/* hopkit_demo.c: the C ABI end to end.
 *
 *   1. a bunny-hop bot strafe-jumps through the mover API on a floor given as a C callback;
 *   2. the bundled ghost recording is validated, replayed exactly against its checksums, flown as
 *      AI for 10 s, and a corrupted copy is rejected;
 *   3. d-pad / crank adapters for runtimes without analog sticks;
 *   4. the shared demo scene runs N scripted ticks and prints `state-hash: 0x...`, the same line
 *      as `hopkit-sim hash --scene demo --ticks N` (and checked against hk_demo_scripted_hash).
 *
 * Usage: hopkit_demo [ticks]   (default 600). Exit status 0 on success.
 * Build: see bindings/c/Makefile (gcc -std=c11 -Wall -Wextra -Werror, static libhopkit_ffi.a).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hopkit.h"

#define CHECK(call)                                                                   \
    do {                                                                              \
        HkStatus st_ = (call);                                                        \
        if (st_ != HK_OK) {                                                           \
            fprintf(stderr, "%s:%d: %s -> %d (%s)\n", __FILE__, __LINE__, #call,      \
                    (int)st_, hk_status_str(st_));                                    \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* Every opaque storage size in the header matches the struct C sees. */
_Static_assert(sizeof(HkMover) == HK_MOVER_SIZE, "HkMover size");
_Static_assert(sizeof(HkDemoRig) == HK_DEMO_RIG_SIZE, "HkDemoRig size");
_Static_assert(_Alignof(HkGhost) == HK_OPAQUE_ALIGN, "opaque alignment");

/* ---- 1. bunny-hop bot -------------------------------------------------------------------- */

/* The game engine's ground: here a flat floor at height 0 (a real engine would ray-cast). */
static int32_t engine_floor(void *user, HkVec3 point, HkGroundHit *out_hit) {
    const float *height = (const float *)user;
    (void)point;
    out_hit->height = *height;
    out_hit->normal = (HkVec3){0.0f, 1.0f, 0.0f};
    return 1;
}

static void bhop_bot(void) {
    HkMoveParams params;
    CHECK(hk_move_params_seed(&params));
    static float floor_height = 0.0f;
    HkGround ground = {0};
    ground.kind = HK_GROUND_CALLBACK;
    ground.probe = engine_floor;
    ground.user = &floor_height;

    HkMover mover;
    CHECK(hk_mover_init(&mover, (HkVec3){0.0f, 0.0f, 0.0f}));
    const float dt = 1.0f / 60.0f;
    unsigned jumps = 0;
    float top_speed = 0.0f;
    printf("bhop bot (seed preset, ground max %.1f m/s):\n", (double)params.max_speed);
    for (int tick = 0; tick <= 60 * 12; tick++) {
        HkMoverState s;
        CHECK(hk_mover_get_state(&mover, &s));
        HkMoveInput in = {0};
        if (tick < 60) {
            /* Run forward (W) for a second to reach ground speed. */
            in.wish = (HkVec2){1.0f, 0.0f};
            in.facing = (HkVec2){0.0f, -1.0f};
        } else {
            /* Strafe-jump: hold jump (auto-hop), strafe perpendicular to the velocity by looking
             * along it and holding A or D, switching sides every 1.5 s like a human would.
             * hopkit normalises the facing vector itself. */
            int side = ((tick - 60) / 90) % 2 == 0 ? 1 : -1;
            in.wish = (HkVec2){0.0f, (float)side};
            in.jump = 1;
            in.facing = (HkVec2){s.velocity.x, s.velocity.z};
        }
        HkStepEvents ev;
        CHECK(hk_mover_step(&mover, &params, &in, &ground, dt, &ev));
        jumps += ev.jumped;
        float speed;
        CHECK(hk_mover_planar_speed(&mover, &speed));
        if (speed > top_speed) top_speed = speed;
        if (tick % 120 == 0) {
            CHECK(hk_mover_get_state(&mover, &s));
            printf("  t=%5.2f s  speed %6.2f m/s  pos (%7.2f, %5.2f, %8.2f)  %s\n",
                   (double)(tick * dt), (double)speed, (double)s.position.x,
                   (double)s.position.y, (double)s.position.z, s.grounded ? "ground" : "air");
        }
    }
    uint64_t h;
    CHECK(hk_mover_state_hash(&mover, &h));
    printf("  %u jumps, top speed %.2f m/s = %.0f%% of ground max; mover hash %016llx\n", jumps,
           (double)top_speed, (double)(100.0f * top_speed / params.max_speed),
           (unsigned long long)h);
    if (!(top_speed > 1.3f * params.max_speed)) {
        fprintf(stderr, "bhop bot did not gain speed\n");
        exit(1);
    }
}

/* ---- 2. ghost recording ------------------------------------------------------------------ */

static void ghost_playback(void) {
    const uint8_t *bytes;
    size_t len;
    CHECK(hk_demo_recording(&bytes, &len));

    HkRecording rec;
    HkRecordingError err;
    CHECK(hk_recording_open(&rec, bytes, len, &err));
    HkRecordingInfo info;
    CHECK(hk_recording_info(&rec, &info));
    printf("ghost recording: %u bytes, %u frames at %u Hz, a checksum every %u ticks\n",
           (unsigned)info.byte_len, info.frame_count, info.tick_hz, info.checksum_interval);

    /* Exact replay from the recording pilot's start: every stored checksum must match. */
    HkFlyerState start;
    const HkVec3 *targets;
    size_t target_count;
    CHECK(hk_demo_recording_setup(&start, &targets, &target_count));
    HkGround level = {0};
    level.kind = HK_GROUND_DEMO;
    uint32_t checks = 0;
    HkDesync desync;
    CHECK(hk_recording_verify(&rec, NULL, &start, targets, target_count, &level, &checks, &desync));
    printf("  exact replay: %u/%u state checksums match\n", checks, info.checksum_count);

    /* The same recording as AI: a ghost elsewhere turns towards the nearest target. */
    HkGhost ghost;
    HkFlyerState spawn = start;
    spawn.position = (HkVec3){30.0f, 16.0f, -30.0f};
    CHECK(hk_ghost_init(&ghost, &spawn, 900));
    unsigned fired = 0, skips = 0;
    for (int t = 0; t < 600; t++) {
        HkGhostTick gt;
        CHECK(hk_ghost_step(&ghost, &rec, NULL, targets, target_count, &level, &gt));
        fired += gt.firing;
        skips += gt.skipped;
    }
    HkGhostView gv;
    CHECK(hk_ghost_view(&ghost, &gv));
    printf("  ghost AI, 10 s: at (%.1f, %.1f, %.1f), fired %u ticks, %u condition skips\n",
           (double)gv.flyer.position.x, (double)gv.flyer.position.y,
           (double)gv.flyer.position.z, fired, skips);

    /* Bad recordings are rejected with a reason; nothing is written to the storage. */
    static uint8_t corrupt[8192];
    if (len > sizeof corrupt) exit(1);
    memcpy(corrupt, bytes, len);
    corrupt[100] ^= 0x40;
    HkRecording bad;
    HkStatus st = hk_recording_open(&bad, corrupt, len, &err);
    printf("  corrupted copy: %s (kind %u: stored crc %08llx, computed %08llx)\n",
           hk_status_str(st), err.kind, (unsigned long long)err.expected,
           (unsigned long long)err.found);
    if (st != HK_ERR_BAD_RECORDING || err.kind != HK_REC_CRC_MISMATCH) exit(1);
    st = hk_recording_open(&bad, bytes, len - 1, &err);
    if (st != HK_ERR_BAD_RECORDING || err.kind != HK_REC_TRUNCATED) exit(1);
    if (hk_ghost_step(&ghost, &bad, NULL, NULL, 0, NULL, NULL) != HK_ERR_UNINITIALIZED) exit(1);
}

/* ---- 3. inputs without analog sticks -------------------------------------------------------- */

static void digital_inputs(void) {
    HkWish w;
    CHECK(hk_wish_from_keys(HK_DPAD_UP | HK_DPAD_RIGHT, &w));
    printf("W+D -> wish (front %.6f, right %.6f, magnitude %.1f)\n", (double)w.front,
           (double)w.right, (double)w.magnitude);
    CHECK(hk_wish_from_keys(HK_DPAD_UP | HK_DPAD_RIGHT | HK_DPAD_LEFT, &w));
    printf("W+D+A -> wish (front %.1f, right %.1f)\n", (double)w.front, (double)w.right);
    HkVec2 stick;
    CHECK(hk_dpad_to_stick(HK_DPAD_UP, 0, NULL, &stick));
    printf("d-pad up, walking -> stick (%.2f, %.2f)\n", (double)stick.x, (double)stick.y);
    HkRawSticks raw;
    CHECK(hk_wasm4_to_raw(HK_W4_UP | HK_W4_LEFT | HK_W4_BUTTON_1, &raw));
    HkStickConfig cfg;
    HkStickPipeline pipe;
    HkStickFrame frame;
    CHECK(hk_stick_config_digital(&cfg));
    CHECK(hk_stick_pipeline_init(&pipe, &cfg));
    CHECK(hk_stick_pipeline_process(&pipe, &raw, &frame));
    printf("WASM-4 UP|LEFT|X -> stick (%.6f, %.6f), buttons held %u\n", (double)frame.left.x,
           (double)frame.left.y, frame.buttons.held);
    float yaw;
    CHECK(hk_crank_yaw_delta(90.0f, 1.0f, &yaw));
    printf("crank +90 deg -> yaw %.4f rad (clockwise turns right)\n", (double)yaw);
    if (hk_dpad_direction(0x10, &stick) != HK_ERR_INVALID_ARG) exit(1);
    if (hk_crank_to_stick(NAN, &stick) != HK_ERR_INVALID_ARG) exit(1);
}

/* ---- 4. the shared demo scene ------------------------------------------------------------ */

static HkDemoRig rig; /* 2 KiB */

static void demo_scene(uint32_t ticks) {
    CHECK(hk_demo_init(&rig));
    for (uint32_t t = 0; t < ticks; t++) {
        HkRawSticks raw;
        CHECK(hk_demo_scripted_raw(t, &raw));
        CHECK(hk_demo_tick(&rig, &raw));
    }
    HkDemoView view;
    CHECK(hk_demo_view(&rig, &view));
    printf("demo scene after %u ticks: player (%.2f, %.2f, %.2f) at %.2f m/s, %u critters, "
           "%u ghosts, %u crumbs\n",
           view.tick, (double)view.player_position.x, (double)view.player_position.y,
           (double)view.player_position.z, (double)view.player_speed, view.critter_count,
           view.ghost_count, view.crumb_count);
    uint64_t hash, expected;
    CHECK(hk_demo_state_hash(&rig, &hash));
    CHECK(hk_demo_scripted_hash(ticks, &expected));
    if (hash != expected) {
        fprintf(stderr, "hash mismatch: rig %016llx, scripted %016llx\n",
                (unsigned long long)hash, (unsigned long long)expected);
        exit(1);
    }
    char line[HK_HASH_LINE_SIZE];
    CHECK(hk_format_hash_line(hash, line, sizeof line));
    printf("%s\n", line);
}

int main(int argc, char **argv) {
    uint32_t ticks = 600;
    if (argc > 1) {
        char *end;
        unsigned long v = strtoul(argv[1], &end, 10);
        if (*end != '\0' || v > 100000000ul) {
            fprintf(stderr, "usage: %s [ticks]\n", argv[0]);
            return 2;
        }
        ticks = (uint32_t)v;
    }
    if (hk_abi_version() != HK_ABI_VERSION) {
        fprintf(stderr, "header ABI %u, library ABI %u\n", HK_ABI_VERSION, hk_abi_version());
        return 1;
    }
    printf("hopkit %s (C ABI %u)\n", hk_version(), hk_abi_version());
    bhop_bot();
    ghost_playback();
    digital_inputs();
    demo_scene(ticks);
    return 0;
}
