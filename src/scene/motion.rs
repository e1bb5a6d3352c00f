//! The motion queries of scene files (`scene-format.md`, "Motion"): `sweep`, `sweeps_with`
//! and `separation`, how they are written back and how their answers are printed. Reading
//! them is in `load/motion.rs`.

use glam::DVec2;

use super::Scene;
use super::text::{fmt_num, json_string, rect_json};
use crate::{CollisionOptions, MotionOptions, NodeId, Pose, Result, Sweep};

/// A pose of a motion query: the fields given; the others keep the object's current value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScenePose {
    /// x position, or the current one.
    pub x: Option<f64>,
    /// y position, or the current one.
    pub y: Option<f64>,
    /// Rotation in degrees, or the current one.
    pub rotation: Option<f64>,
    /// Horizontal scale, or the current one.
    pub scale_x: Option<f64>,
    /// Vertical scale, or the current one.
    pub scale_y: Option<f64>,
}

impl ScenePose {
    /// The fields as a scene file names them, with their values.
    pub(super) fn fields(&self) -> [(&'static str, Option<f64>); 5] {
        [
            ("x", self.x),
            ("y", self.y),
            ("rotation", self.rotation),
            ("scale_x", self.scale_x),
            ("scale_y", self.scale_y),
        ]
    }

    /// The pose, completed by `current`'s properties.
    pub fn complete(&self, current: Pose) -> Pose {
        Pose {
            x: self.x.unwrap_or(current.x),
            y: self.y.unwrap_or(current.y),
            rotation: self.rotation.unwrap_or(current.rotation),
            scale_x: self.scale_x.unwrap_or(current.scale_x),
            scale_y: self.scale_y.unwrap_or(current.scale_y),
        }
    }

    fn json(&self) -> String {
        let fields: Vec<String> = self
            .fields()
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("\"{k}\": {}", fmt_num(v))))
            .collect();
        format!("{{{}}}", fields.join(", "))
    }
}

/// What the three motion queries share: the collision test and the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionFields {
    /// Test pixels (default) or only the boxes (not for `separation`, which is always precise).
    pub precise: bool,
    /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
    pub tolerance: u8,
    /// Coverage-weighted edges (default) or pixel-centre sampling.
    pub anti_alias: bool,
    /// The most a point moves between tested poses, in pixels; default 0.5.
    pub max_step: f64,
}

impl Default for MotionFields {
    fn default() -> Self {
        MotionFields {
            precise: true,
            tolerance: 255,
            anti_alias: true,
            max_step: crate::DEFAULT_MAX_STEP,
        }
    }
}

impl MotionFields {
    fn options(&self) -> MotionOptions {
        let collision = CollisionOptions::default()
            .precise(self.precise)
            .tolerance(self.tolerance)
            .anti_alias(self.anti_alias);
        MotionOptions::from(collision).max_step(self.max_step)
    }

    fn json(&self) -> String {
        format!(
            "\"precise\": {}, \"tolerance\": {}, \"anti_alias\": {}, \"max_step\": {}",
            self.precise,
            self.tolerance,
            self.anti_alias,
            fmt_num(self.max_step)
        )
    }
}

/// A motion query of a scene file (semantics.md section 8).
#[derive(Clone, Debug, PartialEq)]
pub enum MotionQuery {
    /// The first contact of `a` and `b` during a step ([`crate::Stage::sweep`]).
    Sweep {
        /// First target.
        a: String,
        /// Second target.
        b: String,
        /// The common parent whose space the answer is in.
        parent: String,
        /// Where `a` starts, when it moves.
        a_from: Option<ScenePose>,
        /// Where `b` starts, when it moves.
        b_from: Option<ScenePose>,
        /// The collision test and the step.
        options: MotionFields,
    },
    /// Every object `mover` meets during a step ([`crate::Stage::sweeps_against`]).
    SweepsWith {
        /// The common parent whose space the answers are in.
        parent: String,
        /// The moving object.
        mover: String,
        /// Where it starts.
        from: ScenePose,
        /// The objects that stay put, by name; `None` for `"children"`: the parent's children.
        others: Option<Vec<String>>,
        /// The collision test and the step.
        options: MotionFields,
    },
    /// How far to push `a` out of `b` ([`crate::Stage::separation`]).
    Separation {
        /// The object pushed.
        a: String,
        /// The object it is pushed out of.
        b: String,
        /// The common parent whose space the distance is in.
        parent: String,
        /// The direction, or against the contact normal.
        direction: Option<[f64; 2]>,
        /// How far to search, or the diagonal of both bounds.
        max_distance: Option<f64>,
        /// The step and the tolerance (always precise, anti-aliased).
        options: MotionFields,
    },
}

