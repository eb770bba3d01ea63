/* minimal.c: the smallest useful hopkit program in C. A character strafe-jumps on flat ground
 * for two seconds; then the shared demo scene runs 600 scripted ticks and prints its state hash,
 * the same line `hopkit-sim hash --scene demo --ticks 600` prints.
 *
 *   cargo build -p hopkit-ffi --release
 *   cc -std=c11 -Wall -Wextra -Werror -Ibindings/c/include bindings/c/examples/minimal.c \
 *      target/release/libhopkit_ffi.a -lm -lpthread -ldl -o minimal && ./minimal
 */
#include <stdio.h>
#include "hopkit.h"

int main(void) {
    HkMoveParams params;
    HkMover mover; /* caller-owned storage: no allocation anywhere */
    HkGround floor = {0};
    floor.kind = HK_GROUND_FLAT;
    floor.height = 0.0f;

    if (hk_move_params_seed(&params) != HK_OK) return 1;
    if (hk_mover_init(&mover, (HkVec3){0.0f, 0.0f, 0.0f}) != HK_OK) return 1;

    for (int tick = 0; tick < 120; tick++) {
        HkMoverState s;
        hk_mover_get_state(&mover, &s);
        HkMoveInput in = {0};
        if (tick < 30) {                                       /* run forward (W) for 0.5 s  */
            in.wish = (HkVec2){1.0f, 0.0f};
            in.facing = (HkVec2){0.0f, -1.0f};
        } else {
            in.wish = (HkVec2){0.0f, 1.0f};                    /* strafe right (D) ...       */
            in.jump = 1;                                       /* ... holding jump: auto-hop */
            in.facing = (HkVec2){s.velocity.x, s.velocity.z}; /* looking along the velocity */
        }
        HkStatus st = hk_mover_step(&mover, &params, &in, &floor, 1.0f / 60.0f, NULL);
        if (st != HK_OK) {
            fprintf(stderr, "hk_mover_step: %s\n", hk_status_str(st));
            return 1;
        }
    }
    float speed = 0.0f;
    hk_mover_planar_speed(&mover, &speed);
    printf("speed after 2 s: %.2f m/s (ground max %.1f)\n", (double)speed, (double)params.max_speed);

    static HkDemoRig rig; /* 2 KiB: static rather than on a small stack */
    hk_demo_init(&rig);
    for (uint32_t t = 0; t < 600; t++) {
        HkRawSticks raw;
        hk_demo_scripted_raw(t, &raw);
        hk_demo_tick(&rig, &raw);
    }
    uint64_t hash = 0;
    char line[HK_HASH_LINE_SIZE];
    hk_demo_state_hash(&rig, &hash);
    hk_format_hash_line(hash, line, sizeof line);
    printf("%s\n", line);
    return 0;
}
