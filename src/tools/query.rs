//! What the generator is asked ([`Query`]), why a query cannot run ([`GenError`]), the limits
//! every search keeps, and Juggling Lab's regular expressions. Both searches (`solo`,
//! `general`) read these; neither reads the other.

use regex::Regex;

pub use super::state::MAX_HEIGHT;

/// Which start states to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroundFilter {
    /// Ground and excited state patterns.
    Both,
    /// `-g`: ground state patterns only.
    GroundOnly,
    /// `-ng`: excited state patterns only.
    ExcitedOnly,
}

/// How composite patterns are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// The default: a pattern does not return to its start state before its end.
    Default,
    /// `-f`: full listing, composite patterns too.
    Full,
    /// `-prime`: no state is visited twice.
    Prime,
}

/// A generator query, with Juggling Lab's options.
#[derive(Clone, Debug)]
pub struct Query {
    pub props: u32,
    /// `None` = unbounded (`-`): props × the longest period.
    pub max_throw: Option<u32>,
    pub period_min: u32,
    /// `None` = unbounded (only with `-prime` and a maximum throw).
    pub period_max: Option<u32>,
    pub ground: GroundFilter,
    pub listing: Listing,
    /// `-rot`: every rotation of a pattern.
    pub rotations: bool,
    /// `-lame`: no two consecutive 1s.
    pub lame: bool,
    /// `-x`: patterns whose text (or any beginning of it) matches are left out.
    pub exclude: Vec<String>,
    /// `-i`: patterns must match all of these.
    pub include: Vec<String>,
    /// The period range was open below (`-5`, `-`): it starts at the rhythm's period.
    pub period_from_rhythm: bool,
    /// `-s`: synchronous patterns.
    pub sync: bool,
    /// `-m N`: at most N props thrown together from one hand.
    pub multiplex: u32,
    /// `-j N`: jugglers (passing when more than one).
    pub jugglers: u32,
    /// `-mf`: allow catching props from different places at once (squeezes).
    pub squeeze: bool,
    /// Clusters (`[33]`) allowed; `-mc` clears it.
    pub clustered: bool,
    /// `-mt`: a multiplex that is not just a hold.
    pub true_multiplex: bool,
    /// `-cp`: connected passing patterns only.
    pub connected: bool,
    /// `-sym`: juggler-symmetric passing patterns only.
    pub symmetric: bool,
    /// `-jp`: every permutation of the jugglers.
    pub permutations: bool,
    /// `-d N`: communication delay in beats.
    pub delay: u32,
    /// `-l N`: the leader (1-based) for `-d`.
    pub leader: u32,
    /// Get-in and get-out sequences are wanted (not `-se`, not `-no`).
    pub sequences: bool,
}

impl Query {
    /// A default query: `gen props max_throw period`.
    pub fn new(props: u32, max_throw: Option<u32>, period: u32) -> Query {
        Query {
            props,
            max_throw,
            period_min: period,
            period_max: Some(period),
            ground: GroundFilter::Both,
            listing: Listing::Default,
            rotations: false,
            lame: false,
            exclude: Vec::new(),
            include: Vec::new(),
            period_from_rhythm: false,
            sync: false,
            multiplex: 1,
            jugglers: 1,
            squeeze: false,
            clustered: true,
            true_multiplex: false,
            connected: false,
            symmetric: false,
            permutations: false,
            delay: 0,
            leader: 1,
            sequences: true,
        }
    }

    /// Synchronous, multiplex or passing: searched by the general search.
    pub fn is_general(&self) -> bool {
        self.sync || self.multiplex != 1 || self.jugglers != 1
    }
}

/// Largest number of jugglers (their numbers are written with one digit).
pub const MAX_JUGGLERS: u32 = 9;
/// Largest number of props thrown together.
pub const MAX_MULTIPLEX: u32 = 9;
/// Longest period searched (the budget's [`crate::budget::GEN_PERIOD`]).
pub const MAX_PERIOD: u32 = crate::budget::GEN_PERIOD.max as u32;

