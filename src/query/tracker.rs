//! Contact events: each frame's contacts turned into "began", "continued" and "ended", so
//! that a game reacts once when two sprites meet and once when they part, without diffing
//! lists by hand.

use std::collections::HashMap;

use crate::{Contact, NodeId};

/// Where a pair of objects is in its contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactPhase {
    /// Touching now, not in the frame before.
    Began,
    /// Touching now and in the frame before.
    Continued,
    /// Touching in the frame before, not now.
    Ended,
}

/// One pair's change at a frame, from [`ContactTracker::update`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactEvent {
    /// What happened.
    pub phase: ContactPhase,
    /// The pair's first object, as in its contact (for `Ended`, as last seen).
    pub a: NodeId,
    /// The pair's second object.
    pub b: NodeId,
    /// Where the pair's contact is in the slice given to `update` (`None` for `Ended`);
    /// [`ContactEvent::contact`] looks it up.
    pub index: Option<usize>,
    /// How many frames in a row the pair has touched, this one included (for `Ended`, how
    /// many it touched before parting).
    pub frames: u64,
}

impl ContactEvent {
    /// The pair's contact in the slice given to `update` (`None` for `Ended`).
    pub fn contact<'c>(&self, contacts: &'c [Contact]) -> Option<&'c Contact> {
        contacts.get(self.index?)
    }
}

/// Follows contacts from frame to frame. Give it each frame's contacts (from
/// [`Stage::contacts_among`](crate::Stage::contacts_among) or its relatives, or several of their
/// lists joined); it says which pairs began touching, which go on, and which parted.
///
/// A pair is the same whichever of its objects is `a`. A pair listed twice in one frame
/// counts once. A removed object's pairs end at the next update (their ids are then stale).
/// After the first frames it allocates nothing: its tables and event list are reused.
///
/// ```
/// use pixelhit::{CollisionOptions, ContactPhase, ContactTracker, FillRule, Graphic, Path, Stage};
/// let mut stage = Stage::new();
/// let root = stage.root();
/// let ship = stage.add_container(root)?;
/// stage.add_graphic(ship, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
/// let rock = stage.add_container(root)?;
/// stage.add_graphic(rock, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
/// let opts = CollisionOptions::default();
/// let mut tracker = ContactTracker::new();
/// let mut log = Vec::new();
/// for x in [20.0, 8.0, 6.0, 20.0] {
///     stage.set_position(rock, x, 0.0)?;
///     let contacts = stage.contacts_among(&[ship, rock], root, &opts)?;
///     for event in tracker.update(&contacts) {
///         log.push(event.phase);
///     }
/// }
/// assert_eq!(log, [ContactPhase::Began, ContactPhase::Continued, ContactPhase::Ended]);
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ContactTracker {
    /// The pairs touching at the last update, by their key, with their frame counts.
    touching: HashMap<(NodeId, NodeId), Pair>,
    /// The table being filled for this frame (kept to reuse its memory).
    next: HashMap<(NodeId, NodeId), Pair>,
    /// The last update's pairs in the order they came, for `Ended` events in a fixed order.
    order: Vec<(NodeId, NodeId)>,
    next_order: Vec<(NodeId, NodeId)>,
    events: Vec<ContactEvent>,
}

#[derive(Clone, Copy, Debug)]
struct Pair {
    a: NodeId,
    b: NodeId,
    frames: u64,
}

/// A pair's key: its two ids in a fixed order.
fn key(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    (a.min(b), a.max(b))
}

impl ContactTracker {
    /// A tracker with no pair touching.
    pub fn new() -> ContactTracker {
        ContactTracker::default()
    }

    /// Takes this frame's contacts and returns what changed: a `Began` or `Continued` event
    /// for each contact in the order given, then an `Ended` event for each pair of the last
    /// update that is not among them, in the order they were given then.
    pub fn update(&mut self, contacts: &[Contact]) -> &[ContactEvent] {
        self.events.clear();
        self.next.clear();
        self.next_order.clear();
        for (i, c) in contacts.iter().enumerate() {
            let k = key(c.a, c.b);
            if self.next.contains_key(&k) {
                continue;
            }
            let frames = self.touching.get(&k).map_or(0, |p| p.frames) + 1;
            let phase = match frames {
                1 => ContactPhase::Began,
                _ => ContactPhase::Continued,
            };
            self.next.insert(
                k,
                Pair {
                    a: c.a,
                    b: c.b,
                    frames,
                },
            );
            self.next_order.push(k);
            self.events.push(ContactEvent {
                phase,
                a: c.a,
                b: c.b,
                index: Some(i),
                frames,
            });
        }
        for k in &self.order {
            if !self.next.contains_key(k)
                && let Some(p) = self.touching.get(k)
            {
                self.events.push(ContactEvent {
                    phase: ContactPhase::Ended,
                    a: p.a,
                    b: p.b,
                    index: None,
                    frames: p.frames,
                });
            }
        }
        std::mem::swap(&mut self.touching, &mut self.next);
        std::mem::swap(&mut self.order, &mut self.next_order);
        &self.events
    }

