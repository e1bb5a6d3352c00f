//! Running a scene's queries: each answer as the output line of `scene-format.md`.

use std::cell::{Cell, OnceCell};
use std::collections::HashMap;
use std::fmt::Write as _;

use super::text::{fmt_num, json_string, rect_json};
use super::{Query, Scene};
use crate::{CollisionOptions, Error, NodeId, Result};

impl Scene {
    /// Runs one query and gives the output line of `scene-format.md` for it, exactly as
    /// `pixelhit run` prints it (without the newline).
    ///
    /// # Errors
    ///
    /// A query that cannot be answered: [`Error::Scene`] for a name that is not in the
    /// scene, otherwise the error of the stage's query (e.g. [`Error::NotDescendant`] when
    /// `parent` is not above a target). [`Scene::error_line`] turns it into the output line.
    pub fn run_query(&self, q: &Query) -> Result<String> {
        Run::new(self).query(q)
    }

    /// Runs every query in file order and gives their output lines (or errors) one by one,
    /// as [`Scene::run_query`] would, but with what the queries share worked out once for
    /// the run instead of once per query: a `contacts_among` query that lists its objects
    /// sorts them into paint order, and the whole tree is walked for that order on the
    /// first such query only. A run of many queries over a large tree takes time in
    /// proportion to the tree plus what each query asks, not to their product.
    ///
    /// The iterator borrows the scene, so the tree cannot change during the run.
    ///
    /// ```
    /// let text = r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [{"name": "a"}]},
    ///   "queries": [{"bounds": {"object": "a", "space": "r"}}, {"bounds": {"object": "b", "space": "r"}}]}"#;
    /// let scene = pixelhit::Scene::from_json(text, "doc.json", std::path::Path::new("."))?;
    /// let lines: Vec<String> = scene
    ///     .answers()
    ///     .map(|a| a.unwrap_or_else(|e| pixelhit::Scene::error_line(&e)))
    ///     .collect();
    /// assert_eq!(lines, [r#"{"bounds": null}"#, r#"{"error": "bounds.object: no object named \"b\""}"#]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Each item is the answer of one query or its error, as for [`Scene::run_query`].
    pub fn answers(&self) -> impl Iterator<Item = Result<String>> + '_ {
        let run = Run::new(self);
        self.queries.iter().map(move |q| run.query(q))
    }

    /// The output line for a query that could not be answered: `{"error": "…"}`. The file
    /// name is left out of the message (the command line already names the file).
    pub fn error_line(err: &Error) -> String {
        let msg = match err {
            Error::Scene { location, reason, .. } => format!("{location}: {reason}"),
            other => other.to_string(),
        };
        format!("{{\"error\": {}}}", json_string(&msg))
    }

    pub(super) fn lookup(&self, kind: &str, field: &str, name: &str) -> Result<NodeId> {
        self.node(name).ok_or_else(|| Error::Scene {
            file: self.file.clone(),
            location: format!("{kind}.{field}"),
            reason: format!("no object named {}", json_string(name)),
        })
    }
}

/// One run of queries over a scene, which it borrows so that the tree stays as it was:
/// what several queries need is worked out when the first one needs it and kept.
pub(super) struct Run<'s> {
    scene: &'s Scene,
    /// Each node's index in paint order (a walk of the whole tree, made once).
    order: OnceCell<HashMap<NodeId, usize>>,
    /// Nodes this run has walked or sorted so far, so that tests can check that the work
    /// of many queries adds up, instead of multiplying with the tree.
    work: Cell<u64>,
}

