//! Running a scene's queries: each answer as the output line of `scene-format.md`.

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
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let opts = CollisionOptions::default()
                    .precise(*precise)
                    .tolerance(*tolerance)
                    .anti_alias(*anti_alias);
                let c = self.stage.collision_with(a, b, parent, &opts, *method)?;
                let mut line = format!("{{\"collision_rect\": {}", rect_json(c.rect));
                if let Some(n) = c.overlap_pixels {
                    let _ = write!(line, ", \"overlap_pixels\": {n}");
                }
                line.push('}');
                Ok(line)
            }
            Query::Bounds { object, space } => {
                let o = self.lookup(kind, "object", object)?;
                let s = self.lookup(kind, "space", space)?;
                let r = self.stage.bounds(o, s)?;
                Ok(format!("{{\"bounds\": {}}}", rect_json(r)))
            }
            Query::TightBounds { object, space } => {
                let o = self.lookup(kind, "object", object)?;
                let s = self.lookup(kind, "space", space)?;
                let r = self.stage.tight_bounds(o, s)?;
                Ok(format!("{{\"tight_bounds\": {}}}", rect_json(r)))
            }
            Query::HitTestPoint {
                object,
                x,
                y,
                shape_flag,
            } => {
                let o = self.lookup(kind, "object", object)?;
                let hit = self.stage.hit_test_point(o, *x, *y, *shape_flag)?;
                Ok(format!("{{\"hit_test_point\": {hit}}}"))
            }
            Query::HitTestObject { a, b } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let hit = self.stage.hit_test_object(a, b)?;
                Ok(format!("{{\"hit_test_object\": {hit}}}"))
            }
            Query::Collides {
                a,
                b,
                parent,
                tolerance,
                method,
            } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let hit = self.stage.collides(a, b, parent, *tolerance, *method)?;
                Ok(format!("{{\"collides\": {hit}}}"))
            }
            Query::Collisions {
                parent,
                objects,
                tolerance,
                anti_alias,
                details,
            } => self.run_collisions(parent, objects.as_deref(), *tolerance, *anti_alias, *details),
        }
    }

    /// The `collisions` query: pairs in tree order, `a` before `b`.
    fn run_collisions(
        &self,
        parent: &str,
        objects: Option<&[String]>,
        tolerance: u8,
        anti_alias: bool,
        details: bool,
    ) -> Result<String> {
        let parent = self.lookup("collisions", "parent", parent)?;
        let mut ids = match objects {
            None => self.stage.children(parent)?.to_vec(),
            Some(names) => names
                .iter()
                .map(|n| self.lookup("collisions", "objects", n))
                .collect::<Result<Vec<_>>>()?,
        };
        let mut order = HashMap::new();
        self.stage.walk(self.stage.root(), |id, _| {
            let next = order.len();
            order.insert(id, next);
        });
        ids.sort_by_key(|id| order.get(id).copied());
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(anti_alias);
        let contacts = self.stage.collisions(parent, &ids, &opts, details)?;
        let label = |id: NodeId| match self.stage.name(id) {
            Ok(Some(n)) => json_string(n),
            _ => json_string(&self.stage.describe(id)),
        };
        let mut line = String::from("{\"collisions\": [");
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

    /// The output line for a query that could not be answered: `{"error": "…"}`. The file
    /// name is left out of the message (the command line already names the file).
    pub fn error_line(err: &Error) -> String {
        let msg = match err {
            Error::Scene { location, reason, .. } => format!("{location}: {reason}"),
            other => other.to_string(),
        };
        format!("{{\"error\": {}}}", json_string(&msg))
    }

    fn lookup(&self, kind: &str, field: &str, name: &str) -> Result<NodeId> {
        self.node(name).ok_or_else(|| Error::Scene {
            file: self.file.clone(),
            location: format!("{kind}.{field}"),
            reason: format!("no object named {}", json_string(name)),
        })
    }
}
