//! Ground probes that answer from fixed values (NaN, ±inf, huge and subnormal welcome), shared by
//! the adversarial and the property tests.

use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::Vec3;

/// Ground at `height` (NaN: no ground at all) with `normal`, wherever it is asked.
#[derive(Clone, Copy, Debug)]
pub struct WeirdGround {
    pub height: f32,
    pub normal: Vec3,
}

impl GroundProbe for WeirdGround {
    fn probe(&self, _p: Vec3) -> Option<GroundHit> {
        if self.height.is_nan() {
            return None;
        }
        Some(GroundHit {
            height: self.height,
            normal: self.normal,
        })
    }
}

/// [`WeirdGround`] with every optional query of issue 26 answered the same everywhere: a moving
/// surface, a ceiling (clearance), a ladder and a water surface.
#[derive(Clone, Copy, Debug)]
pub struct WeirdFeatures {
    pub ground: WeirdGround,
    pub motion: SurfaceMotion,
    pub clearance: f32,
    pub ladder: Option<Vec3>,
    pub water: Option<f32>,
}

impl GroundProbe for WeirdFeatures {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        self.ground.probe(p)
    }
    fn surface_motion(&self, _p: Vec3) -> SurfaceMotion {
        self.motion
    }
    fn clearance(&self, _feet: Vec3) -> f32 {
        self.clearance
    }
    fn ladder(&self, _feet: Vec3) -> Option<Vec3> {
        self.ladder
    }
    fn water(&self, _feet: Vec3) -> Option<f32> {
        self.water
    }
}
