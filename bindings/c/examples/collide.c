/* collide.c: a character among solids from C. A small level (a floor, a wall, eight stairs up to
 * a landing) in a caller-owned HkWorld; a Quake III body runs into the wall, turns, runs along it
 * up the stairs (jumping once on the way) onto the landing; then the same run again through a
 * trace callback, as a game with its own physics would answer it (here it asks the same world).
 * Both runs print the state hash `cargo run -p hopkit-ffi --example world_hash` prints for the
 * core's `movement::step` over `collide::Solid` (scripts/ci-bindings.sh compares them, on x86_64
 * and on a Cortex-M4F).
 *
 *   cargo build -p hopkit-ffi --release
 *   cc -std=c11 -Wall -Wextra -Werror -Ibindings/c/include bindings/c/examples/collide.c \
 *      target/release/libhopkit_ffi.a -lm -lpthread -ldl -o collide && ./collide
 */
#include <stdio.h>
#include "hopkit.h"

#define TICKS 200

static HkWorld level; /* 36 KiB: static rather than on a small stack */

static int build_level(HkWorld *w) {
    uint32_t first = 0;
    if (hk_world_init(w, HK_WORLD_DEFAULT_SKIN) != HK_OK) return 0;          /* Quake units */
    return hk_world_add_box(w, (HkVec3){-512, -16, -704}, (HkVec3){512, 0, 512}, 0, NULL) == HK_OK
        && hk_world_add_box(w, (HkVec3){128, 0, -704}, (HkVec3){144, 160, 256}, 0, NULL) == HK_OK
        && hk_world_add_box(w, (HkVec3){64, 0, -640}, (HkVec3){128, 128, -192}, 0, NULL) == HK_OK
        /* 8 steps, 16 up and 16 deep, 64 wide, rising towards -Z from z = -64 */
        && hk_world_add_stairs(w, (HkVec3){64, 0, -64}, HK_TOWARD_MINUS_Z, 8, 16, 16, 64, 0,
                               &first) == HK_OK
        && first == 3;
}

/* The game's own physics: here the same world, asked through hk_world_trace. */
static int32_t game_trace(void *user, HkVec3 start, HkVec3 end, HkVec3 mins, HkVec3 maxs,
                          HkTrace *out_trace) {
    return hk_world_trace((const HkWorld *)user, start, end, mins, maxs, out_trace) == HK_OK;
}

/* The surface below a point (asked among solids only by a crouch-jump and the water jump). */
static int32_t game_probe(void *user, HkVec3 point, HkGroundHit *out_hit) {
    HkTrace t;
    HkVec3 zero = {0, 0, 0}, below = {point.x, point.y - 65536.0f, point.z};
    if (hk_world_trace((const HkWorld *)user, point, below, zero, zero, &t) != HK_OK
        || t.fraction >= 1.0f || t.start_solid) return 0;
    HkVec3 n = t.plane.normal; /* the plane's height in the point's column (as collide::Solid) */
    out_hit->height = n.y > 0.0f ? (t.plane.dist - n.x * point.x - n.z * point.z) / n.y : t.end.y;
    out_hit->normal = n;
    return 1;
}

/* Runs the script; through the world itself (ground NULL) or through the ground's callbacks. */
static int run(const HkMoveParams *params, const HkGround *ground, uint64_t *out_hash) {
    HkMover mover;
    int hit_wall = 0;
    if (hk_mover_init(&mover, (HkVec3){0.0f, 0.125f, 0.0f}) != HK_OK) return 0;
    for (int tick = 0; tick < TICKS; tick++) {
        HkMoveInput in = {0};
        in.wish = (HkVec2){1.0f, 0.0f};                          /* forward (W) */
        in.facing = tick < 90 ? (HkVec2){1.0f, 0.0f}             /* +X: into the wall */
                              : (HkVec2){0.0f, -1.0f};           /* -Z: up the stairs */
        in.jump = tick == 110;
        HkStepEvents ev;
        HkStatus st = ground ? hk_mover_step(&mover, params, &in, ground, 1.0f / 60.0f, &ev)
                             : hk_mover_step_world(&mover, params, &in, &level, 1.0f / 60.0f, &ev);
        if (st != HK_OK) {
            fprintf(stderr, "step: %s\n", hk_status_str(st));
            return 0;
        }
        hit_wall |= ev.hit_wall;
        if (tick == 89) {
            HkMoverState s;
            hk_mover_get_state(&mover, &s);
            printf("wall: stopped at x = %.3f (face at 128, body radius %.0f), hit_wall %d\n",
                   (double)s.position.x, (double)params->body_radius, hit_wall);
        }
    }
    HkMoverState s;
    hk_mover_get_state(&mover, &s);
    printf("stairs: feet at y = %.3f, z = %.3f, grounded %d\n", (double)s.position.y,
           (double)s.position.z, s.grounded);
    return hk_mover_state_hash(&mover, out_hash) == HK_OK;
}

int main(void) {
    HkMoveParams params;
    if (hk_move_params_quake3(&params) != HK_OK || !build_level(&level)) return 1;
    uint64_t by_world = 0, by_callback = 0;
    if (!run(&params, NULL, &by_world)) return 1;

    HkGround game = {0}; /* zero: every optional callback NULL */
    game.kind = HK_GROUND_CALLBACK;
    game.probe = game_probe;
    game.trace = game_trace;
    game.user = &level;
    if (!run(&params, &game, &by_callback)) return 1;
    if (by_world != by_callback) {
        fprintf(stderr, "the trace callback stepped differently\n");
        return 1;
    }
    char line[HK_HASH_LINE_SIZE];
    hk_format_hash_line(by_world, line, sizeof line);
    printf("%s\n", line);
    return 0;
}
