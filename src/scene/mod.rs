//! Scene files (`scene-format.md`): a display tree and queries to run on it, as JSON.
//!
//! Loading is strict on purpose: a scene file is written by people and tools and read back
//! much later, so a typo must not be silently ignored. Every field not named by the format is
//! an error, duplicate keys are errors, and each error names the file and where in it (a
//! line and column for JSON syntax, a field path such as `root.children[1].matrix` for
//! anything else). The whole file is checked and the tree built before any query runs.
//!
//! Numbers are written in their shortest round-trip form and read back exactly (serde_json's
//! `float_roundtrip` feature: its default parser may be off by one unit in the last place).
//!
//! One file per step: [`load`] reads a file into a [`Scene`] (with [`json`], a parser
//! that keeps keys in order and nests on the heap), [`save`] writes one, [`run`] answers
//! its queries; [`text`] is how numbers, strings and rectangles are spelled in both
//! directions, and [`places`] names an object's place in the file for messages. [`atlas`]
//! reads the texture atlases (TexturePacker, Aseprite) that `frames` may name.

mod atlas;
mod json;
mod load;
mod motion;
mod places;
mod run;
mod save;
#[cfg(test)]
mod tests;
mod text;

use std::collections::HashMap;

use crate::{Method, NodeId, Stage};

pub use atlas::Atlas;
pub use load::SceneLimits;
pub use motion::{MotionFields, MotionQuery, ScenePose};

/// A display tree loaded from a scene file, with its named objects and its queries.
///
/// ```
/// let text = r#"{
///   "pixelhit_scene": 1,
///   "root": { "name": "stage", "children": [
///     { "name": "box", "x": 5, "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] } ] },
///   "queries": [ { "bounds": { "object": "box", "space": "stage" } } ]
/// }"#;
/// let scene = pixelhit::Scene::from_json(text, "doc.json", std::path::Path::new("."))?;
/// let q = &scene.queries()[0];
/// assert_eq!(scene.run_query(q)?, r#"{"bounds": [5, 0, 10, 10]}"#);
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Scene {
    /// The display tree. Changing it is allowed; queries look names up when they run, so a
    /// removed node gives a query error, not a wrong answer.
    pub stage: Stage,
    names: HashMap<String, NodeId>,
    queries: Vec<Query>,
    /// The file the scene came from, for messages of query errors.
    file: String,
    /// What the file's SVG objects could not show as their files do.
    warnings: Vec<String>,
}

