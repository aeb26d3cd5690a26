//! Juggling Lab's `body=` value: where each juggler stands, or how it moves beat by beat.

use super::error::SettingsError;
use super::keys::{FACING, POSITION};
use super::repeat::{self, Read};
use super::values::{first_position, moves, still, BodyBeats, PlacementSpec};
use crate::budget::{self, BudgetError, Limit};

const KEY: &str = "body";

/// One item of a `body` value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    /// `(angle[,x[,y[,z]]])`.
    Position(PlacementSpec),
    /// `-`: a position left out.
    Skip,
    /// `.`: the end of a beat.
    End,
    /// `|` or `!`: the next juggler.
    Juggler,
}

/// Juggling Lab's `body=` value, per juggler (0-based): `<`, `>`, `{`, `}` are ignored,
/// jugglers are separated by `|` (or `!`), each beat ends with `.` and holds positions
/// `(angle[,x[,y[,z]]])` (degrees, cm; `-` = left out, passed on the way) taken at even steps
/// within the beat; `(...)^N` repeats whole items. Juggling Lab's x,y floor plane becomes
/// juggler's x = -x, z = y; angle = facing; the height z is checked but not used.
///
/// When no juggler takes two different positions, each juggler is stored standing still at
/// its first position ([`still`]); else every juggler's cycle is kept as written.
pub(crate) fn parse_body(v: &str) -> Result<Vec<BodyBeats>, SettingsError> {
    let pieces = repeat::read_checked(v, KEY, &mut token)?;
    repeat::check(&pieces, KEY, budget::BODY_POSITIONS, &|_| 1)?;
    // Each juggler's beats and positions, counted before anything is stored.
    let mut count = Cycle::default();
    repeat::for_each(&pieces, &mut |t| count.take(*t))?;
    count.finish()?;
    let mut jugglers: Vec<BodyBeats> = vec![Vec::new()];
    let mut beat: Vec<Option<PlacementSpec>> = Vec::new();
    repeat::for_each(&pieces, &mut |t| -> Result<(), SettingsError> {
        match *t {
            Token::Position(p) => beat.push(Some(p)),
            Token::Skip => beat.push(None),
            Token::End => {
                if beat.is_empty() {
                    beat.push(None);
                }
                if let Some(j) = jugglers.last_mut() {
                    j.push(std::mem::take(&mut beat));
                }
            }
            Token::Juggler => {
                if !beat.is_empty() {
                    return Err(SettingsError::form(KEY, "body specifier must end with '.'"));
                }
                jugglers.push(Vec::new());
            }
        }
        Ok(())
    })?;
    if !beat.is_empty() {
        return Err(SettingsError::form(KEY, "body specifier must end with '.'"));
    }
    let mut firsts = Vec::with_capacity(jugglers.len());
    for (j, beats) in jugglers.iter().enumerate() {
        firsts.push(first_position(beats).ok_or_else(|| {
            SettingsError::form(KEY, format!("juggler {} has no position", j + 1))
        })?);
    }
    if jugglers.iter().any(moves) {
        Ok(jugglers)
    } else {
        Ok(firsts.into_iter().map(still).collect())
    }
}

/// Reads one token at the start of `rest`.
fn token(rest: &str) -> Result<Read<Token>, SettingsError> {
    let c = rest.chars().next().unwrap_or(' ');
    let token = match c {
        ' ' | '\t' | '<' | '>' | '{' | '}' => None,
        '.' => Some(Token::End),
        '-' => Some(Token::Skip),
        '|' | '!' => Some(Token::Juggler),
        '(' => {
            let end = rest
                .find(')')
                .ok_or_else(|| SettingsError::form(KEY, "missing ')' in body coordinate"))?;
            return Ok((Some(Token::Position(position(&rest[1..end])?)), end + 1));
        }
        other => {
            return Err(SettingsError::form(
                KEY,
                format!(
                    "unknown character '{}' in body specifier",
                    crate::text::escape_control(&other.to_string())
                ),
            ))
        }
    };
    Ok((token, c.len_utf8()))
}

/// `angle[,x[,y[,z]]]` (degrees, cm) as a placement.
fn position(inner: &str) -> Result<PlacementSpec, SettingsError> {
    let parts: Vec<&str> = inner.split(',').collect();
    if parts.len() > 4 {
        return Err(SettingsError::form(
            KEY,
            format!(
                "too many numbers in '({})'",
                crate::text::escape_control(inner)
            ),
        ));
    }
    let mut nums = [0.0f32; 4];
    let names = ["body angle", "body x", "body y", "body height"];
    for (i, part) in parts.iter().enumerate() {
        nums[i] = if i == 0 {
            FACING.parse_f32_in_string(names[i], part)?
        } else {
            POSITION.parse_f32_in_string(names[i], part)?
        };
    }
    Ok(PlacementSpec {
        x: -nums[1],
        z: nums[2],
        facing_deg: nums[0],
    })
}

/// The beats and positions of the juggler being read, checked against the budget as they
/// come (only counts: nothing is stored).
#[derive(Default)]
struct Cycle {
    beats: u128,
    keyframes: u128,
}

impl Cycle {
    fn take(&mut self, token: Token) -> Result<(), SettingsError> {
        match token {
            Token::Position(_) => self.keyframes += 1,
            Token::Skip => {}
            Token::End => self.beats += 1,
            Token::Juggler => {
                self.finish()?;
                *self = Cycle::default();
            }
        }
        Ok(())
    }

    fn finish(&self) -> Result<(), SettingsError> {
        let over = |limit: Limit, count| {
            limit
                .check(count)
                .map_err(|error: BudgetError| SettingsError::Budget { key: KEY, error })
        };
        over(budget::BODY_BEATS, self.beats)?;
        over(budget::BODY_KEYFRAMES, self.keyframes)
    }
}

/// Jugglers' places as a Juggling Lab `body=` value, read back by [`parse_body`]: each
/// juggler's cycle of beats (a still juggler: one beat with its position).
pub(crate) fn format_body(positions: &[BodyBeats]) -> String {
    let position = |p: &PlacementSpec| {
        let cm = |v: f32| {
            let r = (v * 100.0 * 1e4).round() / 1e4;
            if r == 0.0 {
                0.0
            } else {
                r
            }
        };
        format!("({},{},{})", p.facing_deg, cm(-p.x), cm(p.z))
    };
    positions
        .iter()
        .map(|beats| {
            beats
                .iter()
                .map(|beat| {
                    let mut b: String = beat
                        .iter()
                        .map(|p| p.as_ref().map_or("-".to_string(), position))
                        .collect();
                    b.push('.');
                    b
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}
