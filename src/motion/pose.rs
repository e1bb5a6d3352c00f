//! A pose (the five transform properties a motion interpolates) and the motion of one target
//! over a step: its matrix to the query's parent at any time, and how fast its bounds move.

use glam::{DAffine2, DVec2};

use crate::geom::transform::{self, Props, matrix_from_properties};
use crate::{Error, NodeId, Rect, Result, Stage};

/// Where a node is at one end of a motion: the transform properties that semantics.md
/// section 8 interpolates (position, rotation in degrees clockwise, scales).
///
/// Keep last frame's pose with [`Stage::pose`] and hand it to [`Stage::sweep`] as `from`;
/// the node's current properties are the motion's end.
///
/// ```
/// use pixelhit::{Pose, Stage};
/// let mut stage = Stage::new();
/// let ship = stage.add_container(stage.root())?;
/// stage.set_transform(ship, 10.0, 20.0, 350.0, 1.0, 1.0)?;
/// let last_frame = stage.pose(ship)?;
/// stage.set_rotation(ship, 370.0)?; // turns 20 degrees clockwise in this step
/// let halfway = last_frame.lerp(&stage.pose(ship)?, 0.5);
/// assert_eq!(halfway.rotation, 360.0);
/// assert_eq!(last_frame, Pose::new(10.0, 20.0, 350.0, 1.0, 1.0));
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// x position in the parent.
    pub x: f64,
    /// y position in the parent.
    pub y: f64,
    /// Rotation in degrees, clockwise on screen, as given (not reduced to a turn).
    pub rotation: f64,
    /// Horizontal scale (negative mirrors).
    pub scale_x: f64,
    /// Vertical scale (negative mirrors).
    pub scale_y: f64,
}

impl Pose {
    /// A pose from its five properties.
    pub fn new(x: f64, y: f64, rotation: f64, scale_x: f64, scale_y: f64) -> Pose {
        Pose {
            x,
            y,
            rotation,
            scale_x,
            scale_y,
        }
    }

    /// A pose at `(x, y)`, unturned and unscaled.
    pub fn at(x: f64, y: f64) -> Pose {
        Pose::new(x, y, 0.0, 1.0, 1.0)
    }

    /// The pose at time `t` of the motion from `self` to `to`: each property is
    /// `(1 - t) x from + t x to`, which is `from + t x (to - from)` and gives both ends
    /// exactly. Rotation is interpolated as given: 350 to 370 turns 20 degrees clockwise,
    /// 350 to 10 turns 340 degrees back.
    pub fn lerp(&self, to: &Pose, t: f64) -> Pose {
        let mix = |a: f64, b: f64| (1.0 - t) * a + t * b;
        Pose {
            x: mix(self.x, to.x),
            y: mix(self.y, to.y),
            rotation: mix(self.rotation, to.rotation),
            scale_x: mix(self.scale_x, to.scale_x),
            scale_y: mix(self.scale_y, to.scale_y),
        }
    }

    /// The matrix of the pose (semantics.md section 1: scale, then rotate, then translate).
    pub fn matrix(&self) -> DAffine2 {
        matrix_from_properties(self.x, self.y, self.rotation, self.scale_x, self.scale_y)
    }

    /// The node properties this pose sets (no skew).
    pub(crate) fn props(&self) -> Props {
        Props {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
            skew: 0.0,
            scale_x: self.scale_x,
            scale_y: self.scale_y,
        }
    }

    /// Whether every property is finite.
    pub fn is_finite(&self) -> bool {
        [self.x, self.y, self.rotation, self.scale_x, self.scale_y]
            .iter()
            .all(|v| v.is_finite())
    }
}

/// How far from a pose's matrix a node's own matrix may be and still count as that pose
/// (semantics.md 8: "within 1e-9"), relative to the matrix's scale when that is above 1.
const SKEW_TOLERANCE: f64 = 1e-9;

fn close(m: &DAffine2, n: &DAffine2) -> bool {
    let scale = transform::max_scale(m).max(1.0);
    let (p, q) = (m.matrix2.to_cols_array(), n.matrix2.to_cols_array());
    p.iter()
        .zip(q)
        .all(|(u, v)| (u - v).abs() <= SKEW_TOLERANCE * scale)
}

