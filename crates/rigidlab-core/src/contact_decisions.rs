//! Contacts a program decides on: with `World::ask_before_contact`, a contact that a pair of
//! bodies begins waits for a yes or no before the step goes on (a veto, as the 3D manifold
//! tutorial's objects give before their manifold is built). A refused pair passes through each
//! other for as long as the narrow phase keeps finding them in contact; once apart they are
//! asked again when they next meet.
//!
//! A step is split for this: `new_contacts` runs its first stages (broad and narrow phase)
//! ahead and lists the contacts they begin; the program answers with `decide_contact`; `step`
//! then goes on from the stages taken ahead. The world stays readable between the two, as it
//! was before the step (the bodies have not moved). Any edit meanwhile takes the staged stages
//! back (the next call runs them again on the edited world) but keeps the answers given, so a
//! pair is not asked twice in one step unless the program cancels it.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::error::{Error, Result};
use crate::profile::{Laps, Stage};
use crate::world::World;

/// The first stages of a step, taken ahead to ask about the contacts they begin.
#[derive(Default)]
pub(crate) struct Staged {
    /// This step's manifolds (indices) of pairs that had none last step.
    pub new: Vec<usize>,
    /// Pairs passing through each other that the narrow phase found still in contact.
    pub still_passing: Vec<(u64, u64)>,
}

/// Answers given for the coming step, by the pair's ids (smaller first).
pub(crate) type Decisions = HashMap<(u64, u64), bool>;

impl World {
    /// With `true`, every contact a pair of bodies begins waits for `decide_contact` before a
    /// step goes on (see `new_contacts`); `step` fails while one waits.
    pub fn ask_before_contact(&mut self, ask: bool) {
        if self.asks != ask {
            self.unstage();
            self.decided.clear();
        }
        self.asks = ask;
    }

    /// Whether contacts wait for a decision (`ask_before_contact`).
    pub fn asks_before_contact(&self) -> bool {
        self.asks
    }

    /// Runs the coming step's broad and narrow phase, unless they ran since the last edit, and
    /// lists the contacts it would begin that wait for an answer: indices into `manifolds()`
    /// (a pair of bodies that had no contact in the last step). Empty when the world does not
    /// ask, or when nothing can move. Fails as `step` would on a state out of range.
    pub fn new_contacts(&mut self) -> Result<Vec<usize>> {
        if !self.asks {
            return Ok(Vec::new());
        }
        if self.staged.is_none() {
            self.check_start()?;
            if self.at_rest() {
                return Ok(Vec::new());
            }
            self.stage(&mut Laps::start());
        }
        let staged = self.staged.as_ref().expect("staged above");
        Ok(staged
            .new
            .iter()
            .copied()
            .filter(|&i| !self.decided.contains_key(&self.pair_ids(i)))
            .collect())
    }

    /// Answers for the coming step whether the bodies with ids a and b may touch: refused,
    /// they pass through each other for as long as they stay in contact.
    pub fn decide_contact(&mut self, a: u64, b: u64, accept: bool) {
        self.decided.insert((a.min(b), a.max(b)), accept);
    }

    /// Takes back the stages run ahead and forgets the answers given: the world is as before
    /// `new_contacts` (for a program whose decision failed).
    pub fn cancel_contacts(&mut self) {
        self.unstage();
        self.decided.clear();
    }

    /// The ids (smaller first) of the bodies of this step's manifold `i`.
    fn pair_ids(&self, i: usize) -> (u64, u64) {
        let m = &self.state.contacts.manifolds[i];
        let bodies = self.state.bodies.bodies();
        let (a, b) = (bodies[m.row_a].id, bodies[m.row_b].id);
        (a.min(b), a.max(b))
    }

    /// The broad and narrow phase of the coming step (the history keeps the state before
    /// them, when a snapshot is due).
    pub(crate) fn stage(&mut self, laps: &mut Laps) {
        self.keep_history();
        self.searched = self.first_search();
        self.find_candidate_pairs(self.searched);
        laps.lap(Stage::BroadPhase);
        self.stage_contacts();
    }

    /// The narrow phase of the coming step, over the candidate pairs found.
    pub(crate) fn stage_contacts(&mut self) {
        let mut staged = Staged::default();
        self.update_manifolds(&mut staged);
        self.staged = Some(staged);
    }

    /// Takes back the stages run ahead, if any: last step's contacts are the world's again.
    /// Called by every edit before it changes anything.
    pub(crate) fn unstage(&mut self) {
        if self.staged.take().is_some() {
            self.state.contacts.undo_begin();
        }
    }

    /// Applies the answers to the contacts the staged stages began: refused ones are dropped
    /// and their pairs pass through each other from now on. Fails, keeping the stages, while
    /// a contact of a world that asks has no answer.
    pub(crate) fn apply_decisions(&mut self) -> Result<()> {
        let staged = self.staged.as_ref().expect("the step stages first");
        let mut refused = Vec::new();
        let mut waiting = 0;
        for &i in &staged.new {
            match self.decided.get(&self.pair_ids(i)) {
                Some(true) => {}
                Some(false) => refused.push(i),
                None => waiting += 1,
            }
        }
        if waiting > 0 {
            return Err(Error::Undecided { count: waiting });
        }
        let staged = self.staged.take().expect("checked above");
        let mut passing: BTreeSet<(u64, u64)> = staged.still_passing.into_iter().collect();
        passing.extend(refused.iter().map(|&i| self.pair_ids(i)));
        self.keep_sleepers_passing(&mut passing);
        self.state.passing = passing;
        self.state.contacts.remove_sorted(&refused);
        Ok(())
    }

    /// Pairs passing through each other stay so while neither body is awake (the narrow phase
    /// does not look at them then). Only pairs the narrow phase did not find are looked up.
    fn keep_sleepers_passing(&self, passing: &mut BTreeSet<(u64, u64)>) {
        let unseen: Vec<(u64, u64)> = self
            .state
            .passing
            .iter()
            .filter(|k| !passing.contains(k))
            .copied()
            .collect();
        if unseen.is_empty() {
            return;
        }
        let ids: HashSet<u64> = unseen.iter().flat_map(|&(a, b)| [a, b]).collect();
        let resting: HashSet<u64> = self
            .state
            .bodies
            .bodies()
            .iter()
            .filter(|b| ids.contains(&b.id) && !b.is_awake())
            .map(|b| b.id)
            .collect();
        passing.extend(
            unseen
                .into_iter()
                .filter(|(a, b)| resting.contains(a) && resting.contains(b)),
        );
    }
}