impl<'s> Run<'s> {
    pub(super) fn new(scene: &'s Scene) -> Run<'s> {
        Run {
            scene,
            order: OnceCell::new(),
            work: Cell::new(0),
        }
    }

    /// The nodes walked or sorted so far.
    #[cfg(test)]
    pub(super) fn work(&self) -> u64 {
        self.work.get()
    }

    fn count(&self, nodes: usize) {
        self.work.set(self.work.get() + nodes as u64);
    }

    /// Each node's index in paint order, made on the first call.
    fn paint_order(&self) -> &HashMap<NodeId, usize> {
        self.order.get_or_init(|| {
            let stage = &self.scene.stage;
            let mut order = HashMap::with_capacity(stage.len());
            stage.walk(stage.root(), |id, _| {
                let next = order.len();
                order.insert(id, next);
            });
            self.count(order.len());
            order
        })
    }

    /// Runs one query (see [`Scene::run_query`]).
    fn query(&self, q: &Query) -> Result<String> {
        let (scene, stage) = (self.scene, &self.scene.stage);
        let kind = q.kind();
        match q {
            Query::CollisionRect {
                a,
                b,
                parent,
                precise,
                tolerance,
                anti_alias,
                method,
            } => {
                let a = scene.lookup(kind, "a", a)?;
                let b = scene.lookup(kind, "b", b)?;
                let parent = scene.lookup(kind, "parent", parent)?;
                let opts = CollisionOptions::default()
                    .precise(*precise)
                    .tolerance(*tolerance)
                    .anti_alias(*anti_alias);
                let c = stage.collision_by(a, b, parent, &opts, *method)?;
                let mut line = format!("{{\"collision_rect\": {}", rect_json(c.rect));
                if let Some(n) = c.overlap_pixels {
                    let _ = write!(line, ", \"overlap_pixels\": {n}");
                }
                line.push('}');
                Ok(line)
            }
            Query::Bounds { object, space } => {
                let o = scene.lookup(kind, "object", object)?;
                let s = scene.lookup(kind, "space", space)?;
                let r = stage.bounds(o, s)?;
                Ok(format!("{{\"bounds\": {}}}", rect_json(r)))
            }
            Query::TightBounds { object, space } => {
                let o = scene.lookup(kind, "object", object)?;
                let s = scene.lookup(kind, "space", space)?;
                let r = stage.tight_bounds(o, s)?;
                Ok(format!("{{\"tight_bounds\": {}}}", rect_json(r)))
            }
            Query::HitTestPoint {
                object,
                x,
                y,
                shape_flag,
            } => {
                let o = scene.lookup(kind, "object", object)?;
                let hit = stage.hit_test_point(o, *x, *y, *shape_flag)?;
                Ok(format!("{{\"hit_test_point\": {hit}}}"))
            }
            Query::HitTestObject { a, b } => {
                let a = scene.lookup(kind, "a", a)?;
                let b = scene.lookup(kind, "b", b)?;
                let hit = stage.hit_test_object(a, b)?;
                Ok(format!("{{\"hit_test_object\": {hit}}}"))
            }
            Query::Collides {
                a,
                b,
                parent,
                tolerance,
                method,
            } => {
                let a = scene.lookup(kind, "a", a)?;
                let b = scene.lookup(kind, "b", b)?;
                let parent = scene.lookup(kind, "parent", parent)?;
                let hit = stage.collides(a, b, parent, *tolerance, *method)?;
                Ok(format!("{{\"collides\": {hit}}}"))
            }
            Query::ContactsAmong {
                parent,
                objects,
                tolerance,
                anti_alias,
                details,
            } => self.contacts_among(parent, objects.as_deref(), *tolerance, *anti_alias, *details),
            Query::Pick { x, y, bitmap_hit } => {
                let opts = crate::PickOptions::default().bitmap_hit(*bitmap_hit);
                let picked = stage.pick(*x, *y, &opts)?;
                Ok(format!("{{\"pick\": {}}}", self.name_json(picked)))
            }
            Query::ObjectsUnderPoint { container, x, y } => {
                let c = scene.lookup(kind, "container", container)?;
                let found = stage.objects_under_point(c, *x, *y)?;
                let names: Vec<String> = found.into_iter().map(|id| self.name_json(Some(id))).collect();
                Ok(format!("{{\"objects_under_point\": [{}]}}", names.join(", ")))
            }
            Query::Rect { object, space } | Query::VisibleBounds { object, space } => {
                let o = scene.lookup(kind, "object", object)?;
                let s = scene.lookup(kind, "space", space)?;
                let r = match q {
                    Query::Rect { .. } => stage.rect(o, s)?,
                    _ => stage.visible_bounds(o, s)?,
                };
                Ok(format!("{{\"{kind}\": {}}}", rect_json(r)))
            }
            Query::LocalToGlobal { object, x, y } | Query::GlobalToLocal { object, x, y } => {
                let o = scene.lookup(kind, "object", object)?;
                let p = glam::DVec2::new(*x, *y);
                let q = match q {
                    Query::LocalToGlobal { .. } => stage.local_to_global(o, p)?,
                    _ => stage.global_to_local(o, p)?,
                };
                Ok(format!("{{\"{kind}\": [{}, {}]}}", fmt_num(q.x), fmt_num(q.y)))
            }
            Query::ScrollRect { object } => {
                let o = scene.lookup(kind, "object", object)?;
                let r = stage.scroll_rect(o)?;
                Ok(format!("{{\"scroll_rect\": {}}}", rect_json(r)))
            }
            Query::Motion(m) => scene.run_motion(m),
        }
    }

    /// A node's name as printed in answers: a JSON string, or `null` for no node or a node
    /// without a name.
    fn name_json(&self, id: Option<NodeId>) -> String {
        match id.and_then(|id| self.scene.stage.name(id).ok().flatten()) {
            Some(n) => json_string(n),
            None => "null".into(),
        }
    }

    /// The `contacts_among` query: pairs in tree order, `a` before `b`.
    fn contacts_among(
        &self,
        parent: &str,
        objects: Option<&[String]>,
        tolerance: u8,
        anti_alias: bool,
        details: bool,
    ) -> Result<String> {
        let (scene, stage) = (self.scene, &self.scene.stage);
        let parent = scene.lookup("contacts_among", "parent", parent)?;
        let ids = match objects {
            // A parent's children are in paint order already.
            None => stage.children(parent)?.to_vec(),
            Some(names) => {
                let mut ids = names
                    .iter()
                    .map(|n| scene.lookup("contacts_among", "objects", n))
                    .collect::<Result<Vec<_>>>()?;
                let order = self.paint_order();
                // A node that is no longer in the tree sorts first; the stage refuses it.
                ids.sort_by_key(|id| order.get(id).copied());
                ids
            }
        };
        self.count(ids.len());
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(anti_alias)
            .details(details);
        let contacts = stage.contacts_among(&ids, parent, &opts)?;
        let label = |id: NodeId| match stage.name(id) {
            Ok(Some(n)) => json_string(n),
            _ => json_string(&stage.describe(id)),
        };
        let mut line = String::from("{\"contacts_among\": [");
        for (i, c) in contacts.iter().enumerate() {
            if i > 0 {
                line.push_str(", ");
            }
            let _ = write!(
                line,
                "{{\"a\": {}, \"b\": {}, \"rect\": {}, \"overlap_pixels\": {}",
                label(c.a),
                label(c.b),
                rect_json(Some(c.rect)),
                c.overlap_pixels.unwrap_or(0)
            );
            if let Some(d) = &c.details {
                let _ = write!(
                    line,
                    ", \"centroid\": [{}, {}], \"normal\": [{}, {}], \"first\": [{}, {}]",
                    fmt_num(d.centroid.x),
                    fmt_num(d.centroid.y),
                    fmt_num(d.normal.x),
                    fmt_num(d.normal.y),
                    d.first.0,
                    d.first.1
                );
            }
            line.push('}');
        }
        line.push_str("]}");
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FillRule, Graphic, Path, Stage};

    /// `n` 10 x 10 squares named `o0`, `o1`, ... in a row, each overlapping the next by 5
    /// pixels, as children of the root `root`; and one `contacts_among` query per square
    /// naming it and the next one, the later square first.
    fn row(n: usize) -> Scene {
        let mut s = Stage::new();
        let root = s.root();
        s.set_name(root, "root").unwrap();
        for i in 0..n {
            let id = s.add_container(root).unwrap();
            s.set_name(id, format!("o{i}")).unwrap();
            s.set_x(id, 5.0 * i as f64).unwrap();
            let square = Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap();
            s.add_graphic(id, square).unwrap();
        }
        let queries = (0..n.saturating_sub(1))
            .map(|i| Query::ContactsAmong {
                parent: "root".into(),
                objects: Some(vec![format!("o{}", i + 1), format!("o{i}")]),
                tolerance: 255,
                anti_alias: true,
                details: false,
            })
            .collect();
        Scene::from_stage(s, queries)
    }

    /// Runs every query of `scene` in one run: the lines and the nodes walked or sorted.
    fn run_all(scene: &Scene) -> (Vec<String>, u64) {
        let run = Run::new(scene);
        let lines = scene.queries().iter().map(|q| run.query(q).unwrap()).collect();
        (lines, run.work())
    }

    #[test]
    fn thirty_thousand_contacts_among_queries_walk_the_tree_once() {
        let n = 30_000;
        let scene = row(n);
        let (lines, work) = run_all(&scene);
        assert_eq!(lines.len(), n - 1);
        // Each pair overlaps in a 5 x 10 strip; the earlier square is `a` whatever the
        // order of the names in the query.
        for (i, line) in lines.iter().enumerate() {
            let x = 5 * (i + 1);
            let want = format!(
                "{{\"contacts_among\": [{{\"a\": \"o{i}\", \"b\": \"o{}\", \"rect\": [{x}, 0, 5, 10], \"overlap_pixels\": 50}}]}}",
                i + 1
            );
            assert_eq!(*line, want);
        }
        // One walk of the tree (the squares and the root), then two names per query. A
        // walk per query would be 30,000 times as much.
        let tree = n as u64 + 1;
        assert_eq!(work, tree + 2 * (n as u64 - 1));

        // Twice the tree and twice the queries: twice the work, not four times.
        let (_, half) = run_all(&row(n / 2));
        assert!(work <= 2 * half + 2, "{half} then {work}");
    }

    #[test]
    fn a_run_answers_as_single_queries_do() {
        let scene = row(6);
        let (lines, _) = run_all(&scene);
        let single: Vec<String> = scene
            .queries()
            .iter()
            .map(|q| scene.run_query(q).unwrap())
            .collect();
        assert_eq!(lines, single);
        let answers: Vec<String> = scene.answers().map(|a| a.unwrap()).collect();
        assert_eq!(lines, answers);
    }

    #[test]
    fn children_queries_need_no_walk_of_the_tree() {
        let mut scene = row(50);
        // A deep branch that a query about the root's children has no reason to visit.
        let mut cur = scene.node("o0").unwrap();
        for _ in 0..1000 {
            cur = scene.stage.add_container(cur).unwrap();
        }
        let q = Query::ContactsAmong {
            parent: "root".into(),
            objects: None,
            tolerance: 255,
            anti_alias: true,
            details: false,
        };
        let run = Run::new(&scene);
        let line = run.query(&q).unwrap();
        assert_eq!(line.matches("\"a\"").count(), 49, "{line}");
        assert_eq!(run.work(), 50);
    }
}