/// A node's pose, read for a motion query's `from`.
impl Stage {
    /// The node's current pose: its position, rotation (as it was set: 370 stays 370) and
    /// scales, for a motion query's `from` in the next step.
    ///
    /// A mirror set through [`Stage::set_matrix`] reads as a negative `scale_y`.
    ///
    /// # Errors
    ///
    /// [`Error::Skew`] when the node's matrix is not expressible by those five properties
    /// within 1e-9 (it has skew); [`Error::StaleNode`].
    ///
    /// ```
    /// use pixelhit::{DAffine2, Error, Stage};
    /// let mut stage = Stage::new();
    /// let n = stage.add_container(stage.root())?;
    /// stage.set_transform(n, 5.0, 6.0, 30.0, 2.0, 3.0)?;
    /// let pose = stage.pose(n)?;
    /// assert_eq!((pose.x, pose.y, pose.rotation, pose.scale_x, pose.scale_y), (5.0, 6.0, 30.0, 2.0, 3.0));
    /// stage.set_matrix(n, DAffine2::from_cols_array(&[1.0, 0.0, 0.5, 1.0, 0.0, 0.0]))?;
    /// assert!(matches!(stage.pose(n), Err(Error::Skew { .. })));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn pose(&self, node: NodeId) -> Result<Pose> {
        let entry = self.node(node)?;
        let m = entry.matrix;
        let p = entry.props;
        let (x, y) = (m.translation.x, m.translation.y);
        let kept = Pose::new(x, y, p.rotation, p.scale_x, p.scale_y);
        if close(&kept.matrix(), &m) {
            return Ok(kept);
        }
        // A mirror read back from a matrix: the y axis turned the other way.
        let (a, b) = (m.matrix2.x_axis.x, m.matrix2.x_axis.y);
        let (c, d) = (m.matrix2.y_axis.x, m.matrix2.y_axis.y);
        let sign = if a * d - b * c < 0.0 { -1.0 } else { 1.0 };
        let mirrored = Pose::new(x, y, p.rotation, p.scale_x, sign * c.hypot(d));
        if close(&mirrored.matrix(), &m) {
            return Ok(mirrored);
        }
        Err(Error::Skew {
            node: self.describe(node),
        })
    }
}

/// Many nodes posed at once.
impl Stage {
    /// Sets each `(node, pose)` of `poses` as [`Stage::set_transform`] would, in order (a
    /// node given twice ends at its last pose), or none of them: every pose is checked
    /// before any node changes. One call for a frame of sprites (Python's
    /// `Stage.set_transforms`: one call instead of one a sprite).
    ///
    /// ```
    /// use pixelhit::{Pose, Stage};
    /// let mut stage = Stage::new();
    /// let rocks = [stage.add_container(stage.root())?, stage.add_container(stage.root())?];
    /// stage.set_poses(&[(rocks[0], Pose::new(5.0, 6.0, 30.0, 1.0, 1.0)), (rocks[1], Pose::at(9.0, 0.0))])?;
    /// assert_eq!(stage.pose(rocks[0])?, Pose::new(5.0, 6.0, 30.0, 1.0, 1.0));
    /// let bad = [(rocks[0], Pose::at(1.0, 1.0)), (rocks[1], Pose::at(f64::NAN, 0.0))];
    /// assert!(stage.set_poses(&bad).is_err());
    /// assert_eq!(stage.pose(rocks[0])?.x, 5.0); // nothing changed
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first error [`Stage::set_transform`] would give on a pose, in order
    /// ([`Error::NonFinite`], [`Error::StaleNode`]); nothing changes then.
    pub fn set_poses(&mut self, poses: &[(NodeId, Pose)]) -> Result<()> {
        for &(node, pose) in poses {
            self.checked_transform(node, &pose.props())?;
        }
        for &(node, pose) in poses {
            let props = pose.props();
            let node = self.placement_mut(node)?;
            node.props = props;
            // Checked above: the same function of the same numbers.
            node.matrix = props.to_matrix();
        }
        Ok(())
    }
}

