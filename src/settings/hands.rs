//! Juggling Lab's `hands=` value: per juggler, the throw and catch points of its hands.

use super::error::SettingsError;
use super::keys::HAND_POINT;
use super::repeat::{self, Read};
use super::values::DwellPoints;
use crate::budget;

const KEY: &str = "hands";

/// One item of a `hands` value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    /// `(x[,up[,forward]])`, in metres.
    Point([f32; 3]),
    /// `-`: a point Juggling Lab interpolates.
    Skip,
    /// `T`: the next point is the throw.
    Throw,
    /// `C`: the next point is the catch.
    Catch,
    /// `.`: the end of a beat's entry.
    End,
    /// `|` or `!`: the next juggler.
    Juggler,
}

/// One beat of a `hands` entry: its points (`None` = `-`) and the index of the catch point.
struct HandsBeat {
    points: Vec<Option<[f32; 3]>>,
    catch: usize,
}

/// Juggling Lab's `hands=` value, per juggler: `<`, `>`, `{`, `}` are ignored, jugglers are
/// separated by `|` (or `!`) and each beat ends with `.`; a beat is a list of points
/// `(x[,up[,forward]])` in cm or `-` placeholders, the first the throw (optionally marked
/// `T`), the catch marked `C` before it (else the last). `(...)^N` repeats whole items.
/// Entry `i` of a juggler is the hand that acts on that juggler's beat `i` (a sync pair:
/// left, then right), also when it only holds or is empty there. Only the throw and catch
/// points are used (juggler's hands move between them on their own path).
///
/// In Juggling Lab an entry's catch comes *after* its throw (the empty hand travels from the
/// throw to the catch), while a `DwellPoints` pairs a throw with the catch *before* it. That
/// catch is made by the same hand, whose next entry is two entries on: so entry i's catch
/// becomes the catch of throw i + 2 (cyclically, per juggler).
pub(crate) fn parse_hands(v: &str) -> Result<Vec<Vec<DwellPoints>>, SettingsError> {
    let pieces = repeat::read_checked(v, KEY, &mut token)?;
    repeat::check(&pieces, KEY, budget::HAND_POINTS, &|t| {
        u128::from(*t == Token::End)
    })?;
    let mut reader = Beats::default();
    repeat::for_each(&pieces, &mut |t| reader.take(*t))?;
    reader.finish()
}

/// Reads one token at the start of `rest`.
fn token(rest: &str) -> Result<Read<Token>, SettingsError> {
    let c = rest.chars().next().unwrap_or(' ');
    let token = match c {
        ' ' | '\t' | '<' | '>' | '{' | '}' => None,
        '.' => Some(Token::End),
        '-' => Some(Token::Skip),
        'T' | 't' => Some(Token::Throw),
        'C' | 'c' => Some(Token::Catch),
        '|' | '!' => Some(Token::Juggler),
        '(' => {
            let end = rest
                .find(')')
                .ok_or_else(|| SettingsError::form(KEY, "missing ')' in hands coordinate"))?;
            return Ok((Some(Token::Point(point(&rest[1..end])?)), end + 1));
        }
        other => {
            return Err(SettingsError::form(
                KEY,
                format!(
                    "unknown character '{}' in hands specifier",
                    crate::text::escape_control(&other.to_string())
                ),
            ))
        }
    };
    Ok((token, c.len_utf8()))
}

/// `x[,up[,forward]]` in cm -> metres `[x, y, z]` of the juggler's frame.
fn point(text: &str) -> Result<[f32; 3], SettingsError> {
    let mut p = [0.0f32; 3];
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(SettingsError::form(
            KEY,
            format!(
                "too many coordinates in '({})'",
                crate::text::escape_control(text)
            ),
        ));
    }
    for (slot, part) in p.iter_mut().zip(parts) {
        *slot = HAND_POINT.parse_f32_in_string("hands coordinate", part)?;
    }
    Ok(p)
}

/// The beats of every juggler, read token by token.
struct Beats {
    jugglers: Vec<Vec<HandsBeat>>,
    points: Vec<Option<[f32; 3]>>,
    got_throw: bool,
    catch: Option<usize>,
}

impl Default for Beats {
    fn default() -> Self {
        Beats {
            jugglers: vec![Vec::new()],
            points: Vec::new(),
            got_throw: false,
            catch: None,
        }
    }
}

impl Beats {
    fn pending(&self) -> bool {
        !self.points.is_empty() || self.got_throw || self.catch.is_some()
    }

    fn take(&mut self, token: Token) -> Result<(), SettingsError> {
        let err = |m: &str| Err(SettingsError::form(KEY, m));
        match token {
            Token::End => {
                if self.points.len() < 2 {
                    return err("must have at least 2 coordinates per throw");
                }
                let catch = self.catch.unwrap_or(self.points.len() - 1);
                if self.points[0].is_none() {
                    return err("must specify throw coordinate");
                }
                match self.points.get(catch) {
                    Some(Some(_)) => {}
                    Some(None) => return err("must specify catch coordinate"),
                    None => return err("'C' must be followed by a coordinate"),
                }
                let beat = HandsBeat {
                    points: std::mem::take(&mut self.points),
                    catch,
                };
                if let Some(juggler) = self.jugglers.last_mut() {
                    juggler.push(beat);
                }
                (self.got_throw, self.catch) = (false, None);
            }
            Token::Skip => self.points.push(None),
            Token::Point(p) => self.points.push(Some(p)),
            Token::Throw => {
                if !self.points.is_empty() {
                    return err("'T' must be first coordinate");
                }
                if self.got_throw {
                    return err("can only specify one throw coordinate");
                }
                self.got_throw = true;
            }
            Token::Catch => {
                if self.points.is_empty() {
                    return err("first coordinate in 'hands' must be a throw");
                }
                if self.catch.is_some() {
                    return err("can only specify one catch coordinate");
                }
                self.catch = Some(self.points.len());
            }
            Token::Juggler => {
                if self.pending() {
                    return err("hands specifier must end with '.'");
                }
                self.jugglers.push(Vec::new());
            }
        }
        Ok(())
    }

    /// Each juggler's dwell points: throw i with the catch of entry i - 2.
    fn finish(self) -> Result<Vec<Vec<DwellPoints>>, SettingsError> {
        if self.pending() {
            return Err(SettingsError::form(
                KEY,
                "hands specifier must end with '.'",
            ));
        }
        let mut out = Vec::with_capacity(self.jugglers.len());
        for (j, beats) in self.jugglers.into_iter().enumerate() {
            if beats.is_empty() {
                return Err(SettingsError::form(
                    KEY,
                    format!("juggler {} has no hand positions", j + 1),
                ));
            }
            let n = beats.len();
            let given = |beat: &HandsBeat, i: usize| beat.points[i].unwrap_or_default();
            let dwell = (0..n)
                .map(|i| {
                    let previous = &beats[(i + 2 * n - 2) % n];
                    DwellPoints {
                        throw: given(&beats[i], 0),
                        catch: given(previous, previous.catch),
                    }
                })
                .collect();
            out.push(dwell);
        }
        Ok(out)
    }
}
