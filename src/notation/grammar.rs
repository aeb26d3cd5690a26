//! The nom grammar of Juggling Lab's siteswap notation (NOTATION.md §9), one function per rule.
//!
//! Works on the cleaned text (tabs and line breaks removed, trimmed). Failures are recorded in
//! [`Ctx`] at the furthest position reached, which is where the error is reported; a few
//! errors are fatal (`nom::Err::Failure`) because no other reading can fix them.

use std::cell::Cell;

use nom::branch::alt;
use nom::multi::{many0, many1};
use nom::{IResult, Parser};

use super::ast::{
    DecimalNumber, Decimals, DelayPrefix, Element, Group, Item, Modifier, Multi, Pair, PassGroup,
    PassTarget, PatternNode, Span, Throw,
};
use super::error::{Expected, ParseErrorKind};
use crate::types::Hand;

/// Deepest nesting of `(...)` groups accepted.
pub const MAX_NESTING: usize = 64;

/// Most digits after the decimal point of a Prechac value or delay.
pub const MAX_DECIMALS: u8 = 4;

/// The nom error type: the details live in [`Ctx`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fail;

impl<I> nom::error::ParseError<I> for Fail {
    fn from_error_kind(_: I, _: nom::error::ErrorKind) -> Self {
        Fail
    }
    fn append(_: I, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type PResult<'a, O> = IResult<&'a str, O, Fail>;

/// Parsing state: the text length (for spans) and the furthest failure seen.
pub struct Ctx {
    total: usize,
    /// Byte offset and expectations of the furthest failure.
    furthest: Cell<(usize, Expected)>,
    /// Set when a fatal error stops the parse.
    pub fatal: Cell<Option<(usize, ParseErrorKind)>>,
    /// The text is Prechac notation ([`is_prechac`]): `px` is a crossed pass, a letter after
    /// `p` names the juggler, digits after `p` start the next throw.
    pub prechac: bool,
}

impl Ctx {
    pub fn new(text: &str) -> Self {
        Ctx {
            total: text.len(),
            furthest: Cell::new((0, Expected::default())),
            fatal: Cell::new(None),
            prechac: is_prechac(text),
        }
    }

    /// Byte offset of the rest `i` in the whole text.
    fn pos(&self, i: &str) -> usize {
        self.total - i.len()
    }

    /// Records that `what` was expected at `i`; returns the recoverable error.
    fn expect<T>(&self, i: &str, what: Expected) -> PResult<'static, T> {
        let at = self.pos(i);
        let (best, exp) = self.furthest.get();
        if at > best {
            self.furthest.set((at, what));
        } else if at == best {
            self.furthest.set((at, exp.union(what)));
        }
        Err(nom::Err::Error(Fail))
    }

    /// Stops the parse with a fatal error at `i`.
    fn fatal<T>(&self, i: &str, kind: ParseErrorKind) -> PResult<'static, T> {
        self.fatal.set(Some((self.pos(i), kind)));
        Err(nom::Err::Failure(Fail))
    }

    /// The furthest failure: byte offset and what was expected there.
    pub fn furthest(&self) -> (usize, Expected) {
        self.furthest.get()
    }
}

/// Matches the character `c`, recording `what` on failure.
fn sym<'a>(cx: &Ctx, i: &'a str, c: char, what: Expected) -> PResult<'a, ()> {
    match i.strip_prefix(c) {
        Some(rest) => Ok((rest, ())),
        None => cx.expect(i, what),
    }
}

// SP = " " {" "}   (optional wherever used: never fails)
fn spaces(i: &str) -> PResult<'_, ()> {
    Ok((i.trim_start_matches(' '), ()))
}

/// Prechac notation: a fractional value (a `.`, outside Juggling Lab's alphabet) or a delay
/// prefix ([`has_delay_prefix`]). Nothing Juggling Lab accepts has either.
pub fn is_prechac(text: &str) -> bool {
    text.contains('.') || has_delay_prefix(text)
}

