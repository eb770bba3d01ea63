//! Recording a live pilot into a fixed-capacity byte buffer that *is* the file.
//!
//! [`Recorder<N>`](Recorder) owns `N` bytes. It writes frames (and, every `checksum_interval` ticks,
//! a state checksum) straight into the stored format, keeping a running CRC, so
//! [`Recorder::finish`] only patches the header: constant time, no second buffer.
//!
//! When the next frame (plus its checksum, if one is due) does not fit, the recorder **stops**: the
//! call returns [`RecorderFull`] (which still carries the quantized frame, so the live pilot keeps
//! flying), [`Recorder::is_full`] turns true, and nothing already recorded is lost or changed —
//! `finish` still yields a valid recording of every frame stored so far.
//!
//! Size a recorder with [`recording_size`](super::format::recording_size):
//! `Recorder::<{ recording_size(3600, 60) }>` holds 60 s at 60 Hz with one checksum per second.
//!
//! [`Recorder::new_v2`] writes format version 2 instead: every frame is range-coded as it is
//! pushed ([`super::codec`]), typically 0.13–0.46 bytes a frame, so a 1,024-byte recorder holds well
//! over 30 s at 60 Hz. Bytes the coder has emitted never change, so the running CRC works the
//! same way; a frame is accepted only if it *and* the coder's final flush still fit (otherwise the
//! coder state is rolled back, the frame is not stored, and the recorder is full, as above). The
//! coder state costs about 600 bytes more in the recorder (the [`FrameModel`] and the
//! [`Encoder`]), copied once per push for the rollback.

use super::codec::FrameModel;
use super::crc::Crc32;
use super::flyer::FlyerState;
use super::format::{
    put_bytes, state_check, HeaderField, RecordingInfo, CHECKSUM_LEN, FRAME_LEN, HEADER_LEN,
};
use super::format::{write_header_fields_v, FORMAT_VERSION, FORMAT_VERSION_2};
use super::frame::{Frame, FrameQuantizer, PilotInput};
use super::pilot::{self, Nearest};
use super::range::{Encoder, Sink};
use crate::ground::GroundProbe;
use crate::math::Vec3;

/// The recorder is full: the frame was not stored (nothing else changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RecorderFull {
    /// The quantized frame that did not fit (fly it anyway to keep the live game going).
    pub frame: Frame,
    /// Frames stored (all of them are kept).
    pub frames_recorded: u32,
}

/// Records quantized frames into `N` bytes of stored recording (header included).
#[derive(Clone, Debug, PartialEq)]
pub struct Recorder<const N: usize> {
    buf: [u8; N],
    len: usize,
    frames: u32,
    info: RecordingInfo,
    quantizer: FrameQuantizer,
    crc: Crc32,
    full: bool,
    /// Version 2: the range coder and its model (`None` for version 1).
    v2: Option<(Encoder, FrameModel)>,
}

impl<const N: usize> Recorder<N> {
    /// An empty recorder. `N` must be at least the 24-byte header (checked at compile time).
    /// Fails if `info` is invalid (tick rate 0 or above 10 000, condition unit not finite and > 0).
    pub fn new(info: RecordingInfo) -> Result<Self, HeaderField> {
        Self::with_coder(info, None)
    }

    /// An empty recorder writing format version 2 (range-coded frames); otherwise as
    /// [`Recorder::new`].
    pub fn new_v2(info: RecordingInfo) -> Result<Self, HeaderField> {
        Self::with_coder(info, Some((Encoder::new(), FrameModel::new())))
    }

    /// [`Recorder::new`] and [`Recorder::new_v2`]: the recorder built in place, once (no copy of
    /// the `N`-byte buffer between them, which cost the WASM-4 cart code).
    fn with_coder(
        info: RecordingInfo,
        v2: Option<(Encoder, FrameModel)>,
    ) -> Result<Self, HeaderField> {
        const {
            assert!(
                N >= HEADER_LEN,
                "a Recorder needs at least HEADER_LEN (24) bytes"
            )
        };
        info.validate()?;
        Ok(Recorder {
            buf: [0; N],
            len: HEADER_LEN,
            frames: 0,
            info,
            quantizer: FrameQuantizer::new(info.condition_unit),
            crc: Crc32::new(),
            full: false,
            v2,
        })
    }

    /// The format version this recorder writes (1 or 2).
    #[inline]
    pub fn version(&self) -> u16 {
        if self.v2.is_some() {
            FORMAT_VERSION_2
        } else {
            FORMAT_VERSION
        }
    }

    /// The recording settings.
    #[inline]
    pub fn info(&self) -> &RecordingInfo {
        &self.info
    }

