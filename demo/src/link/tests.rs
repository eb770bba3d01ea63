//! The cable end to end: two boards over the simulated wire ([`pipe`]), against the replay of
//! their logged inputs.

use super::pipe::{Impairment, Pair, TICK_NS};
use super::session::{CHECK_INTERVAL, PREDICTION};
use super::*;
use crate::arena::{ArenaWorld, InputKind, InputSource, NEUTRAL_INPUT};
use hopkit::hash::StateHash;
use std::collections::BTreeMap;
use std::vec::Vec;

const MS: u64 = 1_000_000;

/// A run: per board, its logged inputs per match (one list per match, frame order), and every
/// checksum it computed, per match.
#[derive(Default)]
struct Log {
    inputs: [Vec<Vec<ArenaInput>>; 2],
    checks: [Vec<BTreeMap<u32, u64>>; 2],
    seats: [Vec<usize>; 2],
}

fn source() -> InputSource<'static> {
    InputSource::new(
        InputKind::Mixed,
        38,
        2,
        crate::pilot::demo_recording().unwrap(),
    )
}

/// Run `ticks` ticks; `cut(t)` says whether the wire is cut at tick t.
fn run(pair: &mut Pair, log: &mut Log, ticks: u64, cut: impl Fn(u64) -> bool) {
    let src = source();
    for _ in 0..ticks {
        pair.set_cut(cut(pair.ticks()));
        let before = pair.boards.each_ref().map(|b| b.stats().matches);
        let mut asked = [None; 2];
        pair.tick(&mut |board, frame| {
            asked[board] = Some(frame);
            // Board b plays input stream b, whichever seat it got.
            src.input(frame + 7 * board as u32, board)
        });
        for b in 0..2 {
            let cable = &pair.boards[b];
            if cable.stats().matches != before[b] {
                log.inputs[b].push(Vec::new());
                log.checks[b].push(BTreeMap::new());
                log.seats[b].push(cable.session().seat());
            }
            if let Some(frame) = asked[b] {
                let m = log.inputs[b].last_mut().unwrap();
                assert_eq!(frame as usize, m.len(), "one input per frame, in order");
                m.push(src.input(frame + 7 * b as u32, b));
            }
            if let Some((f, h)) = cable.session().latest_check() {
                if let Some(c) = log.checks[b].last_mut() {
                    let old = c.insert(f, h);
                    assert!(old.is_none() || old == Some(h), "a checksum changed");
                }
            }
        }
    }
}

/// The arena replayed from the two boards' logs of match `m`: the hash after each checksum frame.
fn replay(log: &Log, m: usize) -> BTreeMap<u32, u64> {
    let seat_of = |b: usize| log.seats[b][m];
    assert_ne!(
        seat_of(0),
        seat_of(1),
        "the boards agreed on different seats"
    );
    let by_seat = |s: usize| &log.inputs[if seat_of(0) == s { 0 } else { 1 }][m];
    let (p1, p2) = (by_seat(0), by_seat(1));
    let n = p1.len().min(p2.len()) as u32;
    let params = DemoParams::default();
    let mut w = ArenaWorld::new(2);
    let mut out = BTreeMap::new();
    for t in 0..n {
        w.step(&params, &[p1[t as usize], p2[t as usize]]);
        if (t + 1) % CHECK_INTERVAL == 0 {
            out.insert(t + 1, w.state_hash());
        }
    }
    out
}

/// Every checksum both boards computed equals the replay's hash of that tick.
fn assert_agree(log: &Log, m: usize) -> usize {
    let want = replay(log, m);
    let mut n = 0;
    for b in 0..2 {
        for (f, h) in &log.checks[b][m] {
            assert_eq!(want.get(f), Some(h), "board {b}, match {m}, frame {f}");
            n += 1;
        }
    }
    n
}

