//! What the ports of id Software's movement code share: the per-tick bound and id's vector
//! helpers, written as id wrote them. `movement_cpma` ports Quake III / CPM (`bg_pmove.c`,
//! `bg_promode.c`), `movement_water` QuakeWorld (`pmove.c`).

/// Per-tick bound on `|v_hopkit − v_ref| / max(|v_ref|, 1)` (and on the position, against its
/// own scale) for a port followed tick by tick: the QuakeWorld preset's bound against `pmove.c`.
pub const PER_TICK_REL: f32 = 8e-6;

/// id's `VectorNormalize`: the length's `sqrt` in double, then one reciprocal; a zero vector
/// stays zero. Returns the length.
pub fn vector_normalize(v: &mut [f32; 3]) -> f32 {
    let mut length = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    length = (length as f64).sqrt() as f32;
    if length != 0.0 {
        let ilength = 1.0 / length;
        v[0] *= ilength;
        v[1] *= ilength;
        v[2] *= ilength;
    }
    length
}

/// id's `DotProduct`.
pub fn dot(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `|a|` of a reference vector (a measure for the bounds, not part of the port).
pub fn length(a: [f32; 3]) -> f32 {
    dot(&a, &a).sqrt()
}

/// The deviation measure of the bounds: `|a − b| / max(scale, 1)`.
pub fn rel(a: [f32; 3], b: [f32; 3], scale: f32) -> f32 {
    length([a[0] - b[0], a[1] - b[1], a[2] - b[2]]) / scale.max(1.0)
}