    /// Frames stored so far.
    #[inline]
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// True once a frame did not fit; no more frames are stored.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Bytes used so far (header included): the length [`Recorder::finish`] returns.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.v2 {
            Some((enc, _)) if self.frames > 0 => self.len + enc.pending(),
            Some(_) => self.len,
            None => self.len,
        }
    }

    /// True if no frame is stored yet.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.frames == 0
    }

    /// Quantize `input` (see [`FrameQuantizer`]) and store the frame; `nearest_distance` is the
    /// live distance to the nearest target, `pilot` the live pilot's state *before* this frame is
    /// flown (stored as a checksum on checksum ticks).
    ///
    /// Returns the quantized frame — fly exactly this frame (Doom-style). When full, returns
    /// [`RecorderFull`] carrying that frame.
    pub fn record(
        &mut self,
        input: &PilotInput,
        nearest_distance: Option<f32>,
        pilot: &FlyerState,
    ) -> Result<Frame, RecorderFull> {
        let frame = self.quantizer.quantize(input, nearest_distance);
        self.push(frame, pilot).map(|_| frame)
    }

    /// Store an already quantized frame (and the pilot's state check if one is due).
    pub fn push(&mut self, frame: Frame, pilot: &FlyerState) -> Result<(), RecorderFull> {
        let full = RecorderFull {
            frame,
            frames_recorded: self.frames,
        };
        if self.full || self.frames == u32::MAX {
            self.full = true;
            return Err(full);
        }
        let k = self.info.checksum_interval;
        let check_due = k > 0 && self.frames % k as u32 == 0;
        if let Some((enc, model)) = &mut self.v2 {
            let (enc0, model0) = (*enc, *model);
            let mut out = Sink {
                buf: &mut self.buf,
                pos: self.len,
            };
            if check_due {
                enc.direct(state_check(pilot), 32, &mut out);
            }
            model.encode(&frame, enc, &mut out);
            let end = out.pos;
            if out.overflowed() || end.saturating_add(enc.pending()) > N {
                *enc = enc0;
                *model = model0;
                self.full = true;
                return Err(full);
            }
            self.crc.update(self.buf.get(self.len..end).unwrap_or(&[]));
            self.len = end;
            self.frames += 1;
            return Ok(());
        }
        let need = FRAME_LEN + if check_due { CHECKSUM_LEN } else { 0 };
        let end = self.len + need;
        let Some(dst) = self.buf.get_mut(self.len..end) else {
            self.full = true;
            return Err(full);
        };
        let packed = frame.pack();
        if check_due {
            put_bytes(dst, 0, &state_check(pilot).to_le_bytes());
            put_bytes(dst, CHECKSUM_LEN, &packed);
        } else {
            put_bytes(dst, 0, &packed);
        }
        self.crc.update(dst);
        self.len = end;
        self.frames += 1;
        Ok(())
    }

    /// Write the header (frame count, CRC) and return the complete recording bytes. Recording may
    /// continue afterwards; call `finish` again for the longer recording.
    pub fn finish(&mut self) -> &[u8] {
        let mut crc = self.crc;
        let mut len = self.len;
        if let Some((enc, _)) = &self.v2 {
            // Flush a copy: the live coder goes on from `self.len`, overwriting these bytes.
            let mut enc = *enc;
            let mut out = Sink {
                buf: &mut self.buf,
                pos: self.len,
            };
            if self.frames > 0 {
                enc.flush(&mut out);
            }
            len = out.pos.min(N);
            crc.update(self.buf.get(self.len..len).unwrap_or(&[]));
        }
        let version = self.version();
        write_header_fields_v(&mut self.buf, &self.info, self.frames, version);
        crc.update(self.buf.get(..HEADER_LEN - 4).unwrap_or(&[]));
        put_bytes(&mut self.buf, HEADER_LEN - 4, &crc.finish().to_le_bytes());
        self.buf.get(..len).unwrap_or(&[])
    }

    /// Drop everything recorded and start again with the same settings.
    pub fn reset(&mut self) {
        self.len = HEADER_LEN;
        self.frames = 0;
        self.quantizer = FrameQuantizer::new(self.info.condition_unit);
        self.crc = Crc32::new();
        self.full = false;
        if let Some(v2) = &mut self.v2 {
            *v2 = (Encoder::new(), FrameModel::new());
        }
    }
}

/// One tick of the live (recording) pilot: find the nearest target, record the quantized frame,
/// then fly *that* frame with `dt = 1 / tick_hz`. When the recorder is full the frame is still
/// flown and [`RecorderFull`] is returned.
pub fn record_and_fly<const N: usize>(
    recorder: &mut Recorder<N>,
    flyer: &mut FlyerState,
    params: &super::flyer::FlyerParams,
    input: &PilotInput,
    targets: &[Vec3],
    ground: &impl GroundProbe,
) -> Result<Frame, RecorderFull> {
    let nearest: Option<Nearest> = pilot::nearest_target(flyer.position, targets);
    let result = recorder.record(input, nearest.map(|n| n.distance), flyer);
    let frame = match result {
        Ok(f) => f,
        Err(e) => e.frame,
    };
    let dt = 1.0 / recorder.info().tick_hz as f32;
    pilot::fly(flyer, params, &frame, nearest.as_ref(), targets, ground, dt);
    result
}

#[cfg(test)]
mod tests {
    use super::super::format::{recording_size, Recording};
    use super::*;