/// One query of a scene file, with the defaults of `scene-format.md` already applied.
///
/// Objects are referred to by name; a name that is not in the scene is an error of that
/// query when it runs (the other queries still run), not an error of the file.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// Where `a` and `b` overlap in `parent`'s space ([`Stage::collision`]).
    CollisionRect {
        /// First target.
        a: String,
        /// Second target.
        b: String,
        /// The common parent whose space (and pixel grid) the answer is in.
        parent: String,
        /// Test pixels (default) or only intersect the bounds.
        precise: bool,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// Coverage-weighted edges (default) or pixel-centre sampling.
        anti_alias: bool,
        /// How the pixels are compared ([`Stage::collision_by`]); default exact. Only a
        /// method that gives a rectangle ([`Method::gives_rect`]): the loader refuses the
        /// others.
        method: Method,
    },
    /// Flash's `getBounds` of `object` in `space` ([`Stage::bounds`]).
    Bounds {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// The exact box of `object`'s geometry in `space` ([`Stage::tight_bounds`]).
    TightBounds {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// Whether the point `(x, y)` of the root's space hits `object` ([`Stage::hit_test_point`]).
    HitTestPoint {
        /// The object tested.
        object: String,
        /// x in the root's space.
        x: f64,
        /// y in the root's space.
        y: f64,
        /// Test the shape (true) or only the bounds (false, the default).
        shape_flag: bool,
    },
    /// Whether the tight boxes of `a` and `b` touch ([`Stage::hit_test_object`]).
    HitTestObject {
        /// First object.
        a: String,
        /// Second object.
        b: String,
    },
    /// Whether `a` and `b` collide, tested with `method` ([`Stage::collides`]).
    Collides {
        /// First target.
        a: String,
        /// Second target.
        b: String,
        /// The common parent whose pixel grid is compared in.
        parent: String,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// How the test is done; default exact.
        method: Method,
    },
    /// The object a click at `(x, y)` of the root's space goes to ([`Stage::pick`]).
    Pick {
        /// x in the root's space.
        x: f64,
        /// y in the root's space.
        y: f64,
        /// When a bitmap counts as hit (`"alpha"`, the default, or `"box"`).
        bitmap_hit: crate::BitmapHit,
    },
    /// The objects under `(x, y)` in `container`'s subtree ([`Stage::objects_under_point`]).
    ObjectsUnderPoint {
        /// Whose subtree is searched.
        container: String,
        /// x in the root's space.
        x: f64,
        /// y in the root's space.
        y: f64,
    },
    /// Flash's `getRect` ([`Stage::rect`]).
    Rect {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// The bounds cut by the masks and scroll windows over the object
    /// ([`Stage::visible_bounds`]).
    VisibleBounds {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// A point of `object`'s space in the root's ([`Stage::local_to_global`]).
    LocalToGlobal {
        /// Whose space the point is in.
        object: String,
        /// x in `object`'s space.
        x: f64,
        /// y in `object`'s space.
        y: f64,
    },
    /// A point of the root's space in `object`'s ([`Stage::global_to_local`]).
    GlobalToLocal {
        /// Whose space the answer is in.
        object: String,
        /// x in the root's space.
        x: f64,
        /// y in the root's space.
        y: f64,
    },
    /// The object's scroll window, rounded ([`Stage::scroll_rect`]).
    ScrollRect {
        /// The object asked about.
        object: String,
    },
    /// Every colliding pair among `objects` ([`Stage::contacts_among`]). Files may still
    /// call it `collisions`, its former name (deprecated; saving writes `contacts_among`).
    ContactsAmong {
        /// The common parent whose space (and pixel grid) the answers are in.
        parent: String,
        /// The objects, by name; `None` for `"children"`: the parent's children.
        objects: Option<Vec<String>>,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// Coverage-weighted edges (default) or pixel-centre sampling.
        anti_alias: bool,
        /// Also print each contact's centroid, normal and first pixel (default false).
        details: bool,
    },
    /// `sweep`, `sweeps_with` or `separation` (semantics.md section 8).
    Motion(MotionQuery),
}

impl Query {
    /// The query's kind as a scene file spells it, e.g. `collision_rect`.
    pub fn kind(&self) -> &'static str {
        match self {
            Query::CollisionRect { .. } => "collision_rect",
            Query::Bounds { .. } => "bounds",
            Query::TightBounds { .. } => "tight_bounds",
            Query::HitTestPoint { .. } => "hit_test_point",
            Query::HitTestObject { .. } => "hit_test_object",
            Query::Collides { .. } => "collides",
            Query::ContactsAmong { .. } => "contacts_among",
            Query::Pick { .. } => "pick",
            Query::ObjectsUnderPoint { .. } => "objects_under_point",
            Query::Rect { .. } => "rect",
            Query::VisibleBounds { .. } => "visible_bounds",
            Query::LocalToGlobal { .. } => "local_to_global",
            Query::GlobalToLocal { .. } => "global_to_local",
            Query::ScrollRect { .. } => "scroll_rect",
            Query::Motion(m) => m.kind(),
        }
    }
}

/// The fields of a colour transform, in the order of [`crate::ColorTransform::to_array`].
const CT_FIELDS: [&str; 8] = [
    "red_multiplier",
    "green_multiplier",
    "blue_multiplier",
    "alpha_multiplier",
    "red_offset",
    "green_offset",
    "blue_offset",
    "alpha_offset",
];

impl Scene {
    /// A scene of an existing stage. Names are those of the stage's named nodes; when a name
    /// is used twice the first node in paint order gets it (as [`Stage::find`]).
    pub fn from_stage(stage: Stage, queries: Vec<Query>) -> Scene {
        let mut names = HashMap::new();
        stage.walk(stage.root(), |id, node| {
            if let Some(n) = &node.name {
                names.entry(n.clone()).or_insert(id);
            }
        });
        Scene {
            stage,
            names,
            queries,
            file: "scene".into(),
            warnings: Vec::new(),
        }
    }

    /// The node with this name in the file (or, for [`Scene::from_stage`], in the stage).
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.names.get(name).copied()
    }

    /// The queries, in file order.
    pub fn queries(&self) -> &[Query] {
        &self.queries
    }

    /// What the file's `svg` objects do not show as their SVG files do (`pixelhit::svg`),
    /// one message per element, each naming the scene file, the object's field and the
    /// element, e.g. `level.json: root.children[2].svg: path #wing: dashed stroke is drawn
    /// solid`. Empty for scenes without `svg` objects.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}