/// Why a query cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("the number of props must be at least 1")]
    NoProps,
    #[error("the maximum throw must be at least 1")]
    HeightTooSmall,
    #[error("the period range {0}-{1} is empty or starts below 1")]
    BadPeriod(u32, u32),
    #[error("an unbounded period needs -prime (otherwise there are infinitely many patterns)")]
    UnboundedNeedsPrime,
    #[error("an unbounded period needs a maximum throw")]
    Underspecified,
    #[error(
        "throws up to {0} are too high: at most {MAX_HEIGHT} (an unbounded maximum throw is props × period)"
    )]
    TooHigh(u64),
    #[error("an unbounded period with these numbers allows periods up to {0}, too many to search")]
    TooLong(u128),
    #[error("bad regular expression {0:?}: {1}")]
    Regex(String, String),
    #[error("the number of jugglers must be 1 to {MAX_JUGGLERS} (got {0})")]
    Jugglers(u32),
    #[error("the number of simultaneous throws (-m) must be 1 to {MAX_MULTIPLEX} (got {0})")]
    Multiplex(u32),
    #[error("with more than one juggler, ground or excited state patterns only (-g, -ng, -d) need -jp (every juggler permutation)")]
    NeedsPermutations,
    #[error("the period must be a multiple of {0} (synchronous patterns throw every {0} beats)")]
    PeriodMultiple(u32),
    #[error("the leader (-l) must be one of the jugglers, 1 to {jugglers} (got {leader})")]
    Leader { leader: u32, jugglers: u32 },
    #[error("{0}")]
    Budget(#[from] crate::budget::BudgetError),
}

/// Juggling Lab's regular expressions: `[`, `]`, `(`, `)` and `|` stand for themselves, and
/// stand for the regular-expression operators when written with a backslash.
pub(crate) fn standard_regex(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 8);
    let mut chars = term.chars().peekable();
    while let Some(c) = chars.next() {
        let special = matches!(c, '[' | ']' | '(' | ')' | '|');
        if c == '\\' && matches!(chars.peek(), Some('[' | ']' | '(' | ')' | '|')) {
            out.push(chars.next().unwrap_or('\\'));
        } else if special {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a regular expression keeps or drops the patterns it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Matching {
    /// `-x re`: a pattern is dropped when any beginning of it matches `.*re.*` as a whole
    /// (just `re` when it has `^`).
    Exclude,
    /// `-i re`: the whole pattern must match `re` with `.*` added where `^`/`$` are missing.
    Include,
}

/// Juggling Lab's matching rules for `-x` and `-i` (see [`Matching`]).
pub(crate) fn compile(res: &[String], matching: Matching) -> Result<Vec<Regex>, GenError> {
    res.iter()
        .map(|re| {
            let mut full = standard_regex(re);
            match matching {
                Matching::Include => {
                    if !full.contains('^') {
                        full = format!(".*{full}");
                    }
                    if !full.contains('$') {
                        full = format!("{full}.*");
                    }
                }
                Matching::Exclude => {
                    if !full.contains('^') {
                        full = format!(".*{full}.*");
                    }
                }
            }
            anchored(&full).map_err(|e| GenError::Regex(re.clone(), e))
        })
        .collect()
}

/// `re` matching whole texts only.
pub(crate) fn anchored(re: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{re})$")).map_err(|e| e.to_string())
}

/// `n` choose `k`, saturating.
pub(crate) fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k.min(n - k) {
        r = r.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    r
}

/// One generated pattern, in Juggling Lab's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    pub pattern: &'a str,
    /// The period in beats (a synchronous pair is two beats).
    pub period: usize,
    /// The pattern starts in the ground state.
    pub ground_state: bool,
    /// Throws from the ground state into the pattern's state (empty for ground patterns, and
    /// when sequences were not asked for).
    pub get_in: &'a str,
    /// Throws from the pattern's state back to the ground state.
    pub get_out: &'a str,
    /// The (period, start state) searched, counted from 0 in the order of the listing:
    /// patterns of one `start` share period, ground state, get-in and get-out.
    pub start: u64,
}

/// What the patterns of one (period, start state) share.
#[derive(Debug)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
pub(crate) struct Task<S> {
    pub(crate) period: usize,
    pub(crate) ground_state: bool,
    pub(crate) start: S,
}