    #[test]
    fn stops_when_full_and_keeps_everything() {
        let info = RecordingInfo {
            checksum_interval: 4,
            ..RecordingInfo::default()
        };
        // Room for exactly 8 frames (2 checksums) plus 5 spare bytes: frame 8 needs a checksum
        // and the frame, 7 bytes, and does not fit (the two are written together or not at all).
        const CAP: usize = recording_size(8, 4) + 5;
        let mut r = Recorder::<CAP>::new(info).unwrap();
        let pilot = FlyerState::default();
        let mut stored = heapless::Vec::<Frame, 16>::new();
        for i in 0..10 {
            let input = PilotInput {
                pitch: i as f32 / 10.0,
                ..PilotInput::default()
            };
            match r.record(&input, Some(i as f32), &pilot) {
                Ok(f) => stored.push(f).unwrap(),
                Err(e) => {
                    assert!(i >= 8);
                    assert_eq!(e.frames_recorded, 8);
                    assert_eq!(
                        e.frame.pitch,
                        crate::ghost::frame::quantize_stick(i as f32 / 10.0)
                    );
                }
            }
        }
        assert!(r.is_full());
        assert_eq!(r.frames(), 8);
        let bytes = r.finish();
        assert_eq!(bytes.len(), recording_size(8, 4));
        let rec = Recording::parse(bytes).unwrap();
        assert!(rec.frames().eq(stored.iter().copied()));
        assert_eq!(rec.checksum_count(), 2);
    }

    #[test]
    fn finish_twice_and_reset() {
        let mut r = Recorder::<64>::new(RecordingInfo::default()).unwrap();
        let p = FlyerState::default();
        r.record(&PilotInput::default(), None, &p).unwrap();
        let a = r.finish().to_vec();
        assert_eq!(Recording::parse(&a).unwrap().frame_count(), 1);
        r.record(&PilotInput::default(), None, &p).unwrap();
        assert_eq!(Recording::parse(r.finish()).unwrap().frame_count(), 2);
        r.reset();
        assert_eq!(Recording::parse(r.finish()).unwrap().frame_count(), 0);
        assert!(Recorder::<64>::new(RecordingInfo {
            tick_hz: 0,
            ..RecordingInfo::default()
        })
        .is_err());
    }
}

#[cfg(test)]
mod v2_tests {
    use super::super::format::{decode, load, recording_size, Recording};
    use super::*;

    /// A flight recorded as version 2 decodes to exactly the version 1 recording.
    #[test]
    fn v2_recorder_matches_the_v1_recording() {
        let v1_bytes = crate::ghost::test_recording_bytes();
        let v1 = Recording::parse(&v1_bytes).unwrap();
        let mut r = Recorder::<2048>::new_v2(v1.info()).unwrap();
        let mut scratch = [0u8; recording_size(1200, 60)];
        // Replay the same frames and the same stored checks through `push`.
        for (i, f) in v1.frames().enumerate() {
            // `push` hashes a pilot state; feed it states whose checks we do not compare here.
            r.push(f, &FlyerState::default()).unwrap();
            if i % 450 == 0 {
                let bytes = r.finish().to_vec();
                assert_eq!(bytes.len(), r.len());
                let rec = load(&bytes, &mut scratch).unwrap();
                assert_eq!(rec.frame_count() as usize, i + 1);
                assert!(rec.frames().eq(v1.frames().take(i + 1)));
            }
        }
        let bytes = r.finish().to_vec();
        assert!(bytes.len() * 3 <= v1_bytes.len(), "{}", bytes.len());
        let mut out = heapless::Vec::<Frame, 1200>::new();
        let h = decode(&bytes, &mut out).unwrap();
        assert_eq!(h.version, 2);
        assert!(out.iter().copied().eq(v1.frames()));
        assert!(Recording::parse(&bytes).is_err());
    }

    #[test]
    fn v2_recorder_stops_when_full_and_keeps_a_valid_prefix() {
        let mut r = Recorder::<64>::new_v2(RecordingInfo::default()).unwrap();
        let p = FlyerState::default();
        let mut rng = crate::rng::Pcg32::new(5, 5);
        let mut kept = heapless::Vec::<Frame, 256>::new();
        for _ in 0..256 {
            let f = Frame::unpack([
                rng.next_u32() as u8,
                rng.next_u32() as u8,
                rng.next_u32() as u8,
            ]);
            match r.push(f, &p) {
                Ok(()) => kept.push(f).unwrap(),
                Err(e) => {
                    assert_eq!(e.frames_recorded as usize, kept.len());
                    assert!(r.is_full());
                }
            }
        }
        assert!(r.is_full() && !kept.is_empty());
        let bytes = r.finish().to_vec();
        assert!(bytes.len() <= 64);
        let mut out = heapless::Vec::<Frame, 256>::new();
        decode(&bytes, &mut out).unwrap();
        assert_eq!(out, kept);
        r.reset();
        let empty = r.finish().to_vec();
        assert_eq!(empty.len(), 24);
        decode(&empty, &mut out).unwrap();
        assert!(out.is_empty());
    }
}
