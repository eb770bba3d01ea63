//! Readable errors for scenario files: the file, line and column, the field's dotted path, the
//! offending line with a caret under the bad part, and the reason. (`toml` supplies the byte span,
//! `serde_path_to_error` the field path.)

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// A scenario file that could not be used. The CLI exits with code 2 on it.
#[derive(Debug, Clone, PartialEq)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line of the problem (1 if unknown).
    pub line: usize,
    /// 1-based column of the problem (1 if unknown).
    pub column: usize,
    /// Dotted field path such as `bhop.preset` or `actors[1].pos` (empty if the whole file).
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// The source line, for display.
    pub source_line: String,
    /// Length of the caret underline (at least 1).
    pub span_len: usize,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = if self.field.is_empty() {
            String::new()
        } else {
            format!(" in field `{}`", self.field)
        };
        writeln!(
            f,
            "bad scenario file {}: line {}, column {}{field}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )?;
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        writeln!(f, "{pad} |")?;
        writeln!(f, "{num} | {}", self.source_line)?;
        write!(
            f,
            "{pad} | {}{}",
            " ".repeat(self.column.saturating_sub(1)),
            "^".repeat(self.span_len.max(1))
        )
    }
}

impl std::error::Error for FileError {}

/// 1-based line and column of byte offset `at` in `src` (columns count characters).
pub fn line_col(src: &str, at: usize) -> (usize, usize) {
    let at = at.min(src.len());
    let before = src.get(..at).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = src.get(line_start..at).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

/// Build a [`FileError`] for byte range `span` of `src`.
pub fn error_at(
    path: &Path,
    src: &str,
    span: Option<std::ops::Range<usize>>,
    field: &str,
    message: &str,
) -> FileError {
    let span = span.unwrap_or(0..0);
    let (line, column) = line_col(src, span.start);
    let source_line = src.lines().nth(line - 1).unwrap_or("").to_string();
    let rest = source_line.chars().count().saturating_sub(column - 1);
    let span_len = src
        .get(span.clone())
        .map_or(1, |s| s.lines().next().map_or(1, |l| l.chars().count()))
        .clamp(1, rest.max(1));
    FileError {
        path: path.to_path_buf(),
        line,
        column,
        field: if field == "." {
            String::new()
        } else {
            field.to_string()
        },
        message: message.to_string(),
        source_line,
        span_len,
    }
}

/// Parse TOML `src` (read from `path`) into `T`, with field paths and positions in errors.
pub fn parse_toml<T: DeserializeOwned>(path: &Path, src: &str) -> Result<T, FileError> {
    let de = toml::Deserializer::parse(src)
        .map_err(|e| error_at(path, src, e.span(), "", e.message()))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        let span = inner.span().map(|s| element_span(src, s, &field));
        error_at(path, src, span, &field, inner.message())
    })
}

/// The trailing `[i]` indices of a field path (`arrival.targets[1][0]` → `[1, 0]`).
fn trailing_indices(field: &str) -> Vec<usize> {
    let mut out = vec![];
    let mut rest = field;
    while let Some(r) = rest.strip_suffix(']') {
        let Some(open) = r.rfind('[') else { break };
        let Ok(i) = r[open + 1..].parse() else { break };
        out.push(i);
        rest = &r[..open];
    }
    out.reverse();
    out
}

/// `toml` reports an error inside an array with the span of the whole array; narrow `span` to
/// the element the field path's trailing indices name, so the caret sits under the bad number.
/// Returns `span` unchanged when the text is not such an array.
pub fn element_span(
    src: &str,
    span: std::ops::Range<usize>,
    field: &str,
) -> std::ops::Range<usize> {
    let mut span = span;
    for i in trailing_indices(field) {
        match array_elements(src, span.clone()).and_then(|els| els.into_iter().nth(i)) {
            Some(el) => span = el,
            None => break,
        }
    }
    span
}

/// Byte ranges of the elements of the TOML array at `span` in `src` (`None` if it is not one).
fn array_elements(src: &str, span: std::ops::Range<usize>) -> Option<Vec<std::ops::Range<usize>>> {
    let text = src.get(span.clone())?;
    if !text.starts_with('[') {
        return None;
    }
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut start) = (0usize, 0usize, None::<usize>);
    let mut out = vec![];
    let close = |start: &mut Option<usize>, end: usize, out: &mut Vec<_>| {
        if let Some(s) = start.take() {
            let el = text[s..end].trim_end();
            out.push(span.start + s..span.start + s + el.len());
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' | b'\'' => {
                if depth == 1 && start.is_none() {
                    start = Some(i);
                }
                // Skip the string (basic strings may escape the quote).
                i += 1;
                while i < bytes.len() && bytes[i] != c {
                    i += if c == b'"' && bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' | b'{' => {
                if depth == 1 && start.is_none() {
                    start = Some(i);
                }
                depth += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close(&mut start, i, &mut out);
                    return Some(out);
                }
            }
            b',' if depth == 1 => close(&mut start, i, &mut out),
            c if depth == 1 && start.is_none() && !c.is_ascii_whitespace() => start = Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        friction: f32,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        seconds: f32,
        movement: Inner,
    }

    #[test]
    fn errors_name_field_and_line() {
        let src = "seconds = 3\n[movement]\nfriction = true\n";
        let e = parse_toml::<Outer>(Path::new("x.toml"), src).unwrap_err();
        assert_eq!((e.line, e.column), (3, 12));
        assert_eq!(e.field, "movement.friction");
        assert_eq!(e.span_len, 4);
        let shown = e.to_string();
        assert!(
            shown.contains("line 3, column 12 in field `movement.friction`"),
            "{shown}"
        );
        assert!(shown.contains("3 | friction = true"), "{shown}");
        assert!(shown.ends_with("  |            ^^^^"), "{shown}");

        let e = parse_toml::<Outer>(
            Path::new("x.toml"),
            "seconds = 3\n[movement]\nfricton = 1.0\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("unknown field `fricton`"),
            "{}",
            e.message
        );

        let e = parse_toml::<Outer>(Path::new("x.toml"), "seconds = = 3\n").unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn element_spans_inside_arrays() {
        let src = "t = [[1, 2], [ 3 , \"a,]\" ], # c, ]\n  {x = 1}]\n";
        let all = 4..src.trim_end().len();
        let at = |field: &str| &src[element_span(src, all.clone(), field)];
        assert_eq!(at("t[0]"), "[1, 2]");
        assert_eq!(at("t[0][1]"), "2");
        assert_eq!(at("t[1][0]"), "3");
        assert_eq!(at("t[1][1]"), "\"a,]\"");
        assert_eq!(at("t[2]"), "{x = 1}");
        assert_eq!(at("t[7]"), &src[all.clone()], "no such element: unchanged");
        assert_eq!(at("t"), &src[all.clone()]);
        assert_eq!(element_span("x = 5", 4..5, "x[0]"), 4..5, "not an array");
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\nx", 3), (2, 1));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