#[test]
fn two_boards_over_a_slow_jittery_wire_agree_with_the_replay() {
    let imp = Impairment {
        latency_ns: 40 * MS,
        jitter_ns: 20 * MS,
        ..Impairment::default()
    };
    let mut pair = Pair::new(imp, 1, 7 * MS);
    let mut log = Log::default();
    run(&mut pair, &mut log, 3700, |_| false);
    assert_eq!(log.inputs[0].len(), 1, "one match");
    let checked = assert_agree(&log, 0);
    assert!(checked >= 2 * 55, "{checked} checksums");
    for b in &pair.boards {
        let s = b.session_stats();
        assert!(s.frames >= 3600, "{s:?}");
        assert!(s.rollbacks > 100, "{s:?}");
        assert!(s.deepest >= 3 && s.deepest <= PREDICTION, "{s:?}");
        assert_eq!(s.desyncs, 0);
        assert!(s.checks_compared >= 55, "{s:?}");
        assert_eq!(b.stats().dropped, 0);
        assert_eq!(b.stats().unsent, 0);
    }
}

#[test]
fn a_wire_slower_than_the_window_stalls_and_rolls_back_eight_frames_at_most() {
    let imp = Impairment {
        latency_ns: 150 * MS,
        ..Impairment::default()
    };
    let mut pair = Pair::new(imp, 5, 3 * MS);
    let mut log = Log::default();
    run(&mut pair, &mut log, 1500, |_| false);
    assert_agree(&log, 0);
    for b in &pair.boards {
        let s = b.session_stats();
        assert_eq!(s.deepest, PREDICTION, "{s:?}");
        assert!(s.stalls > 0, "{s:?}");
        assert!(b.session().frame() <= b.session().confirmed() + PREDICTION);
    }
}

#[test]
fn lost_and_flipped_bytes_are_dropped_never_applied() {
    let imp = Impairment {
        latency_ns: 10 * MS,
        jitter_ns: 10 * MS,
        loss_ppm: 3000,
        flip_ppm: 3000,
        ..Impairment::default()
    };
    let mut pair = Pair::new(imp, 9, 11 * MS);
    let mut log = Log::default();
    run(&mut pair, &mut log, 3700, |_| false);
    assert_eq!(log.inputs[0].len(), 1, "the link held");
    assert_agree(&log, 0);
    let flipped: u64 = pair.wires.iter().map(|w| w.stats().flipped).sum();
    assert!(flipped > 100, "{flipped} bytes flipped");
    for b in &pair.boards {
        assert!(b.stats().dropped > 50, "{:?}", b.stats());
        assert_eq!(b.session_stats().desyncs, 0);
        assert!(b.session_stats().frames >= 3500);
    }
}

#[test]
fn a_cut_wire_is_link_lost_within_a_second_and_a_rejoined_one_starts_a_new_match() {
    let imp = Impairment {
        latency_ns: 5 * MS,
        ..Impairment::default()
    };
    let mut pair = Pair::new(imp, 21, 2 * MS);
    let mut log = Log::default();
    let (cut_at, join_at) = (700, 1000);
    let cut = move |t| (cut_at..join_at).contains(&t);
    run(&mut pair, &mut log, cut_at, cut);
    assert!(pair.boards.iter().all(|b| b.state() == CableState::Playing));
    let mut lost_after = [None; 2];
    for t in 0..(join_at - cut_at) {
        run(&mut pair, &mut log, 1, cut);
        for (b, l) in lost_after.iter_mut().enumerate() {
            if l.is_none() && pair.boards[b].state() == CableState::Alone {
                *l = Some(t + 1);
                assert_eq!(pair.boards[b].banner(), Some("LINK LOST"));
            }
        }
    }
    for l in lost_after {
        let ticks = l.expect("link lost");
        assert!(ticks <= 60, "link lost after {ticks} ticks");
    }
    // Rejoined: a new match within a second, from frame 0, agreeing with its replay.
    let mut rejoined = None;
    for t in 0..1200 {
        run(&mut pair, &mut log, 1, cut);
        if rejoined.is_none() && pair.boards.iter().all(|b| b.stats().matches == 2) {
            rejoined = Some(t);
        }
    }
    assert!(rejoined.expect("no new match") <= 60);
    for b in &pair.boards {
        assert_eq!(b.stats().lost, 1);
        assert!(b.session_stats().frames > 1000);
    }
    assert!(assert_agree(&log, 0) > 0);
    assert!(assert_agree(&log, 1) > 0);
}

