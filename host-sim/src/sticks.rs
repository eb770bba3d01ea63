//! Sticks files: the handheld's raw stick samples, one tick per line, as text.
//!
//! `hopkit-sim hash --sticks FILE` runs the handheld demo ([`hopkit_demo::DemoRig`]) on such a
//! file, one `tick` per line, and `hopkit-sim sticks --out FILE` writes the scripted demo
//! ([`hopkit_demo::scripted_raw`]) in this format — the input the RP2040 emulator run replays.
//!
//! # Format
//! - UTF-8 text; lines end with `\n` (a `\r` before it is ignored).
//! - Blank lines (only spaces and tabs) and lines whose first non-blank character is `#` are
//!   ignored.
//! - Every other line is one tick: five decimal integers (digits only, no sign), separated by one
//!   or more spaces or tabs (leading and trailing ones are ignored):
//!
//!   ```text
//!   left_x left_y right_x right_y buttons
//!   ```
//!
//!   - `left_x left_y right_x right_y`: ADC counts of a 12-bit ADC, `0..=4095`
//!     ([`hopkit_demo::ADC_MAX`]; the samples' `adc_max` is 4095). x grows to the right and y
//!     grows upwards (full up is 4095), as [`hopkit::stick::RawSticks::from_positions`] makes them.
//!   - `buttons`: the button bitmask of [`hopkit_demo::buttons`] — JUMP 1, FIRE 2, LEFT_STICK 4,
//!     RIGHT_STICK 8 — so `0..=15`; any other bit is an error.
//! - At most [`MAX_TICKS`] tick lines (600 s at 60 Hz), and at most [`MAX_FILE_BYTES`] bytes in
//!   all: a larger file is refused without reading it whole.
//!
//! Any bad line is an error naming the file, the line number (1-based) and what is wrong, in one
//! line; it is a [`UserError`] (exit code 2).

use std::io::{Read, Write};
use std::path::Path;

use hopkit::stick::RawSticks;
use hopkit_demo::{buttons, ADC_MAX};

use crate::UserError;

/// Most tick lines a sticks file may have: 600 s at 60 Hz.
pub const MAX_TICKS: usize = 36_000;

/// Bytes allowed per tick line in [`MAX_FILE_BYTES`] (a tick line is at most 22 bytes as written
/// by [`format_line`]; the rest is room for spacing).
pub const BYTES_PER_TICK: u64 = 40;

/// Largest sticks file read: [`MAX_TICKS`] × [`BYTES_PER_TICK`] plus 64 KiB for comments.
pub const MAX_FILE_BYTES: u64 = MAX_TICKS as u64 * BYTES_PER_TICK + 64 * 1024;

/// All button bits a line may set.
pub const ALL_BUTTONS: u8 =
    buttons::JUMP | buttons::FIRE | buttons::LEFT_STICK | buttons::RIGHT_STICK;

const FIELDS: [&str; 5] = ["left_x", "left_y", "right_x", "right_y", "buttons"];

/// The line for one tick: `left_x left_y right_x right_y buttons`, single spaces, no newline.
pub fn format_line(raw: &RawSticks) -> String {
    format!(
        "{} {} {} {} {}",
        raw.left_x, raw.left_y, raw.right_x, raw.right_y, raw.buttons
    )
}

/// Parse one line; `Ok(None)` for a blank or comment line. The error says what is wrong (without
/// the file and line, which the caller adds).
pub fn parse_line(line: &str) -> Result<Option<RawSticks>, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let body = line.trim_matches([' ', '\t']);
    if body.is_empty() || body.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = body.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() != FIELDS.len() {
        return Err(format!(
            "expected 5 numbers (left_x left_y right_x right_y buttons), found {} field{}",
            fields.len(),
            if fields.len() == 1 { "" } else { "s" }
        ));
    }
    let mut v = [0u16; 5];
    for (i, (f, name)) in fields.iter().zip(FIELDS).enumerate() {
        let shown: String = f.chars().take(24).collect();
        if !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "{name} (field {}) is {shown:?}, not a whole number of digits",
                i + 1
            ));
        }
        let max = if i == 4 {
            u16::from(ALL_BUTTONS)
        } else {
            ADC_MAX
        };
        // Digits only: the parse can fail on overflow alone.
        let n = f.parse::<u16>().ok().filter(|&n| n <= max);
        let Some(n) = n else {
            return Err(if i == 4 {
                format!(
                    "buttons {shown} has bits other than JUMP 1, FIRE 2, LEFT_STICK 4, RIGHT_STICK 8"
                )
            } else {
                format!(
                    "{name} (field {}) is {shown}, outside the ADC range 0..={ADC_MAX}",
                    i + 1
                )
            });
        };
        v[i] = n;
    }
    Ok(Some(RawSticks {
        left_x: v[0],
        left_y: v[1],
        right_x: v[2],
        right_y: v[3],
        adc_max: ADC_MAX,
        // At most ALL_BUTTONS (15): fits.
        buttons: v[4] as u8,
    }))
}

/// Parse the bytes of a sticks file; `shown` names it in errors.
pub fn parse(bytes: &[u8], shown: &str) -> Result<Vec<RawSticks>, UserError> {
    let mut ticks = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let at = |what: String| UserError(format!("sticks file {shown} line {n}: {what}"));
        let text = std::str::from_utf8(line).map_err(|_| at("is not UTF-8 text".into()))?;
        if let Some(raw) = parse_line(text).map_err(at)? {
            if ticks.len() == MAX_TICKS {
                return Err(at(format!(
                    "more than {MAX_TICKS} ticks (600 s at {} Hz)",
                    hopkit_demo::TICK_HZ
                )));
            }
            ticks.push(raw);
        }
    }
    Ok(ticks)
}