/// `{d1,d2,...}<..|..>`: braces holding a comma (a multiplex never does), or only numbers and
/// spaces before a passing group of two or more jugglers. Juggling Lab would read the braces
/// as a solo multiplex, which beside a passing group is an error ("inconsistent number of
/// jugglers"), and a comma in one is a syntax error.
fn has_delay_prefix(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('{') else {
        return false;
    };
    let Some(close) = rest.find('}') else {
        return rest.contains(',');
    };
    let inside = &rest[..close];
    let after = rest[close + 1..].trim_start_matches(' ');
    inside.contains(',')
        || (inside
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b' '))
            && after.starts_with('<')
            && after.split('>').next().is_some_and(|g| g.contains('|')))
}

// input = [SP] [delays] pattern EOF
pub fn input(cx: &Ctx, i: &str) -> Option<(Option<DelayPrefix>, PatternNode)> {
    let (i, _) = spaces(i).ok()?;
    let (i, delays) = if has_delay_prefix(i) {
        let (i, d) = delays(cx, i).ok()?;
        (i, Some(d))
    } else {
        (i, None)
    };
    let (i, node) = pattern(cx, i, 0).ok()?;
    if i.is_empty() {
        Some((delays, node))
    } else {
        let _ = cx.expect::<()>(i, Expected::END);
        None
    }
}

// delays = "{" [SP] decimal [SP] {"," [SP] decimal [SP]} "}" [SP]
fn delays<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, DelayPrefix> {
    let start = cx.pos(i);
    let (i, ()) = sym(cx, i, '{', Expected::THROW_START)?;
    let (mut i, ()) = spaces(i)?;
    let mut list = Vec::new();
    loop {
        let (rest, d) = decimal_number(cx, i)?;
        list.push(d);
        let (rest, ()) = spaces(rest)?;
        match sym(cx, rest, ',', Expected::COMMA.union(Expected::CLOSE_BRACE)) {
            Ok((rest, ())) => i = spaces(rest)?.0,
            Err(nom::Err::Error(_)) => {
                i = rest;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let (i, ()) = sym(cx, i, '}', Expected::COMMA.union(Expected::CLOSE_BRACE))?;
    let span = Span::new(start, cx.pos(i));
    let (i, ()) = spaces(i)?;
    Ok((i, DelayPrefix { delays: list, span }))
}

// decimal = digit {digit} ["." digit {digit}]
fn decimal_number<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, DecimalNumber> {
    let start = cx.pos(i);
    if !i.starts_with(|c: char| c.is_ascii_digit()) {
        return cx.expect(i, Expected::DELAY);
    }
    let (i, whole) = number(cx, i)?;
    let (i, decimals) = decimals(cx, i)?;
    Ok((
        i,
        DecimalNumber {
            whole,
            decimals,
            span: Span::new(start, cx.pos(i)),
        },
    ))
}

// decimals = "." digit {digit}   (at most MAX_DECIMALS digits)
fn decimals<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, Option<Decimals>> {
    let Some(rest) = i.strip_prefix('.') else {
        return Ok((i, None));
    };
    let places = rest.bytes().take_while(u8::is_ascii_digit).count();
    if places == 0 {
        return cx.expect(rest, Expected::DECIMALS);
    }
    if places > usize::from(MAX_DECIMALS) {
        return cx.fatal(
            &rest[usize::from(MAX_DECIMALS)..],
            ParseErrorKind::TooManyDecimals,
        );
    }
    let digits = rest[..places].parse::<u32>().unwrap_or(0);
    Ok((
        &rest[places..],
        Some(Decimals {
            digits,
            places: places as u8,
        }),
    ))
}

// pattern = element {element} ["*"]
fn pattern<'a>(cx: &Ctx, i: &'a str, depth: usize) -> PResult<'a, PatternNode> {
    let start = cx.pos(i);
    let (i, elements) = many1(|i| element(cx, i, depth)).parse(i)?;
    let (i, mirror) = match sym(cx, i, '*', Expected::STAR) {
        Ok((rest, ())) => (rest, true),
        Err(nom::Err::Error(_)) => (i, false),
        Err(e) => return Err(e),
    };
    Ok((
        i,
        PatternNode {
            elements,
            mirror,
            span: Span::new(start, cx.pos(i)),
        },
    ))
}

// element = group | pass_seq | solo_seq | "?" {"?"}
fn element<'a>(cx: &Ctx, i: &'a str, depth: usize) -> PResult<'a, Element> {
    if i.starts_with('?') {
        return cx.fatal(i, ParseErrorKind::Wildcard);
    }
    alt((
        |i| group(cx, i, depth).map(|(r, g)| (r, Element::Group(g))),
        |i| pass_seq(cx, i).map(|(r, s)| (r, Element::Passing(s))),
        |i| solo_seq(cx, i, None).map(|(r, s)| (r, Element::Solo(s))),
    ))
    .parse(i)
}

