//! The queries of a scene file, each checked and turned into a [`Query`].

use super::{Fields, Loader, get, join};
use crate::scene::Query;
use crate::scene::json::Json;
use crate::scene::text::{fmt_num, json_string};
use crate::{Method, Result};

const QUERY_KINDS: &str = "collision_rect, bounds, tight_bounds, hit_test_point, hit_test_object, collides, \
     contacts_among, pick, objects_under_point, rect, visible_bounds, local_to_global, global_to_local, scroll_rect, \
     sweep, sweeps_with, separation";

impl Loader<'_> {
    pub(super) fn query(&self, v: &Json, path: &str) -> Result<Query> {
        let fields = self.object(v, path)?;
        let [(kind, body)] = fields else {
            return Err(self.err(
                path,
                format!(
                    "a query is an object with exactly one key, its kind ({QUERY_KINDS}); found {} keys",
                    fields.len()
                ),
            ));
        };
        let path = join(path, kind);
        let path = path.as_str();
        let name = |f: &Fields, key: &str| -> Result<String> {
            Ok(self
                .string(self.required(f, path, key)?, &join(path, key))?
                .to_string())
        };
        let number = |f: &Fields, key: &str| -> Result<f64> {
            self.number(self.required(f, path, key)?, &join(path, key))
        };
        let flag = |f: &Fields, key: &str, default: bool| -> Result<bool> {
            get(f, key).map_or(Ok(default), |v| self.boolean(v, &join(path, key)))
        };
        // The motion queries are read in load/motion.rs.
        if let Some(q) = self.motion_query(kind, body, path)? {
            return Ok(Query::Motion(q));
        }
        let allowed: &[&str] = match kind.as_str() {
            "collision_rect" => &["a", "b", "parent", "precise", "tolerance", "anti_alias", "method"],
            "collides" => &["a", "b", "parent", "tolerance", "method"],
            "bounds" | "tight_bounds" => &["object", "space"],
            "hit_test_point" => &["object", "x", "y", "shape_flag"],
            "hit_test_object" => &["a", "b"],
            // `collisions` is the former name, still read (deprecated).
            "contacts_among" | "collisions" => &["parent", "objects", "tolerance", "anti_alias", "details"],
            "pick" => &["x", "y", "bitmap_hit"],
            "objects_under_point" => &["container", "x", "y"],
            "rect" | "visible_bounds" => &["object", "space"],
            "local_to_global" | "global_to_local" => &["object", "x", "y"],
            "scroll_rect" => &["object"],
            other => {
                return Err(self.err(
                    path,
                    format!(
                        "unknown query kind {} (the kinds are {QUERY_KINDS})",
                        json_string(other)
                    ),
                ));
            }
        };
        let f = self.object(body, path)?;
        self.check_keys(f, path, allowed, &format!("a {kind} query"))?;
        Ok(match kind.as_str() {
            "collision_rect" => {
                let a = name(f, "a")?;
                let b = name(f, "b")?;
                let parent = name(f, "parent")?;
                let precise = flag(f, "precise", true)?;
                let tolerance = match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                };
                let anti_alias = flag(f, "anti_alias", true)?;
                let method: Method = self.method(f, path)?;
                if !method.gives_rect() {
                    let at = join(path, "method");
                    let text = match get(f, "method") {
                        Some(Json::String(s)) => s.clone(),
                        _ => method.to_string(),
                    };
                    return Err(self.err(&at, crate::methods::no_rectangle(&text).to_string()));
                }
                Query::CollisionRect {
                    a,
                    b,
                    parent,
                    precise,
                    tolerance,
                    anti_alias,
                    method,
                }
            }
            "collides" => Query::Collides {
                a: name(f, "a")?,
                b: name(f, "b")?,
                parent: name(f, "parent")?,
                tolerance: match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                },
                method: self.method(f, path)?,
            },
            "bounds" => Query::Bounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "tight_bounds" => Query::TightBounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "hit_test_point" => Query::HitTestPoint {
                object: name(f, "object")?,
                x: self.number(self.required(f, path, "x")?, &join(path, "x"))?,
                y: self.number(self.required(f, path, "y")?, &join(path, "y"))?,
                shape_flag: flag(f, "shape_flag", false)?,
            },
            "contacts_among" | "collisions" => Query::ContactsAmong {
                parent: name(f, "parent")?,
                objects: self.object_list(f, path)?,
                tolerance: match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                },
                anti_alias: flag(f, "anti_alias", true)?,
                details: flag(f, "details", false)?,
            },
            "pick" => Query::Pick {
                x: number(f, "x")?,
                y: number(f, "y")?,
                bitmap_hit: match get(f, "bitmap_hit") {
                    None => crate::BitmapHit::default(),
                    Some(Json::String(s)) if s == "alpha" => crate::BitmapHit::default(),
                    Some(Json::String(s)) if s == "box" => crate::BitmapHit::Box,
                    Some(other) => {
                        return Err(self.expected(&join(path, "bitmap_hit"), "\"alpha\" or \"box\"", other));
                    }
                },
            },
            "objects_under_point" => Query::ObjectsUnderPoint {
                container: name(f, "container")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "rect" => Query::Rect {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "visible_bounds" => Query::VisibleBounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "local_to_global" => Query::LocalToGlobal {
                object: name(f, "object")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "global_to_local" => Query::GlobalToLocal {
                object: name(f, "object")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "scroll_rect" => Query::ScrollRect {
                object: name(f, "object")?,
            },
            _ => Query::HitTestObject {
                a: name(f, "a")?,
                b: name(f, "b")?,
            },
        })
    }

    /// The `objects` of a `contacts_among` query (or `collisions`): a list of names, or `"children"` (`None`).
    pub(super) fn object_list(&self, f: &Fields, path: &str) -> Result<Option<Vec<String>>> {
        let here = join(path, "objects");
        match self.required(f, path, "objects")? {
            Json::String(s) if s == "children" => Ok(None),
            Json::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| Ok(self.string(v, &format!("{here}[{i}]"))?.to_string()))
                .collect::<Result<Vec<_>>>()
                .map(Some),
            other => Err(self.expected(&here, "a list of names or \"children\"", other)),
        }
    }

    /// The optional `method` of a query (default exact). An unknown name is an error at
    /// `path.method`; `collision_rect` also refuses the methods that answer yes or no only.
    pub(super) fn method<M>(&self, f: &Fields, path: &str) -> Result<M>
    where
        M: Default + std::str::FromStr<Err = crate::ParseMethodError>,
    {
        let Some(v) = get(f, "method") else {
            return Ok(M::default());
        };
        let at = join(path, "method");
        self.string(v, &at)?
            .parse()
            .map_err(|e: crate::ParseMethodError| self.err(&at, e.to_string()))
    }

    pub(super) fn tolerance(&self, v: &Json, path: &str) -> Result<u8> {
        let t = self.number(v, path)?;
        if t == t.trunc() && (0.0..=255.0).contains(&t) {
            Ok(t as u8)
        } else {
            Err(self.err(
                path,
                format!("expected an integer in 0..255, found {}", fmt_num(t)),
            ))
        }
    }
}