/// Read and parse the sticks file at `path`, reading at most [`MAX_FILE_BYTES`] + 1 bytes.
pub fn read(path: &Path) -> Result<Vec<RawSticks>, UserError> {
    let shown = path.display().to_string();
    let cannot = |e: std::io::Error| UserError(format!("cannot read sticks file {shown}: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(UserError(format!(
            "sticks file {shown} is larger than {MAX_FILE_BYTES} bytes ({MAX_TICKS} ticks of \
             {BYTES_PER_TICK} bytes and 64 KiB of comments)"
        )));
    }
    parse(&bytes, &shown)
}

/// Write a sticks file: `header` lines (each prefixed with `# `), then one line per sample.
pub fn write(
    w: &mut dyn Write,
    header: &[&str],
    samples: impl IntoIterator<Item = RawSticks>,
) -> std::io::Result<()> {
    for h in header {
        writeln!(w, "# {h}")?;
    }
    for raw in samples {
        writeln!(w, "{}", format_line(&raw))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::scripted_raw;

    #[test]
    fn written_lines_parse_back() {
        let samples: Vec<RawSticks> = (0..3600).map(scripted_raw).collect();
        let mut out = Vec::new();
        write(
            &mut out,
            &["a header", "two lines"],
            samples.iter().copied(),
        )
        .unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.starts_with("# a header\n# two lines\n"));
        assert!(text.lines().all(|l| l.len() as u64 <= BYTES_PER_TICK));
        assert_eq!(parse(&out, "f").unwrap(), samples);
        let worst = RawSticks {
            left_x: 4095,
            left_y: 4095,
            right_x: 4095,
            right_y: 4095,
            adc_max: ADC_MAX,
            buttons: 15,
        };
        assert_eq!(format_line(&worst).len(), 22);
        assert_eq!(parse_line(&format_line(&worst)), Ok(Some(worst)));
    }

    #[test]
    fn spacing_comments_and_blank_lines() {
        let r = parse_line("\t1  2\t3 4 0 \r").unwrap().unwrap();
        assert_eq!(
            (r.left_x, r.left_y, r.right_x, r.right_y, r.buttons),
            (1, 2, 3, 4, 0)
        );
        assert_eq!(r.adc_max, 4095);
        assert_eq!(
            parse_line("0004095 0 0 0 15").unwrap().unwrap().left_x,
            4095
        );
        for skip in [
            "",
            "   ",
            "\t",
            "# comment",
            "  # indented comment 1 2 3",
            "\r",
        ] {
            assert_eq!(parse_line(skip), Ok(None), "{skip:?}");
        }
        let ticks = parse(b"# h\n\n2048 2048 2048 2048 1\n\n", "f").unwrap();
        assert_eq!(ticks.len(), 1);
    }

    #[test]
    fn bad_lines_say_what_is_wrong_with_file_and_line() {
        let cases = [
            (
                "4096 0 0 0 0",
                "left_x (field 1) is 4096, outside the ADC range 0..=4095",
            ),
            ("0 0 0 99999999 0", "right_y (field 4) is 99999999"),
            ("0 0 0 0", "expected 5 numbers"),
            ("0 0 0 0 0 0", "found 6 fields"),
            ("0 0 0 0 16", "buttons 16 has bits other than"),
            ("0 0 0 0 255", "buttons 255"),
            (
                "0 -1 0 0 0",
                "left_y (field 2) is \"-1\", not a whole number",
            ),
            ("0 0 +3 0 0", "right_x (field 3) is \"+3\""),
            ("a b c d e", "left_x (field 1) is \"a\""),
            ("1.5 0 0 0 0", "not a whole number"),
            ("0,0,0,0,0", "found 1 field"),
        ];
        for (line, want) in cases {
            let text = format!("# header\n0 0 0 0 0\n{line}\n");
            let e = parse(text.as_bytes(), "s.txt").unwrap_err().0;
            assert!(e.starts_with("sticks file s.txt line 3: "), "{line}: {e}");
            assert!(e.contains(want), "{line}: {e}");
            assert!(!e.contains('\n'));
        }
        let e = parse(b"0 0 0 0 0\n\xff\xfe\n", "s").unwrap_err().0;
        assert_eq!(e, "sticks file s line 2: is not UTF-8 text");
        let long = "x".repeat(1000);
        let e = parse(format!("{long} 0 0 0 0").as_bytes(), "s")
            .unwrap_err()
            .0;
        assert!(e.len() < 200, "long fields are shortened: {e}");
    }

    #[test]
    fn at_most_max_ticks() {
        let ok = "0 0 0 0 0\n".repeat(MAX_TICKS);
        assert_eq!(parse(ok.as_bytes(), "f").unwrap().len(), MAX_TICKS);
        let over = format!("{ok}# comment\n1 1 1 1 1\n");
        let e = parse(over.as_bytes(), "f").unwrap_err().0;
        assert!(
            e.starts_with(&format!(
                "sticks file f line {}: more than 36000 ticks",
                MAX_TICKS + 2
            )),
            "{e}"
        );
    }
}
