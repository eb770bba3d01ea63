//! Desktop input: keyboard, mouse and gamepads, gathered into one [`HostInput`] per tick.
//!
//! Nothing here simulates: [`HostInput`] is turned into the handheld's raw stick samples by
//! [`crate::rig`], which feeds them through the core's stick pipeline like the firmware does.

/// One tick of desktop input, before the stick pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostInput {
    /// Keyboard movement keys (W, A, S, D or the arrow keys).
    pub keys: Keys,
    /// Mouse look: horizontal mouse motion this tick, window pixels (right = positive).
    pub mouse_dx: f32,
    /// A gamepad's state, if one is connected and was used last.
    pub pad: Option<PadAxes>,
    /// Jump held (Space, gamepad south button).
    pub jump: bool,
    /// Fire held (F, left mouse button, gamepad right trigger or west button).
    pub fire: bool,
    /// Ghost recording only: missile (M, right mouse button, gamepad east button).
    pub missile: bool,
    /// Ghost recording only: Toward held (T, gamepad north button).
    pub toward: bool,
    /// Ghost recording only: Away held (G, gamepad left shoulder).
    pub away: bool,
}

/// Movement keys held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    /// Forward (W / Up).
    pub forward: bool,
    /// Back (S / Down).
    pub back: bool,
    /// Strafe left (A).
    pub left: bool,
    /// Strafe right (D).
    pub right: bool,
    /// Turn left (Q / Left arrow).
    pub turn_left: bool,
    /// Turn right (E / Right arrow).
    pub turn_right: bool,
}

/// Analog sticks of a gamepad, each component in `[−1, 1]`, `y` up (the core's stick
/// convention; [`crate::gamepad`] converts each backend's raw axes to it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadAxes {
    /// Left stick x (right +).
    pub left_x: f32,
    /// Left stick y (up +).
    pub left_y: f32,
    /// Right stick x (right +).
    pub right_x: f32,
    /// Right stick y (up +).
    pub right_y: f32,
}

/// Gamepad buttons that matter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PadButtons {
    /// South (A / Cross) or left trigger: jump.
    pub jump: bool,
    /// Right trigger / west (X / Square): fire.
    pub fire: bool,
    /// East (B / Circle): missile.
    pub missile: bool,
    /// North (Y / Triangle): Toward.
    pub toward: bool,
    /// Left shoulder: Away.
    pub away: bool,
}

/// Mouse pixels per tick that count as a full turn (the demo's fastest view turn).
pub const MOUSE_FULL_DEFLECTION_PX: f32 = 16.0;

/// Right-stick x deflection in `[−1, 1]` for a mouse motion of `dx` pixels in one tick.
///
/// A mouse should turn the view in proportion to its motion, but the handheld's look stick is
/// shaped by the core's stick pipeline (deadzone, saturation, cubic curve:
/// [`hopkit::stick::ShapeParams::look`]). So the wanted turn `dx / MOUSE_FULL_DEFLECTION_PX` is
/// mapped through the inverse of that shaping (found by bisection on [`hopkit::stick::shape()`]):
/// after the pipeline the turn rate is linear in the mouse motion again.
pub fn mouse_look_deflection(dx: f32) -> f32 {
    if !dx.is_finite() {
        return 0.0;
    }
    let want = (dx / MOUSE_FULL_DEFLECTION_PX).clamp(-1.0, 1.0);
    want.signum() * unshape_look(want.abs())
}

/// The stick deflection in `[0, 1]` that [`hopkit::stick::ShapeParams::look`] shapes to `out`.
pub fn unshape_look(out: f32) -> f32 {
    use hopkit::math::Vec2;
    use hopkit::stick::{shape, ShapeParams};
    if out <= 0.0 {
        return 0.0;
    }
    let params = ShapeParams::look();
    let f = |x: f32| shape(Vec2::new(x, 0.0), &params).x;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < out {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mouse_deflection_is_clamped_and_finite() {
        use hopkit::math::Vec2;
        use hopkit::stick::{shape, ShapeParams};
        assert_eq!(mouse_look_deflection(0.0), 0.0);
        assert_eq!(mouse_look_deflection(f32::NAN), 0.0);
        assert!(mouse_look_deflection(-1000.0) < -0.9);
        // After the pipeline's look shaping, the turn is linear in the mouse motion.
        for px in [1.0, 4.0, 8.0, 12.0] {
            let d = mouse_look_deflection(px);
            let shaped = shape(Vec2::new(d, 0.0), &ShapeParams::look()).x;
            let want = px / MOUSE_FULL_DEFLECTION_PX;
            assert!((shaped - want).abs() < 1e-3, "{px}px: {shaped} vs {want}");
            let left = shape(
                Vec2::new(mouse_look_deflection(-px), 0.0),
                &ShapeParams::look(),
            )
            .x;
            assert!((left + want).abs() < 1e-3);
        }
    }
}
