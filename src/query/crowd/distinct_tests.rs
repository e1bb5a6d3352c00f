//! The objects of a many-object query as listed: repeats counted once in their first
//! order, hidden ones left out when asked, and ids that are not inside the parent (or no
//! longer exist) refused, naming the first such one.

use crate::{CollisionOptions, Error, FillRule, Graphic, NodeId, Path, Stage};

fn disc(stage: &mut Stage, parent: NodeId, x: f64) -> NodeId {
    let n = stage.add_container(parent).unwrap();
    let g = Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(n, g).unwrap();
    stage.set_x(n, x).unwrap();
    n
}

#[test]
fn repeats_hidden_and_outside_objects_are_taken_as_listed() {
    let mut stage = Stage::new();
    let root = stage.root();
    let world = stage.add_container(root).unwrap();
    // A row of discs, each touching the next; many more nodes before them, so that ids
    // have indices past the first word of a bit set.
    for _ in 0..150 {
        stage.add_container(root).unwrap();
    }
    let discs: Vec<NodeId> = (0..5)
        .map(|k| disc(&mut stage, world, f64::from(k) * 15.0))
        .collect();
    let [a, b, c, d, e] = discs[..] else {
        unreachable!()
    };
    stage.set_visible(d, false).unwrap();
    let opts = CollisionOptions::default().parallel(false);
    let pairs = |stage: &Stage, objects: &[NodeId], opts: &CollisionOptions| {
        let found = stage.contacts_among(objects, world, opts).unwrap();
        found.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>()
    };
    // Repeats count once, in the order of their first place.
    assert_eq!(pairs(&stage, &[c, b, c, a, b, c], &opts), [(c, b), (b, a)]);
    // Hidden ones are left out with `skip_hidden`, and kept without it.
    let listed = [e, d, c, d, e];
    assert_eq!(pairs(&stage, &listed, &opts.skip_hidden(true)), []);
    assert_eq!(pairs(&stage, &listed, &opts), [(e, d), (d, c)]);
    // The first object not inside the parent is named, wherever it is listed.
    let outside = disc(&mut stage, root, 0.0);
    match stage.contacts_among(&[a, b, a, outside, c], world, &opts) {
        Err(Error::NotDescendant { node, .. }) => assert_eq!(node, stage.describe(outside)),
        other => panic!("{other:?}"),
    }
    // An id removed from the tree is refused, even after a repeat of a live one.
    let gone = disc(&mut stage, world, 200.0);
    stage.remove(gone).unwrap();
    assert!(matches!(
        stage.contacts_among(&[a, a, gone, b], world, &opts),
        Err(Error::StaleNode { .. })
    ));
}
