//! The movement baseline every bench shares: the seed's `GetNextPlayerVector` as a desktop
//! programmer writes it with glam (`normalize_or_zero`, `length`, std `sqrt`), with the constants
//! of `MoveParams::seed()`.

/// The seed's `Clip`.
#[inline]
pub fn clip(val: f32, min: f32, max: f32) -> f32 {
    if val <= min {
        return min;
    }
    if val <= max {
        return val;
    }
    max
}

/// `GetNextPlayerVector` with glam.
#[inline]
pub fn baseline_next(
    player: glam::Vec2,
    input: glam::Vec2,
    dt: f32,
    on_ground: bool,
) -> glam::Vec2 {
    let n = input.normalize_or_zero();
    let (fric, max_speed, accel) = if on_ground {
        (70.0, 10.0, 120.0)
    } else {
        (0.0, 0.5, 100.0)
    };
    let mag_fric = clip(player.length(), 0.0, fric * dt);
    let fric_vec = player.normalize_or_zero() * -mag_fric;
    let pf = player + fric_vec;
    let proj = pf.dot(n);
    let add = clip(max_speed - proj, 0.0, accel * dt);
    pf + n * add
}
