// cpp_smoke.cpp: the header from C++ (g++ -std=c++17 -Wall -Wextra -Werror -pedantic): a mover on
// a flat floor and the demo hash, through the same static library.
#include <cstdint>
#include <cstdio>

#include "hopkit.h"

int main() {
    HkMoveParams params{};
    if (hk_move_params_quakeworld(&params) != HK_OK) return 1;
    HkMover mover{};
    if (hk_mover_init(&mover, HkVec3{0.0f, 0.0f, 0.0f}) != HK_OK) return 1;
    HkGround floor{};
    floor.kind = HK_GROUND_FLAT;
    HkMoveInput in{};
    in.wish = HkVec2{1.0f, 0.0f};
    in.facing = HkVec2{0.0f, -1.0f};
    for (int i = 0; i < 120; ++i) {
        if (hk_mover_step(&mover, &params, &in, &floor, 1.0f / 125.0f, nullptr) != HK_OK) return 1;
    }
    float speed = 0.0f;
    hk_mover_planar_speed(&mover, &speed);
    std::printf("C++: QuakeWorld run speed after 120 ticks at 125 Hz: %.1f ups\n", double(speed));
    std::uint64_t hash = 0;
    char line[HK_HASH_LINE_SIZE];
    if (hk_demo_scripted_hash(600, &hash) != HK_OK) return 1;
    hk_format_hash_line(hash, line, sizeof line);
    std::printf("%s\n", line);
    return speed > 300.0f ? 0 : 1;
}
