//! Two link-cable boards over the simulated serial wire ([`hopkit_demo::link::pipe`]): the match,
//! each board's logged inputs, and the replay of those logs.

use std::collections::BTreeMap;

use hopkit::hash::StateHash;
use hopkit_demo::arena::{ArenaInput, ArenaWorld, InputSource};
use hopkit_demo::link::pipe::{Impairment, Pair, WireStats};
use hopkit_demo::link::session::SessionStats;
use hopkit_demo::link::CableStats;
use hopkit_demo::DemoParams;

/// A run's settings.
#[derive(Clone, Copy, Debug)]
pub struct PlayOpts {
    /// Ticks to run (both boards, 60 Hz).
    pub ticks: u64,
    /// The wire, both ways.
    pub imp: Impairment,
    /// Seed of the wire and of the boards' nonces.
    pub seed: u64,
    /// Board 2's clock offset, nanoseconds.
    pub offset_ns: u64,
    /// Ticks `[from, to)` the wire is cut, if any.
    pub cut: Option<(u64, u64)>,
    /// The inputs: board `b` plays `input.input(frame, b)` in every match.
    pub input: InputSource<'static>,
}

/// One match as one board saw it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchLog {
    /// The board's seat (0 or 1).
    pub seat: usize,
    /// The board's input of each frame it simulated, in order.
    pub inputs: Vec<ArenaInput>,
    /// Every checksum the board computed: frame → state hash of that tick.
    pub checks: BTreeMap<u32, u64>,
    /// The session's counters at the match's end (or the run's).
    pub stats: SessionStats,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct PlayReport {
    /// Per board, its matches in order.
    pub matches: [Vec<MatchLog>; 2],
    /// Per board, its cable's counters.
    pub cables: [CableStats; 2],
    /// Per board, the tick its link was lost (first time), counted from the cut.
    pub lost_after_cut: [Option<u64>; 2],
    /// Per direction (board 1 → 2, 2 → 1), the wire's counters.
    pub wires: [WireStats; 2],
}

/// Run two boards.
pub fn play(opts: &PlayOpts) -> PlayReport {
    let mut pair = Pair::new(opts.imp, opts.seed, opts.offset_ns);
    let mut rep = PlayReport::default();
    for t in 0..opts.ticks {
        let cut = opts.cut.is_some_and(|(a, b)| (a..b).contains(&t));
        pair.set_cut(cut);
        let before = pair.boards.each_ref().map(|b| b.stats().matches);
        let mut asked: [Option<(u32, ArenaInput)>; 2] = [None; 2];
        let input = opts.input;
        pair.tick(&mut |board, frame| {
            let i = input.input(frame, board);
            asked[board] = Some((frame, i));
            i
        });
        for b in 0..2 {
            let cable = &pair.boards[b];
            let log = &mut rep.matches[b];
            if cable.stats().matches != before[b] {
                log.push(MatchLog {
                    seat: cable.session().seat(),
                    ..MatchLog::default()
                });
            }
            let Some(m) = log.last_mut() else { continue };
            if let Some((frame, i)) = asked[b] {
                debug_assert_eq!(frame as usize, m.inputs.len());
                m.inputs.push(i);
            }
            // The session is the last match's until a new one starts (and is logged above).
            if let Some((f, h)) = cable.session().latest_check() {
                m.checks.insert(f, h);
            }
            m.stats = cable.session_stats();
            if let (Some((a, _)), None) = (opts.cut, rep.lost_after_cut[b]) {
                if t >= a && cable.stats().lost > 0 {
                    rep.lost_after_cut[b] = Some(t + 1 - a);
                }
            }
        }
    }
    rep.cables = pair.boards.each_ref().map(|b| b.stats());
    rep.wires = pair.wires.each_ref().map(|w| w.stats());
    rep
}