// group = "(" pattern ["^" number] ")"
fn group<'a>(cx: &Ctx, i: &'a str, depth: usize) -> PResult<'a, Group> {
    let start = cx.pos(i);
    let open = i;
    let (i, ()) = sym(cx, i, '(', Expected::THROW_START)?;
    if depth + 1 > MAX_NESTING {
        // Too deep for a group; a sync pair there is still fine.
        if pair(cx, open, None).is_ok() {
            return Err(nom::Err::Error(Fail));
        }
        return cx.fatal(i, ParseErrorKind::TooDeep);
    }
    let (i, inner) = pattern(cx, i, depth + 1)?;
    let (i, repeats, exp) = match sym(cx, i, '^', Expected::CARET) {
        Ok((i, ())) => {
            let (i, n) = number(cx, i)?;
            (i, n, Expected::CLOSE_PAREN)
        }
        Err(nom::Err::Error(_)) => (i, 1, Expected::CLOSE_PAREN.union(Expected::CARET)),
        Err(e) => return Err(e),
    };
    let (i, ()) = sym(cx, i, ')', exp)?;
    Ok((
        i,
        Group {
            pattern: Box::new(inner),
            repeats,
            span: Span::new(start, cx.pos(i)),
        },
    ))
}

// number = digit {digit}
fn number<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, u64> {
    let len = i.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return cx.expect(i, Expected::COUNT);
    }
    match i[..len].parse::<u64>() {
        Ok(n) => Ok((&i[len..], n)),
        Err(_) => cx.fatal(i, ParseErrorKind::NumberTooLarge),
    }
}

// solo_seq = solo_item {solo_item}
// pass_items = like solo_seq, with pthrow in place of throw
// (`jugglers` is `None` for solo throws, `Some(J)` inside a `<>` group of J jugglers)
fn solo_seq<'a>(cx: &Ctx, i: &'a str, jugglers: Option<usize>) -> PResult<'a, Vec<Item>> {
    many1(|i| solo_item(cx, i, jugglers)).parse(i)
}

// solo_item = multi | pair ["!"] [SP] | hand [SP]
fn solo_item<'a>(cx: &Ctx, i: &'a str, jugglers: Option<usize>) -> PResult<'a, Item> {
    alt((
        |i| multi(cx, i, jugglers).map(|(r, m)| (r, Item::Multi(m))),
        |i| pair(cx, i, jugglers).map(|(r, p)| (r, Item::Pair(p))),
        |i| hand(cx, i),
    ))
    .parse(i)
}

// hand = "R" | "L" ;  followed by [SP]
fn hand<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, Item> {
    let start = cx.pos(i);
    let h = match i.as_bytes().first() {
        Some(b'R') => Hand::Right,
        Some(b'L') => Hand::Left,
        _ => return cx.expect(i, Expected::THROW_START),
    };
    let span = Span::new(start, start + 1);
    let (i, ()) = spaces(&i[1..])?;
    Ok((i, Item::HandSpec { hand: h, span }))
}

// pair = "(" [SP] multi "," [SP] multi ")" ;  followed by ["!"] [SP]
fn pair<'a>(cx: &Ctx, i: &'a str, jugglers: Option<usize>) -> PResult<'a, Pair> {
    let start = cx.pos(i);
    let (i, ()) = sym(cx, i, '(', Expected::THROW_START)?;
    let (i, ()) = spaces(i)?;
    let (i, left) = multi(cx, i, jugglers)?;
    let (i, ()) = sym(cx, i, ',', Expected::COMMA)?;
    let (i, ()) = spaces(i)?;
    let (i, right) = multi(cx, i, jugglers)?;
    let (i, ()) = sym(cx, i, ')', Expected::CLOSE_PAREN)?;
    let (i, bang) = match i.strip_prefix('!') {
        Some(rest) => (rest, true),
        None => (i, false),
    };
    let span = Span::new(start, cx.pos(i));
    let (i, ()) = spaces(i)?;
    Ok((
        i,
        Pair {
            left,
            right,
            bang,
            span,
        },
    ))
}

