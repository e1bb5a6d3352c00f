//! Which colour each part of the scene is drawn in: one per query target, the innermost target winning, grey outside every target.

use crate::Result;

use super::query::DebugQuery;
use crate::NodeId;
use crate::Stage;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

pub(super) const PALETTE: [[u8; 3]; 8] = [
    [78, 121, 167],
    [242, 142, 43],
    [118, 183, 178],
    [89, 161, 79],
    [237, 201, 72],
    [176, 122, 161],
    [156, 117, 95],
    [255, 157, 167],
];
/// What belongs to no target (with queries) or to no top-level object (the root's own
/// graphics): grey, so that the targets stand out.
pub(super) const NEUTRAL: [u8; 3] = [140, 140, 140];
pub(super) const OVERLAP: [u8; 3] = [255, 0, 255];
/// The highlighted node's box.
pub(super) const HIGHLIGHT: [u8; 3] = [255, 160, 0];
/// Masks are outlined in this colour (they are never drawn themselves).
pub(super) const MASK_COLOR: [u8; 3] = [120, 0, 200];
pub(super) const ANSWER: [u8; 3] = [230, 0, 0];
pub(super) const BOUNDS_A: [u8; 3] = [0, 80, 255];
pub(super) const BOUNDS_B: [u8; 3] = [0, 150, 40];
pub(super) const CHECKER: [[u8; 3]; 2] = [[250, 250, 250], [234, 234, 234]];

/// Which colour each node is drawn in. Every query target gets a colour of its own (in the
/// order the queries name them) for its whole subtree, the innermost target winning, so
/// that sprites under one container still differ; whatever is inside no target is grey.
/// Without queries each child of the root gets a colour, so that objects still differ.
pub(super) struct SceneColors {
    /// How many targets the queries name.
    pub(super) targets: usize,
    /// Each target's own colour, and the innermost target's colour of each other node
    /// looked up so far (`None`: inside no target), so that a deep tree's ancestors are
    /// climbed once, not once per leaf.
    pub(super) memo: HashMap<NodeId, Option<[u8; 3]>>,
}

impl SceneColors {
    pub(super) fn new(queries: &[DebugQuery]) -> SceneColors {
        let mut targets = 0;
        let mut memo = HashMap::new();
        for id in queries.iter().flat_map(|q| [q.a, q.b]) {
            if let Entry::Vacant(e) = memo.entry(id) {
                e.insert(Some(target_color(targets)));
                targets += 1;
            }
        }
        SceneColors { targets, memo }
    }

    /// The own colour of a node a query names (grey for one none names).
    pub(super) fn target(&self, id: NodeId) -> [u8; 3] {
        self.memo.get(&id).copied().flatten().unwrap_or(NEUTRAL)
    }

    /// The colour of what lies under the root's `index`th child and inside no target.
    pub(super) fn outside_targets(&self, index: usize) -> [u8; 3] {
        if self.targets == 0 {
            // By position among all children, so that hiding one keeps the others' colours.
            PALETTE[index % PALETTE.len()]
        } else {
            NEUTRAL
        }
    }

    /// The colour of the innermost target that holds `id` (itself included), if any.
    pub(super) fn of(&mut self, stage: &Stage, id: NodeId) -> Result<Option<[u8; 3]>> {
        if self.targets == 0 {
            return Ok(None);
        }
        let mut path = Vec::new();
        let mut cur = Some(id);
        let found = loop {
            let Some(c) = cur else { break None };
            if let Some(&known) = self.memo.get(&c) {
                break known;
            }
            path.push(c);
            cur = stage.parent(c)?;
        };
        for n in path {
            self.memo.insert(n, found);
        }
        Ok(found)
    }
}

/// The `k`th target's colour: the palette, then muted hues between orange and violet, so
/// that any number of targets differ and none looks like the red answers or the magenta
/// overlap.
pub(super) fn target_color(k: usize) -> [u8; 3] {
    if let Some(&c) = PALETTE.get(k) {
        return c;
    }
    // Steps of the golden ratio spread the hues evenly however many there are.
    let hue = 30.0 + ((k - PALETTE.len()) as f32 * 0.618_034).fract() * 240.0;
    let (v, c) = (0.8, 0.8 * 0.45);
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        _ => (x, 0.0, c),
    };
    [r, g, b].map(|ch| ((ch + v - c) * 255.0).round() as u8)
}
