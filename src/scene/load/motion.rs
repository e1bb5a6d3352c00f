//! Reading the motion queries of a scene file (`scene-format.md`, "Motion").

use super::super::json::Json;
use super::super::motion::{MotionFields, MotionQuery, ScenePose};
use super::{Fields, Loader, get, join};
use crate::{MIN_MAX_STEP, Result};

impl Loader<'_> {
    /// The motion query of kind `kind` with fields `body`, or `None` for another kind.
    pub(super) fn motion_query(&self, kind: &str, body: &Json, path: &str) -> Result<Option<MotionQuery>> {
        let common = ["precise", "tolerance", "anti_alias", "max_step"];
        let (own, label): (&[&str], _) = match kind {
            "sweep" => (&["a", "b", "parent", "a_from", "b_from"], "a sweep query"),
            "sweeps_with" => (&["parent", "mover", "from", "others"], "a sweeps_with query"),
            "separation" => (
                &[
                    "a",
                    "b",
                    "parent",
                    "direction",
                    "max_distance",
                    "max_step",
                    "tolerance",
                ],
                "a separation query",
            ),
            _ => return Ok(None),
        };
        let mut allowed = own.to_vec();
        if kind != "separation" {
            allowed.extend(common);
        }
        let f = self.object(body, path)?;
        self.check_keys(f, path, &allowed, label)?;
        let name = |key: &str| -> Result<String> {
            Ok(self
                .string(self.required(f, path, key)?, &join(path, key))?
                .to_string())
        };
        let options = self.motion_fields(f, path)?;
        Ok(Some(match kind {
            "sweep" => {
                let a_from = get(f, "a_from")
                    .map(|v| self.pose(v, &join(path, "a_from")))
                    .transpose()?;
                let b_from = get(f, "b_from")
                    .map(|v| self.pose(v, &join(path, "b_from")))
                    .transpose()?;
                if a_from.is_none() && b_from.is_none() {
                    return Err(self.err(
                        path,
                        "a sweep needs a_from, b_from or both (a pose where a target starts)",
                    ));
                }
                MotionQuery::Sweep {
                    a: name("a")?,
                    b: name("b")?,
                    parent: name("parent")?,
                    a_from,
                    b_from,
                    options,
                }
            }
            "sweeps_with" => {
                let others_path = join(path, "others");
                let others = match self.required(f, path, "others")? {
                    Json::String(s) if s == "children" => None,
                    Json::Array(items) => Some(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, v)| Ok(self.string(v, &format!("{others_path}[{i}]"))?.to_string()))
                            .collect::<Result<Vec<_>>>()?,
                    ),
                    other => {
                        return Err(self.expected(&others_path, "a list of names or \"children\"", other));
                    }
                };
                MotionQuery::SweepsWith {
                    parent: name("parent")?,
                    mover: name("mover")?,
                    from: self.pose(self.required(f, path, "from")?, &join(path, "from"))?,
                    others,
                    options,
                }
            }
            _ => {
                let direction = match get(f, "direction") {
                    None => None,
                    Some(v) => Some(self.direction(v, &join(path, "direction"))?),
                };
                let max_distance = match get(f, "max_distance") {
                    None => None,
                    Some(v) => {
                        let at = join(path, "max_distance");
                        let d = self.number(v, &at)?;
                        if d < 0.0 {
                            return Err(self.err(&at, format!("expected a distance >= 0, found {d}")));
                        }
                        Some(d)
                    }
                };
                MotionQuery::Separation {
                    a: name("a")?,
                    b: name("b")?,
                    parent: name("parent")?,
                    direction,
                    max_distance,
                    options,
                }
            }
        }))
    }

    fn motion_fields(&self, f: &Fields, path: &str) -> Result<MotionFields> {
        let mut m = MotionFields::default();
        if let Some(v) = get(f, "precise") {
            m.precise = self.boolean(v, &join(path, "precise"))?;
        }
        if let Some(v) = get(f, "anti_alias") {
            m.anti_alias = self.boolean(v, &join(path, "anti_alias"))?;
        }
        if let Some(v) = get(f, "tolerance") {
            m.tolerance = self.tolerance(v, &join(path, "tolerance"))?;
        }
        if let Some(v) = get(f, "max_step") {
            let at = join(path, "max_step");
            m.max_step = self.number(v, &at)?;
            if m.max_step < MIN_MAX_STEP {
                return Err(self.err(
                    &at,
                    format!("expected at least 1/64 (0.015625) px, found {}", m.max_step),
                ));
            }
        }
        Ok(m)
    }

    /// A pose: an object with any of `x`, `y`, `rotation`, `scale_x`, `scale_y`.
    fn pose(&self, v: &Json, path: &str) -> Result<ScenePose> {
        let f = self.object(v, path)?;
        let keys = ["x", "y", "rotation", "scale_x", "scale_y"];
        self.check_keys(f, path, &keys, "a pose")?;
        let field = |key: &str| get(f, key).map(|v| self.number(v, &join(path, key))).transpose();
        Ok(ScenePose {
            x: field("x")?,
            y: field("y")?,
            rotation: field("rotation")?,
            scale_x: field("scale_x")?,
            scale_y: field("scale_y")?,
        })
    }

    /// `[dx, dy]`, not both zero.
    fn direction(&self, v: &Json, path: &str) -> Result<[f64; 2]> {
        let items = self.array(v, path)?;
        let [x, y] = items else {
            return Err(self.err(path, format!("expected [dx, dy], found {} numbers", items.len())));
        };
        let d = [
            self.number(x, &format!("{path}[0]"))?,
            self.number(y, &format!("{path}[1]"))?,
        ];
        if d == [0.0, 0.0] {
            return Err(self.err(path, "expected a direction, found [0, 0]"));
        }
        Ok(d)
    }
}