impl MotionQuery {
    /// The query's kind as a scene file spells it.
    pub fn kind(&self) -> &'static str {
        match self {
            MotionQuery::Sweep { .. } => "sweep",
            MotionQuery::SweepsWith { .. } => "sweeps_with",
            MotionQuery::Separation { .. } => "separation",
        }
    }

    /// The query's fields as `save` writes them (inside the kind's braces).
    pub(super) fn body_json(&self) -> String {
        let s = |v: &str| json_string(v);
        match self {
            MotionQuery::Sweep {
                a,
                b,
                parent,
                a_from,
                b_from,
                options,
            } => {
                let mut out = format!("\"a\": {}, \"b\": {}, \"parent\": {}", s(a), s(b), s(parent));
                for (key, pose) in [("a_from", a_from), ("b_from", b_from)] {
                    if let Some(p) = pose {
                        out.push_str(&format!(", \"{key}\": {}", p.json()));
                    }
                }
                format!("{out}, {}", options.json())
            }
            MotionQuery::SweepsWith {
                parent,
                mover,
                from,
                others,
                options,
            } => {
                let others = match others {
                    None => s("children"),
                    Some(names) => format!("[{}]", names.iter().map(|n| s(n)).collect::<Vec<_>>().join(", ")),
                };
                format!(
                    "\"parent\": {}, \"mover\": {}, \"from\": {}, \"others\": {others}, {}",
                    s(parent),
                    s(mover),
                    from.json(),
                    options.json()
                )
            }
            MotionQuery::Separation {
                a,
                b,
                parent,
                direction,
                max_distance,
                options,
            } => {
                let mut out = format!("\"a\": {}, \"b\": {}, \"parent\": {}", s(a), s(b), s(parent));
                if let Some([dx, dy]) = direction {
                    out.push_str(&format!(", \"direction\": [{}, {}]", fmt_num(*dx), fmt_num(*dy)));
                }
                if let Some(m) = max_distance {
                    out.push_str(&format!(", \"max_distance\": {}", fmt_num(*m)));
                }
                format!(
                    "{out}, \"max_step\": {}, \"tolerance\": {}",
                    fmt_num(options.max_step),
                    options.tolerance
                )
            }
        }
    }
}

impl Scene {
    /// The output line of a motion query.
    pub(super) fn run_motion(&self, q: &MotionQuery) -> Result<String> {
        let kind = q.kind();
        let stage = &self.stage;
        let pose = |id: NodeId, p: &Option<ScenePose>| -> Result<Option<Pose>> {
            p.map(|p| Ok(p.complete(stage.pose(id)?))).transpose()
        };
        match q {
            MotionQuery::Sweep {
                a,
                b,
                parent,
                a_from,
                b_from,
                options,
            } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let (fa, fb) = (pose(a, a_from)?, pose(b, b_from)?);
                let hit = stage.sweep(a, b, parent, fa, fb, &options.options())?;
                Ok(format!(
                    "{{\"sweep\": {}}}",
                    hit.map_or_else(|| "null".into(), |h| sweep_json(&h))
                ))
            }
            MotionQuery::SweepsWith {
                parent,
                mover,
                from,
                others,
                options,
            } => {
                let parent = self.lookup(kind, "parent", parent)?;
                let mover = self.lookup(kind, "mover", mover)?;
                let others: Vec<NodeId> = match others {
                    None => stage.children(parent)?.to_vec(),
                    Some(names) => names
                        .iter()
                        .map(|n| self.lookup(kind, "others", n))
                        .collect::<Result<_>>()?,
                };
                let from = from.complete(stage.pose(mover)?);
                let hits = stage.sweeps_against(mover, from, &others, parent, &options.options())?;
                let items: Vec<String> = hits
                    .iter()
                    .map(|h| {
                        let name = match stage.name(h.other)? {
                            Some(n) => json_string(n),
                            None => "null".into(),
                        };
                        let body = sweep_json(&h.sweep);
                        Ok(format!("{{\"other\": {name}, {}", &body[1..]))
                    })
                    .collect::<Result<_>>()?;
                Ok(format!("{{\"sweeps_with\": [{}]}}", items.join(", ")))
            }
            MotionQuery::Separation {
                a,
                b,
                parent,
                direction,
                max_distance,
                options,
            } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let mut opts = options.options();
                opts.max_distance = *max_distance;
                let dir = direction.map(|[x, y]| DVec2::new(x, y));
                let d = stage.separation(a, b, parent, dir, &opts)?;
                Ok(format!(
                    "{{\"separation\": {}}}",
                    d.map_or_else(|| "null".into(), fmt_num)
                ))
            }
        }
    }
}

/// `{"t": T, "collision_rect": [...], "overlap_pixels": n}` (no count for boxes).
fn sweep_json(s: &Sweep) -> String {
    let count = s
        .overlap_pixels
        .map_or_else(String::new, |n| format!(", \"overlap_pixels\": {n}"));
    format!(
        "{{\"t\": {}, \"collision_rect\": {}{count}}}",
        fmt_num(s.t),
        rect_json(Some(s.rect))
    )
}