// multi = throw [SP]
//       | "[" [SP] throw [SP] {throw [SP]} "]" [SP]
//       | "{" [SP] throw [SP] {throw [SP]} "}" [SP]
fn multi<'a>(cx: &Ctx, i: &'a str, jugglers: Option<usize>) -> PResult<'a, Multi> {
    let start = cx.pos(i);
    let close = match i.as_bytes().first() {
        Some(b'[') => Some((']', Expected::CLOSE_BRACKET)),
        Some(b'{') => Some(('}', Expected::CLOSE_BRACE)),
        _ => None,
    };
    match close {
        None => {
            let (i, t) = throw(cx, i, jugglers)?;
            let (i, ()) = spaces(i)?;
            Ok((
                i,
                Multi {
                    throws: vec![t],
                    bracketed: false,
                    span: t.span,
                },
            ))
        }
        Some((closer, exp)) => {
            let (i, ()) = spaces(&i[1..])?;
            let (i, throws) = many1(|i| {
                let (i, t) = throw(cx, i, jugglers)?;
                let (i, ()) = spaces(i)?;
                Ok((i, t))
            })
            .parse(i)?;
            let (i, ()) = sym(cx, i, closer, exp)?;
            let span = Span::new(start, cx.pos(i));
            let (i, ()) = spaces(i)?;
            Ok((
                i,
                Multi {
                    throws,
                    bracketed: true,
                    span,
                },
            ))
        }
    }
}

// throw  = value ["x"] [modifier] [spins] ["/"]              (solo)
// pthrow = value ["x"] ["p" [number]] [modifier] [spins] ["/"] (inside <>)
fn throw<'a>(cx: &Ctx, i: &'a str, jugglers: Option<usize>) -> PResult<'a, Throw> {
    let start = cx.pos(i);
    let (i, value) = value(cx, i)?;
    let (i, decimals) = match jugglers {
        Some(_) => decimals(cx, i)?,
        None => (i, None),
    };
    let (i, mut cross) = match i.as_bytes().first() {
        Some(b'x' | b'X') => (&i[1..], true),
        _ => (i, false),
    };
    let (i, pass) = match (i.as_bytes().first(), jugglers) {
        (Some(b'p' | b'P'), Some(j)) if cx.prechac => {
            let (i, (crossed, target)) = prechac_pass(cx, &i[1..], j)?;
            cross |= crossed;
            (i, Some(target))
        }
        (Some(b'p' | b'P'), Some(j)) => {
            let (i, target) = pass_target(&i[1..], j);
            (i, Some(target))
        }
        (Some(b'P'), None) => return cx.fatal(i, ParseErrorKind::PassInSolo),
        _ => (i, None),
    };
    let (i, modifier) = modifier(cx, i);
    let (i, spins) = spins(cx, i)?;
    let i = i.strip_prefix('/').unwrap_or(i);
    Ok((
        i,
        Throw {
            value,
            decimals,
            cross,
            pass,
            modifier,
            spins,
            span: Span::new(start, cx.pos(i)),
        },
    ))
}

// value = "0".."9" | "a".."z"   (p = 25, x = 33)
fn value<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, u32> {
    match i.as_bytes().first() {
        Some(&c @ b'0'..=b'9') => Ok((&i[1..], u32::from(c - b'0'))),
        Some(&c @ b'a'..=b'z') => Ok((&i[1..], u32::from(c - b'a') + 10)),
        _ => cx.expect(i, Expected::VALUE),
    }
}

/// After `p`: the digits naming an existing juggler (1..=jugglers, longest such run, no
/// leading zero); without them the pass goes to the next juggler.
fn pass_target(i: &str, jugglers: usize) -> (&str, PassTarget) {
    let digits = i.bytes().take_while(u8::is_ascii_digit).count();
    if i.starts_with('0') {
        return (i, PassTarget::Next);
    }
    let mut best = None;
    let mut n: usize = 0;
    for (k, c) in i.bytes().take(digits).enumerate() {
        n = match n
            .checked_mul(10)
            .and_then(|v| v.checked_add(usize::from(c - b'0')))
        {
            Some(v) if v <= jugglers => v,
            _ => break,
        };
        best = Some((k + 1, n));
    }
    match best {
        Some((len, n)) => (&i[len..], PassTarget::Juggler(n - 1)),
        None => (i, PassTarget::Next),
    }
}