/// The two players' inputs of match `m` (player 1 first), from the boards' logs by their seats;
/// `None` if the boards did not both play it with different seats.
pub fn seat_inputs(rep: &PlayReport, m: usize) -> Option<[&[ArenaInput]; 2]> {
    let (a, b) = (rep.matches[0].get(m)?, rep.matches[1].get(m)?);
    if a.seat == b.seat {
        return None;
    }
    let (p1, p2) = if a.seat == 0 { (a, b) } else { (b, a) };
    Some([&p1.inputs, &p2.inputs])
}

/// The arena replayed from two players' inputs: the state hash after each tick in `at`
/// (ticks past the shorter log are left out).
pub fn replay(players: [&[ArenaInput]; 2], at: &[u32]) -> BTreeMap<u32, u64> {
    let n = players[0].len().min(players[1].len()) as u32;
    let params = DemoParams::default();
    let mut w = ArenaWorld::new(2);
    let mut out = BTreeMap::new();
    let last = at.iter().copied().filter(|&t| t <= n).max().unwrap_or(0);
    if at.contains(&0) {
        out.insert(0, w.state_hash());
    }
    for t in 0..last {
        w.step(&params, &[players[0][t as usize], players[1][t as usize]]);
        if at.contains(&(t + 1)) {
            out.insert(t + 1, w.state_hash());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::arena::InputKind;

    const MS: u64 = 1_000_000;

    fn opts(ticks: u64, imp: Impairment) -> PlayOpts {
        PlayOpts {
            ticks,
            imp,
            seed: 38,
            offset_ns: 5 * MS,
            cut: None,
            input: InputSource::new(
                InputKind::Mixed,
                24,
                2,
                hopkit_demo::demo_recording().unwrap(),
            ),
        }
    }

    fn assert_replays(rep: &PlayReport, m: usize) -> usize {
        let players = seat_inputs(rep, m).expect("both boards played the match, seats differ");
        let mut n = 0;
        for b in 0..2 {
            let checks = &rep.matches[b][m].checks;
            let at: Vec<u32> = checks.keys().copied().collect();
            let want = replay(players, &at);
            for (f, h) in checks {
                assert_eq!(want.get(f), Some(h), "board {b} frame {f}");
                n += 1;
            }
        }
        n
    }

    #[test]
    fn latency_jitter_loss_and_flips_end_equal_to_the_replay() {
        let imp = Impairment {
            latency_ns: 30 * MS,
            jitter_ns: 30 * MS,
            loss_ppm: 2000,
            flip_ppm: 2000,
            ..Impairment::default()
        };
        let rep = play(&opts(3700, imp));
        assert_eq!(rep.matches[0].len(), 1);
        assert!(assert_replays(&rep, 0) >= 110);
        for b in 0..2 {
            let s = rep.matches[b][0].stats;
            assert_eq!(s.desyncs, 0);
            assert!(s.rollbacks > 0 && s.deepest <= 8, "{s:?}");
            assert!(rep.cables[b].dropped > 0);
        }
        assert!(rep.wires[0].flipped > 0 && rep.wires[0].lost > 0);
    }

    #[test]
    fn a_cut_is_lost_within_a_second_and_the_rejoin_is_a_new_match() {
        let mut o = opts(2400, Impairment::default());
        o.cut = Some((900, 1100));
        let rep = play(&o);
        for b in 0..2 {
            assert_eq!(rep.matches[b].len(), 2);
            assert!(rep.lost_after_cut[b].unwrap() <= 60);
        }
        assert!(assert_replays(&rep, 0) > 0);
        assert!(assert_replays(&rep, 1) > 0);
    }

    #[test]
    fn a_changed_input_changes_the_replay() {
        let rep = play(&opts(700, Impairment::default()));
        let [p1, p2] = seat_inputs(&rep, 0).unwrap();
        let base = replay([p1, p2], &[600]);
        let mut changed = p2.to_vec();
        changed[300] = hopkit_demo::arena::make_input(31, 0, 0, false, false);
        assert_ne!(changed[300], p2[300]);
        assert_ne!(replay([p1, &changed], &[600]), base);
        assert_eq!(base.get(&600), rep.matches[0][0].checks.get(&600));
    }
}
