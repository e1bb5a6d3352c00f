//! Flash's rules (semantics.md 7, rules 2 to 6) over the nodes hit themselves and their
//! ancestors: who takes the click.

use std::collections::{HashMap, HashSet};

use super::index::PickIndex;
use crate::tree::node::NodeId;
use crate::{Result, Stage};

/// What a subtree answers when asked who takes a click (Flash's rules 4 and 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Miss,
    /// Something inside was hit, but no mouse-enabled node there takes it.
    PassUp,
    Hit(NodeId),
}

/// Flash's picking rules over the nodes a point hits (crate-internal).
impl Stage {
    /// Flash's rules over the nodes hit themselves and their ancestors only: each container
    /// tries its hit children from the top down, a real hit wins at once, and a hit that
    /// passes up makes the container hit itself.
    ///
    /// Each ancestor is visited once however many hit nodes share it, so the cost is the
    /// size of the union of their paths.
    pub(super) fn decide(&self, index: &PickIndex, hit_self: &[NodeId]) -> Result<Option<NodeId>> {
        let root = self.root();
        if hit_self.is_empty() {
            return Ok(None);
        }
        let selves: HashSet<NodeId> = hit_self.iter().copied().collect();
        let mut reached: HashSet<NodeId> = HashSet::new();
        let mut children: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for &n in hit_self {
            let mut cur = n;
            while cur != root && reached.insert(cur) {
                let Some(parent) = self.node(cur)?.parent else {
                    break;
                };
                children.entry(parent).or_default().push(cur);
                cur = parent;
            }
        }
        for list in children.values_mut() {
            // Top first: the last painted is tried first.
            list.sort_by_key(|&c| std::cmp::Reverse(index.rank(c)));
        }
        // Depth-first, without recursion (trees may be 100,000 levels deep).
        struct Frame {
            node: NodeId,
            next: usize,
            passed_up: bool,
        }
        let mut stack = vec![Frame {
            node: root,
            next: 0,
            passed_up: false,
        }];
        let mut answer = Answer::Miss;
        while let Some(top) = stack.last_mut() {
            // What the child just finished answered.
            match std::mem::replace(&mut answer, Answer::Miss) {
                Answer::Hit(x) => {
                    answer = Answer::Hit(x);
                    stack.pop();
                    continue;
                }
                Answer::PassUp => top.passed_up = true,
                Answer::Miss => {}
            }
            let kids = children.get(&top.node).map_or(&[][..], |v| v.as_slice());
            if let Some(&child) = kids.get(top.next) {
                top.next += 1;
                stack.push(Frame {
                    node: child,
                    next: 0,
                    passed_up: false,
                });
                continue;
            }
            let frame = stack.pop().expect("the loop holds a frame");
            let node = self.node(frame.node)?;
            answer = if selves.contains(&frame.node) || frame.passed_up {
                match node.mouse_enabled && frame.node != root {
                    true => Answer::Hit(frame.node),
                    false => Answer::PassUp,
                }
            } else {
                Answer::Miss
            };
        }
        Ok(match answer {
            Answer::Hit(x) if x != root => Some(x),
            _ => None,
        })
    }
}
