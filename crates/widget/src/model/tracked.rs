//! Which parts of a widget an action changed, so the page re-runs only the regions that read
//! them.
//!
//! Every part of [`super::Widget`] sits in a [`Tracked`]: reading it is free, and getting it
//! mutably marks it changed. [`super::Widget::act`] clears the marks before an action and
//! reports the marked [`Parts`] after it; the page (see `ui`) keeps one reactive trigger per
//! [`Part`] and notifies exactly those. A region's memo tracks the parts it reads, so typing in
//! the call field re-runs the call's regions, not the import panel or the self-check.

use std::ops::{Deref, DerefMut};

/// One part of a widget's state (the fields of [`super::Widget`] but its configuration, which
/// never changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// Where the table comes from: the lesson, the rule set shown, its calls.
    Course,
    /// Order, call, guesses, reveals, stepper position, reorder log: anything in the lab.
    Lab,
    /// The table's order, its undo history and the reorder log (a reorder or a new table):
    /// what a region that shows no call reads of the lab.
    Order,
    /// Every engine's evaluation of the call, the lesson calls' matrix.
    Verdicts,
    /// The call fields as typed.
    Fields,
    /// A row being carried (keyboard lift, pointer drag).
    Carry,
    /// Which panels are open, and what the toolbar reported.
    Panels,
    /// The table editor.
    Editor,
    /// The import panel.
    Import,
    /// The imported config's lint findings.
    Lint,
    /// What waits for the worker.
    Waiting,
    /// The self-check.
    SelfCheck,
    /// What the learner should know about the stored state.
    Kept,
    /// The tasks ticked and the record of answers.
    Progress,
}

impl Part {
    /// Every part, in declaration order ([`Part::index`]).
    pub const ALL: [Part; 14] = [
        Part::Course,
        Part::Lab,
        Part::Order,
        Part::Verdicts,
        Part::Fields,
        Part::Carry,
        Part::Panels,
        Part::Editor,
        Part::Import,
        Part::Lint,
        Part::Waiting,
        Part::SelfCheck,
        Part::Kept,
        Part::Progress,
    ];

    /// Its place in [`Part::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A set of [`Part`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts(u16);

impl Parts {
    /// No part.
    pub const NONE: Parts = Parts(0);

    /// Every part.
    pub fn all() -> Parts {
        Part::ALL.iter().fold(Parts::NONE, |s, p| s.with(*p))
    }

    /// This set and `p`.
    pub fn with(self, p: Part) -> Parts {
        Parts(self.0 | 1 << p.index())
    }

    /// Whether `p` is in the set.
    pub fn has(self, p: Part) -> bool {
        self.0 & 1 << p.index() != 0
    }

    /// The parts in the set, in [`Part::ALL`] order.
    ///
    /// ```
    /// use permlab_widget::model::{Part, Parts};
    /// let s = Parts::NONE.with(Part::Lab).with(Part::Fields);
    /// assert_eq!(s.iter().collect::<Vec<_>>(), [Part::Lab, Part::Fields]);
    /// ```
    pub fn iter(self) -> impl Iterator<Item = Part> {
        Part::ALL.into_iter().filter(move |p| self.has(*p))
    }
}

impl FromIterator<Part> for Parts {
    fn from_iter<I: IntoIterator<Item = Part>>(iter: I) -> Self {
        iter.into_iter().fold(Parts::NONE, Parts::with)
    }
}

/// A part that knows whether it was handed out mutably since [`Tracked::clear`].
#[derive(Clone, Debug, Default)]
pub struct Tracked<T> {
    value: T,
    changed: bool,
}

impl<T> Tracked<T> {
    /// `value`, unchanged.
    pub fn new(value: T) -> Self {
        Tracked {
            value,
            changed: false,
        }
    }

    /// Whether it was borrowed mutably since the last [`Tracked::clear`].
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// Forgets the mark.
    pub fn clear(&mut self) {
        self.changed = false;
    }
}

impl<T> Deref for Tracked<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Tracked<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.changed = true;
        &mut self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_leaves_a_part_unchanged_and_writing_marks_it() {
        let mut t = Tracked::new(vec![1]);
        assert_eq!(t.len(), 1);
        assert!(!t.changed());
        t.push(2);
        assert!(t.changed());
        t.clear();
        assert!(!t.changed());
    }

    #[test]
    fn a_set_holds_exactly_the_parts_put_in() {
        let s: Parts = [Part::Kept, Part::Course].into_iter().collect();
        assert!(s.has(Part::Kept) && s.has(Part::Course) && !s.has(Part::Lab));
        assert_eq!(Parts::all().iter().count(), Part::ALL.len());
    }
}