    /// Whether `a` and `b` touched at the last update (in either order).
    pub fn is_touching(&self, a: NodeId, b: NodeId) -> bool {
        self.touching.contains_key(&key(a, b))
    }

    /// How many frames in a row `a` and `b` have touched, up to the last update (0 when
    /// they did not touch then).
    pub fn frames_touching(&self, a: NodeId, b: NodeId) -> u64 {
        self.touching.get(&key(a, b)).map_or(0, |p| p.frames)
    }

    /// How many pairs touched at the last update.
    pub fn len(&self) -> usize {
        self.touching.len()
    }

    /// Whether no pair touched at the last update.
    pub fn is_empty(&self) -> bool {
        self.touching.is_empty()
    }

    /// Forgets every pair, without events: the next update reports every contact as
    /// `Began` (for a new level, say).
    pub fn clear(&mut self) {
        self.touching.clear();
        self.order.clear();
        self.events.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rect, Stage};

    fn contact(a: NodeId, b: NodeId) -> Contact {
        Contact {
            a,
            b,
            rect: Rect::from_ltrb(0.0, 0.0, 1.0, 1.0).unwrap(),
            overlap_pixels: Some(1),
            details: None,
        }
    }

    /// The tracker against a plain reference: the pair sets of two frames compared.
    #[test]
    fn events_match_the_difference_of_the_pair_sets() {
        let mut stage = Stage::new();
        let ids: Vec<NodeId> = (0..6)
            .map(|_| stage.add_container(stage.root()).unwrap())
            .collect();
        let mut seed = 3u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut tracker = ContactTracker::new();
        let mut before: Vec<(NodeId, NodeId)> = Vec::new();
        let mut runs: HashMap<(NodeId, NodeId), u64> = HashMap::new();
        for frame in 0..2000 {
            let mut now: Vec<Contact> = Vec::new();
            for _ in 0..next(8) {
                let (i, j) = (next(6) as usize, next(6) as usize);
                if i != j {
                    now.push(contact(ids[i], ids[j]));
                }
            }
            let events = tracker.update(&now).to_vec();
            let mut want = Vec::new();
            let mut seen = Vec::new();
            for (i, c) in now.iter().enumerate() {
                let k = key(c.a, c.b);
                if seen.contains(&k) {
                    continue;
                }
                seen.push(k);
                let was = before.contains(&k);
                let frames = if was { runs[&k] + 1 } else { 1 };
                let phase = if was {
                    ContactPhase::Continued
                } else {
                    ContactPhase::Began
                };
                want.push((phase, k, Some(i), frames));
            }
            for k in &before {
                if !seen.contains(k) {
                    want.push((ContactPhase::Ended, *k, None, runs[k]));
                }
            }
            let got: Vec<_> = events
                .iter()
                .map(|e| (e.phase, key(e.a, e.b), e.index, e.frames))
                .collect();
            assert_eq!(got, want, "frame {frame}");
            runs = want
                .iter()
                .filter(|w| w.0 != ContactPhase::Ended)
                .map(|w| (w.1, w.3))
                .collect();
            before = seen;
            assert_eq!(tracker.len(), before.len());
            for &(a, b) in &before {
                assert!(tracker.is_touching(b, a));
                assert_eq!(tracker.frames_touching(a, b), runs[&(a, b)]);
            }
        }
    }

    #[test]
    fn clearing_starts_every_contact_again() {
        let mut stage = Stage::new();
        let (a, b) = (
            stage.add_container(stage.root()).unwrap(),
            stage.add_container(stage.root()).unwrap(),
        );
        let mut tracker = ContactTracker::new();
        tracker.update(&[contact(a, b)]);
        assert_eq!(tracker.update(&[contact(b, a)])[0].phase, ContactPhase::Continued);
        tracker.clear();
        assert!(tracker.is_empty());
        assert_eq!(tracker.update(&[contact(a, b)])[0].phase, ContactPhase::Began);
        assert_eq!(tracker.update(&[])[0].phase, ContactPhase::Ended);
    }
}
