//! Why a pattern of events cannot be animated, and where: every error carries the byte offset
//! of the element at fault, and the juggler, hand and time where one event is at fault.

use std::fmt;

use thiserror::Error;

use crate::types::HandRef;

/// An event pattern's problem at an element of the text read.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("{kind}")]
pub struct EventError {
    /// Byte offset of the element at fault in the text read: the `<event>`, `<throw>`,
    /// `<symmetry>`, ... it names, else the `<setup>` or the `<pattern>` for a problem of
    /// the whole.
    pub at: usize,
    pub kind: EventErrorKind,
}

impl EventError {
    pub(crate) fn new(at: usize, kind: EventErrorKind) -> Self {
        EventError { at, kind }
    }
}

/// What is wrong, by phase: reading the elements, expanding the symmetries, linking throws
/// to catches, building the props' paths.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EventErrorKind {
    /// A required element is missing (`setup`, `event`).
    #[error("the pattern has no <{element}>")]
    MissingElement { element: &'static str },
    /// No `delay` symmetry: the pattern has no loop.
    #[error("the pattern has no delay <symmetry> (its loop)")]
    NoLoop,
    /// A second `delay` symmetry.
    #[error("more than one delay <symmetry>")]
    SecondLoop,
    /// A required attribute is missing.
    #[error("<{element}> has no {attribute}=")]
    MissingAttribute { element: String, attribute: String },
    /// An attribute whose value is not what it must be (`problem` says what it must be).
    #[error("<{element}> {attribute}=\"{value}\" {problem}")]
    BadValue {
        element: String,
        attribute: String,
        value: String,
        problem: String,
    },
    /// The loop's `delay` outside the seconds accepted.
    #[error(
        "<symmetry type=\"delay\"> delay=\"{seconds}\" is not between {min} and {max} seconds"
    )]
    LoopLength { seconds: f64, min: f64, max: f64 },
    /// A symmetry of a kind Juggling Lab does not have.
    #[error("<symmetry type=\"{kind}\"> is not delay, switch or switchdelay")]
    UnknownSymmetry { kind: String },
    /// A path or juggler permutation that is not one.
    #[error("permutation \"{text}\" {problem}")]
    Permutation { text: String, problem: String },
    /// `<setup props=...>` naming a prop that is not there.
    #[error("<setup> props=\"{list}\": '{item}' is not a prop number from 1 to {props}")]
    PropNumber {
        list: String,
        item: String,
        props: usize,
    },
    /// `<setup props=...>` naming a prop for more or fewer paths than there are.
    #[error("<setup> props=\"{list}\" names {named} props for {paths} paths")]
    PropCount {
        list: String,
        named: usize,
        paths: usize,
    },
    /// A `<position>` of a juggler the pattern does not have (1-based).
    #[error("<position> juggler={juggler} but the pattern has {jugglers}")]
    PositionJuggler { juggler: usize, jugglers: usize },
    /// More of something than the resource budget allows (`<position>`s of one juggler).
    #[error("{0}")]
    Budget(crate::budget::BudgetError),
    /// An element inside an `<event>` that is no throw, catch or holding.
    #[error("<event> holds an unknown element <{element}>")]
    UnknownTransition { element: String },
    /// A throw type other than toss and bounce.
    #[error("throw type '{kind}' is not toss or bounce")]
    ThrowType { kind: String },
    /// A throw modifier (`g=`, `bounces=`, `bouncefrac=`, `bounceplane=`) with a bad value.
    #[error("{message}")]
    ThrowModifier { message: String },
    /// Symmetries that map one event to one place with two different paths.
    #[error("the symmetries are inconsistent")]
    InconsistentSymmetries,
    /// The symmetries make more events in one loop than the reader takes.
    #[error("more than {limit} events in one loop")]
    TooManyEvents { limit: usize },
    /// A throw no event catches (path 1-based, time within the loop).
    #[error("path {path} is thrown by {} at t={time:.4} s but never caught", HandName(*by))]
    NeverCaught { path: usize, by: HandRef, time: f64 },
    /// A catch after which the path is never thrown again.
    #[error("path {path} is caught by {} at t={time:.4} s but never thrown again", HandName(*by))]
    NeverThrownAgain { path: usize, by: HandRef, time: f64 },
    /// A path caught by one hand and next thrown by another.
    #[error(
        "path {path} is caught by {} at t={time:.4} s but next thrown by {}",
        HandName(*caught_by),
        HandName(*thrown_by)
    )]
    ThrownByAnotherHand {
        path: usize,
        caught_by: HandRef,
        time: f64,
        thrown_by: HandRef,
    },
    /// Throws and catches that do not close into cycles of props.
    #[error("the throws and catches of the paths do not form cycles")]
    NotCycles,
    /// A path no event throws, catches or holds.
    #[error("path {path} has no events")]
    PathWithoutEvents { path: usize },
    /// The events move another number of props than `<setup>` declares.
    #[error("the events move {moved} props but <setup> declares {paths} paths")]
    PropsMoved { moved: usize, paths: usize },
}

/// A hand as messages name it: "juggler 1's right hand".
struct HandName(HandRef);

impl fmt::Display for HandName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "juggler {}'s {} hand",
            self.0.juggler + 1,
            self.0.hand.name()
        )
    }
}