#[test]
fn a_board_alone_plays_the_demo_and_says_hello() {
    let mut pair = Pair::new(Impairment::default(), 3, 0);
    pair.wires[0].cut = true;
    pair.wires[1].cut = true;
    for _ in 0..600 {
        let played = pair.tick(&mut |_, _| NEUTRAL_INPUT);
        assert_eq!(played, [false, false]);
    }
    for b in &pair.boards {
        assert_eq!(b.state(), CableState::Alone);
        assert_eq!(b.stats().sent, 600 / u64::from(HELLO_EVERY) as u32);
        assert_eq!(b.banner(), None);
        assert_eq!(b.view(), None);
    }
    // With no wire at all (a board alone), the same.
    let mut alone = Alone;
    assert!(!alone.tick(&mut |_| NEUTRAL_INPUT));
}

#[test]
fn seats_differ_whatever_the_seeds_and_timing() {
    for seed in 0..40u64 {
        let mut pair = Pair::new(Impairment::default(), seed * 77, seed * 400_000 % TICK_NS);
        for _ in 0..60 {
            pair.tick(&mut |_, _| NEUTRAL_INPUT);
        }
        let s = pair
            .boards
            .each_ref()
            .map(|b| (b.state(), b.session().seat()));
        assert_eq!(s[0].0, CableState::Playing, "seed {seed}");
        assert_eq!(s[1].0, CableState::Playing, "seed {seed}");
        assert_ne!(s[0].1, s[1].1, "seed {seed}");
    }
}

#[test]
fn a_hello_with_this_boards_own_nonce_draws_a_new_one() {
    let mut pair = Pair::new(Impairment::default(), 4, 0);
    pair.wires[0].cut = true;
    pair.tick(&mut |_, _| NEUTRAL_INPUT);
    let mine = pair.boards[0].nonce;
    pair.boards[0].handle(Packet::Hello(Hello {
        nonce: mine,
        seen: 0,
    }));
    assert_ne!(pair.boards[0].nonce, mine);
    assert_ne!(pair.boards[0].nonce, 0);
    assert_eq!(pair.boards[0].state(), CableState::Alone);
}

#[test]
fn stick_mapping_is_total_and_follows_the_axes() {
    let c = crate::ADC_MAX / 2;
    let raw = |lx, ly, rx, buttons| RawSticks {
        left_x: lx,
        left_y: ly,
        right_x: rx,
        right_y: c,
        adc_max: crate::ADC_MAX,
        buttons,
    };
    assert_eq!(sticks_input(&raw(c, c, c, 0)), NEUTRAL_INPUT);
    let f = crate::arena::decode_input(&sticks_input(&raw(0, 4095, 4095, 3)));
    assert_eq!((f.pitch, f.yaw, f.toward, f.away), (31, -31, true, false));
    assert!(f.missile && f.fire);
    // Inside the dead zone: centred.
    assert_eq!(sticks_input(&raw(c + 60, c - 60, c + 60, 0)), NEUTRAL_INPUT);
    // Any counts, any full scale.
    for adc_max in [0, 1, 2, 255, 4095, u16::MAX] {
        for v in [0, 1, 2047, 4095, u16::MAX] {
            let r = RawSticks {
                left_x: v,
                left_y: v,
                right_x: v,
                right_y: v,
                adc_max,
                buttons: 0xff,
            };
            let f = crate::arena::decode_input(&sticks_input(&r));
            assert!((-31..=31).contains(&f.pitch) && (-31..=31).contains(&f.yaw));
        }
    }
}
