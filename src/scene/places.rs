//! Places of objects in a scene file, spelled out as field paths only for messages.

use std::fmt::Write as _;

/// Where the objects of a scene file are: for each, its parent's place and its index in
/// the parent's `children` (`None` for the root). An object's path is only spelled out for
/// a message, because spelling out every path of a file 100,000 levels deep would take
/// time and memory quadratic in the depth.
#[derive(Default)]
pub(super) struct Places(Vec<Option<(usize, usize)>>);

impl Places {
    /// Adds the root (`None`) or child `index` of the object at `parent`; gives its place.
    pub(super) fn add(&mut self, parent: Option<(usize, usize)>) -> usize {
        self.0.push(parent);
        self.0.len() - 1
    }

    /// The path of the object at `place`, e.g. `root.children[1].children[0]`, followed by
    /// `.field` when `field` is not empty.
    pub(super) fn path(&self, place: usize, field: &str) -> String {
        let mut indices = Vec::new();
        let mut cur = place;
        while let Some(Some((parent, index))) = self.0.get(cur) {
            indices.push(*index);
            cur = *parent;
        }
        let mut s = String::from("root");
        for i in indices.iter().rev() {
            let _ = write!(s, ".children[{i}]");
        }
        if !field.is_empty() {
            s.push('.');
            s.push_str(field);
        }
        s
    }
}