/// After `p` in Prechac notation: an optional `x` (a crossed pass) and an optional letter
/// naming the target juggler (`A` = juggler 1). A letter past the last juggler is an error,
/// except Juggling Lab's modifier letters `B`, `F`, `H` and `T`, which stay modifiers.
fn prechac_pass<'a>(cx: &Ctx, i: &'a str, jugglers: usize) -> PResult<'a, (bool, PassTarget)> {
    let (i, crossed) = match i.as_bytes().first() {
        Some(b'x' | b'X') => (&i[1..], true),
        _ => (i, false),
    };
    match i.as_bytes().first() {
        Some(&c @ b'A'..=b'Z') if c != b'L' && c != b'R' => {
            let n = usize::from(c - b'A');
            if n < jugglers {
                Ok((&i[1..], (crossed, PassTarget::Letter(n))))
            } else if matches!(c, b'B' | b'F' | b'H' | b'T') {
                Ok((i, (crossed, PassTarget::Next)))
            } else {
                cx.fatal(i, ParseErrorKind::NoSuchJuggler)
            }
        }
        _ => Ok((i, (crossed, PassTarget::Next))),
    }
}

// spins = "~" digit   (one digit, so `53~01` is 5, a flat 3, 1; `~` is outside Juggling Lab's
//                      alphabet, so no pattern Juggling Lab accepts changes meaning)
fn spins<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, Option<u8>> {
    let Some(rest) = i.strip_prefix('~') else {
        return Ok((i, None));
    };
    match rest.as_bytes().first() {
        Some(&c @ b'0'..=b'9') => Ok((&rest[1..], Some(c - b'0'))),
        _ => cx.expect(rest, Expected::SPINS),
    }
}

/// Most spins a `~N` (and a pattern file's `spins` table) may ask for.
pub const MAX_SPINS: u8 = 9;

// modifier = modch {modch | "L" | "R"} ;  modch = "A".."K" | "M".."Q" | "S".."Z"
fn modifier<'a>(cx: &Ctx, i: &'a str) -> (&'a str, Option<Modifier>) {
    match i.as_bytes().first() {
        Some(c) if c.is_ascii_uppercase() && *c != b'L' && *c != b'R' => {
            let len = i.bytes().take_while(u8::is_ascii_uppercase).count();
            let start = cx.pos(i);
            let m = Modifier {
                kind: Modifier::classify(&i[..len]),
                span: Span::new(start, start + len),
            };
            (&i[len..], Some(m))
        }
        _ => (i, None),
    }
}

// pass_seq = pass_group {pass_group}
fn pass_seq<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, Vec<PassGroup>> {
    many1(|i| pass_group(cx, i)).parse(i)
}

// pass_group = "<" [SP] pass_items {"|" [SP] pass_items} ">" [SP]
fn pass_group<'a>(cx: &Ctx, i: &'a str) -> PResult<'a, PassGroup> {
    let start = cx.pos(i);
    let (i, ()) = sym(cx, i, '<', Expected::THROW_START)?;
    // The juggler count decides how far `pN` digits reach; there is no nesting inside `<>`.
    let inside = i.split('>').next().unwrap_or("");
    let jugglers = 1 + inside.bytes().filter(|&c| c == b'|').count();
    let (i, ()) = spaces(i)?;
    let (i, first) = solo_seq(cx, i, Some(jugglers))?;
    let (i, rest) = many0(|i| {
        let (i, ()) = sym(cx, i, '|', Expected::BAR)?;
        let (i, ()) = spaces(i)?;
        solo_seq(cx, i, Some(jugglers))
    })
    .parse(i)?;
    let (i, ()) = sym(cx, i, '>', Expected::CLOSE_ANGLE)?;
    let span = Span::new(start, cx.pos(i));
    let (i, ()) = spaces(i)?;
    let mut parts = Vec::with_capacity(1 + rest.len());
    parts.push(first);
    parts.extend(rest);
    Ok((i, PassGroup { parts, span }))
}