/// One target's motion over a step, relative to the query's parent: its matrix there at
/// any time, computed as [`Stage::matrix_to`] would compute it for the node set to that pose.
pub(crate) struct Motion {
    from: Pose,
    to: Pose,
    /// The node's scroll offset (its content matrix is its matrix times this).
    scroll: DAffine2,
    /// The content matrices of the ancestors between the target and the parent, nearest
    /// first.
    chain: Vec<DAffine2>,
    /// Their product: the target's parent's matrix to the query's parent.
    outer: DAffine2,
    /// The target's box in its own content space (what [`Stage::bounds`] maps).
    pub local_box: Option<Rect>,
    /// An upper bound on how far any point of the target's bounds moves per unit of time,
    /// in the parent's pixels.
    pub speed: f64,
}

impl Motion {
    /// The motion of `target` from `from` to its current pose, relative to `parent` (a
    /// proper ancestor the caller has checked). `what` names the pose in errors.
    pub fn new(stage: &Stage, target: NodeId, parent: NodeId, from: Pose, what: &str) -> Result<Motion> {
        if !from.is_finite() {
            return Err(Error::NonFinite {
                what: format!("{what} pose of {}", stage.describe(target)),
            });
        }
        let to = stage.pose(target)?;
        let node = stage.node(target)?;
        // As `Node::content_matrix` applies it.
        let scroll = match node.scroll {
            Some(r) => DAffine2::from_translation(-DVec2::new(r.left(), r.top())),
            None => DAffine2::IDENTITY,
        };
        let mut chain = Vec::new();
        let mut outer = DAffine2::IDENTITY;
        let mut cur = node.parent;
        while let Some(id) = cur
            && id != parent
        {
            let n = stage.node(id)?;
            chain.push(n.content_matrix());
            outer = n.content_matrix() * outer;
            cur = n.parent;
        }
        let local_box = stage.own_box(target)?;
        let mut motion = Motion {
            from,
            to,
            scroll,
            chain,
            outer,
            local_box,
            speed: 0.0,
        };
        motion.speed = motion.speed_bound();
        if !motion.speed.is_finite() {
            return Err(Error::NonFinite {
                what: format!(
                    "speed of {} in its motion from the {what} pose",
                    stage.describe(target)
                ),
            });
        }
        Ok(motion)
    }

    /// The target's matrix to the parent at time `t`.
    pub fn matrix_at(&self, t: f64) -> DAffine2 {
        let mut m = self.from.lerp(&self.to, t).matrix() * self.scroll;
        for c in &self.chain {
            m = *c * m;
        }
        m
    }

    /// The target's bounds in the parent at time `t` (as [`Stage::bounds`] gives them for
    /// the node set to that pose), `None` when it draws nothing or the box overflows.
    pub fn bounds_at(&self, t: f64) -> Option<Rect> {
        self.local_box?.transform(self.matrix_at(t))
    }

    /// How far any point of the bounds can move per unit of time. A point `q` of the
    /// content box sits at `outer (p(t) + R(r(t)) S(t) q')` with `q' = scroll q`; its
    /// velocity is at most `|outer| (|dp| + |dr| |S(t) q'| + |dS q'|)`, largest at a corner
    /// because the velocity is affine in `q'` for each `t`.
    fn speed_bound(&self) -> f64 {
        let Some(b) = self.local_box else { return 0.0 };
        let (f, c) = (&self.from, &self.to);
        let dp = (c.x - f.x).hypot(c.y - f.y);
        let dr = (c.rotation - f.rotation).to_radians().abs();
        let (sx, sy) = (
            f.scale_x.abs().max(c.scale_x.abs()),
            f.scale_y.abs().max(c.scale_y.abs()),
        );
        let (dsx, dsy) = ((c.scale_x - f.scale_x).abs(), (c.scale_y - f.scale_y).abs());
        let corner = b
            .corners()
            .into_iter()
            .map(|q| self.scroll.transform_point2(q))
            .map(|q| dr * (sx * q.x).hypot(sy * q.y) + (dsx * q.x).hypot(dsy * q.y))
            .fold(0.0f64, f64::max);
        // A little over, so that rounding in the matrices never makes the bound too small.
        (transform::max_scale(&self.outer) * (dp + corner)) * (1.0 + 1e-9)
    }
}
