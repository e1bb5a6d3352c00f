//! A node's own properties: name, matrix and the Flash-style properties it is built from,
//! visibility, tolerance, alpha and colour transform.

use glam::{DAffine2, DVec2};

use crate::geom::interop::IntoAffine;
use crate::geom::transform::{self, Props};
use crate::tree::stage::describe_node;
use crate::{ColorTransform, Error, NodeId, Result, Stage};

/// A node's own properties, read and set.
impl Stage {
    /// The node's name.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn name(&self, node: NodeId) -> Result<Option<&str>> {
        Ok(self.node(node)?.name.as_deref())
    }

    /// Names the node (names need not be unique in a stage; scene files require it).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_name(&mut self, node: NodeId, name: impl Into<String>) -> Result<()> {
        self.node_mut(node)?.name = Some(name.into());
        Ok(())
    }

    /// The matrix `[a, b, c, d, tx, ty]` mapping the node's space into its parent's.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn matrix(&self, node: NodeId) -> Result<DAffine2> {
        Ok(self.node(node)?.matrix)
    }

    /// Sets the matrix (skew allowed; a singular matrix makes the node cover nothing).
    ///
    /// The property getters then read it as Flash does: [`Stage::x`] and [`Stage::y`] are
    /// `tx` and `ty`; [`Stage::rotation`] is the angle of the x axis, `atan2(b, a)` in
    /// degrees, in `-180..=180`; [`Stage::scale_x`] and [`Stage::scale_y`] are the lengths of
    /// the two axes, `hypot(a, b)` and `hypot(c, d)`, never negative (a mirrored matrix
    /// shows as a skew of 180 degrees, which the setters keep). Setting one property
    /// afterwards keeps the others, skew included.
    ///
    /// ```
    /// use pixelhit::{DAffine2, Stage};
    /// let mut stage = Stage::new();
    /// let n = stage.add_container(stage.root())?;
    /// stage.set_matrix(n, DAffine2::from_cols_array(&[0.0, -3.0, 2.0, 0.0, 5.0, 6.0]))?;
    /// assert_eq!(stage.rotation(n)?, -90.0);
    /// assert_eq!((stage.scale_x(n)?, stage.scale_y(n)?), (3.0, 2.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node when an entry is not finite; [`Error::StaleNode`].
    pub fn set_matrix(&mut self, node: NodeId, m: impl IntoAffine) -> Result<()> {
        let m = m.into_affine();
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!("matrix of {}", self.describe(node)),
            });
        }
        let entry = self.placement_mut(node)?;
        entry.matrix = m;
        entry.props = Props::from_matrix(&m);
        Ok(())
    }

    fn set_prop(&mut self, id: NodeId, what: &str, value: f64, f: impl FnOnce(&mut Props)) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        let node = self.placement_mut(id)?;
        let mut props = node.props;
        f(&mut props);
        let m = props.to_matrix();
        if !transform::is_finite(&m) {
            let what = format!("matrix of {}", describe_node(node, id));
            return Err(Error::NonFinite { what });
        }
        node.props = props;
        node.matrix = m;
        Ok(())
    }

    /// Sets `tx` or `ty` alone: the rest of the matrix stays exactly as it is (recomposing it
    /// from the properties would move its other entries by rounding).
    fn set_translation(
        &mut self,
        id: NodeId,
        what: &str,
        value: f64,
        f: impl FnOnce(&mut DVec2),
    ) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        let node = self.placement_mut(id)?;
        f(&mut node.matrix.translation);
        node.props.x = node.matrix.translation.x;
        node.props.y = node.matrix.translation.y;
        Ok(())
    }

    /// x position in the parent (`tx`).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn x(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.matrix.translation.x)
    }
    /// y position in the parent (`ty`).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn y(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.matrix.translation.y)
    }
    /// Rotation in degrees, clockwise on screen.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn rotation(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.props.rotation)
    }
    /// Horizontal scale (length of the matrix's x axis).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn scale_x(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.props.scale_x)
    }
    /// Vertical scale (length of the matrix's y axis).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn scale_y(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.props.scale_y)
    }

    /// Sets the x position.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node; [`Error::StaleNode`].
    pub fn set_x(&mut self, node: NodeId, x: f64) -> Result<()> {
        self.set_translation(node, "x", x, |t| t.x = x)
    }
    /// Sets the y position.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_y(&mut self, node: NodeId, y: f64) -> Result<()> {
        self.set_translation(node, "y", y, |t| t.y = y)
    }
    /// Places the node at `(x, y)` in its parent: one call for a sprite's position each
    /// frame. Only the matrix's translation changes, exactly (its other entries are kept as
    /// they are, not recomposed).
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let ship = stage.add_container(stage.root())?;
    /// stage.set_position(ship, 120.5, 80.25)?;
    /// assert_eq!((stage.x(ship)?, stage.y(ship)?), (120.5, 80.25));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node and the coordinate; [`Error::StaleNode`]. Nothing
    /// changes on error.
    pub fn set_position(&mut self, node: NodeId, x: f64, y: f64) -> Result<()> {
        if !y.is_finite() {
            return Err(Error::NonFinite {
                what: format!("y of {}", self.describe(node)),
            });
        }
        self.set_translation(node, "x", x, |t| *t = DVec2::new(x, y))
    }

    /// Sets both scales to `s`, keeping rotation and skew (Flash's `scaleX = scaleY = s`). A
    /// negative `s` turns the node half a turn.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let n = stage.add_container(stage.root())?;
    /// stage.set_rotation(n, 30.0)?;
    /// stage.set_scale(n, 2.5)?;
    /// assert_eq!((stage.scale_x(n)?, stage.scale_y(n)?, stage.rotation(n)?), (2.5, 2.5, 30.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale(&mut self, node: NodeId, s: f64) -> Result<()> {
        self.set_prop(node, "scale", s, |p| (p.scale_x, p.scale_y) = (s, s))
    }

    /// Sets position, rotation (degrees, clockwise on screen) and both scales in one call:
    /// the matrix becomes scale, then rotate, then translate, as
    /// [`matrix_from_properties`](crate::matrix_from_properties) builds it; any skew is
    /// dropped. The node turns and scales about its own origin, as in Flash: to turn a sprite
    /// about its centre, put its art in a child offset by half its size (see the crate's
    /// front page, "Pivots").
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let ship = stage.add_container(stage.root())?;
    /// stage.set_transform(ship, 100.0, 50.0, 90.0, 2.0, 2.0)?;
    /// assert_eq!(stage.matrix(ship)?.to_cols_array(), [0.0, 2.0, -2.0, 0.0, 100.0, 50.0]);
    /// assert_eq!(stage.rotation(ship)?, 90.0);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node and the property, or the matrix when the product
    /// overflows; [`Error::StaleNode`]. Nothing changes on error.
    pub fn set_transform(
        &mut self,
        id: NodeId,
        x: f64,
        y: f64,
        rotation: f64,
        scale_x: f64,
        scale_y: f64,
    ) -> Result<()> {
        let props = Props {
            x,
            y,
            rotation,
            skew: 0.0,
            scale_x,
            scale_y,
        };
        let matrix = self.checked_transform(id, &props)?;
        let node = self.placement_mut(id)?;
        node.props = props;
        node.matrix = matrix;
        Ok(())
    }

    /// The matrix of `props` (no skew) for `id`, or the error [`Stage::set_transform`] gives,
    /// without changing anything: a non-finite property (in the order x, y, rotation,
    /// scale_x, scale_y), a stale node, a matrix that overflows.
    pub(crate) fn checked_transform(&self, id: NodeId, props: &Props) -> Result<DAffine2> {
        let values = [
            ("x", props.x),
            ("y", props.y),
            ("rotation", props.rotation),
            ("scale_x", props.scale_x),
            ("scale_y", props.scale_y),
        ];
        if let Some((what, _)) = values.iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        let node = self.node(id)?;
        let m = props.to_matrix();
        if !transform::is_finite(&m) {
            let what = format!("matrix of {}", describe_node(node, id));
            return Err(Error::NonFinite { what });
        }
        Ok(m)
    }

    /// Sets the rotation in degrees, keeping scale and any skew.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_rotation(&mut self, node: NodeId, degrees: f64) -> Result<()> {
        self.set_prop(node, "rotation", degrees, |p| p.rotation = degrees)
    }
    /// Sets the horizontal scale, keeping rotation.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale_x(&mut self, node: NodeId, s: f64) -> Result<()> {
        self.set_prop(node, "scale_x", s, |p| p.scale_x = s)
    }
    /// Sets the vertical scale, keeping rotation.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale_y(&mut self, node: NodeId, s: f64) -> Result<()> {
        self.set_prop(node, "scale_y", s, |p| p.scale_y = s)
    }

    /// Whether the node is drawn. A hidden descendant has no pixels; the target of a query
    /// is drawn whatever its own visibility.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn visible(&self, node: NodeId) -> Result<bool> {
        Ok(self.node(node)?.visible)
    }
    /// Shows or hides the node.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_visible(&mut self, node: NodeId, visible: bool) -> Result<()> {
        self.node_mut(node)?.visible = visible;
        Ok(())
    }

    /// Whether the node is on screen as far as visibility goes: it and every ancestor up to
    /// the root are visible. [`CollisionOptions::skip_hidden`](crate::CollisionOptions)
    /// queries leave out nodes for which this is false.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let layer = stage.add_container(stage.root())?;
    /// let sprite = stage.add_container(layer)?;
    /// stage.set_visible(layer, false)?;
    /// assert!(stage.visible(sprite)? && !stage.is_shown(sprite)?);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn is_shown(&self, node: NodeId) -> Result<bool> {
        let mut cur = Some(node);
        while let Some(c) = cur {
            let here = self.node(c)?;
            if !here.visible {
                return Ok(false);
            }
            cur = here.parent;
        }
        Ok(true)
    }

    /// The node's own collision tolerance, if it has one (see [`Stage::set_tolerance`]).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn tolerance(&self, node: NodeId) -> Result<Option<u8>> {
        Ok(self.node(node)?.tolerance)
    }

    /// Gives the node a collision tolerance of its own, used instead of the query's whenever
    /// the node is a target of a collision query (`collision_rect`, `collision`, the
    /// many-object queries, the methods): a pixel of it is solid when its alpha is at least
    /// `max(1, 255 - tolerance)`. A ghost with `Some(0)` collides only where it is fully
    /// opaque, whatever the query asks. `None` goes back to the query's tolerance. Only the
    /// targets' own settings count, not those of their ancestors or descendants.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let ghost = stage.add_container(root)?;
    /// stage.add_graphic(ghost, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 0.5)?)?;
    /// let wall = stage.add_container(root)?;
    /// stage.add_graphic(wall, Graphic::fill(Path::rect(5.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let opts = CollisionOptions::default(); // tolerance 255: any alpha counts
    /// assert!(stage.collision(ghost, wall, root, &opts)?.rect.is_some());
    /// stage.set_tolerance(ghost, Some(0))?; // only fully opaque pixels of the ghost
    /// assert!(stage.collision(ghost, wall, root, &opts)?.rect.is_none());
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_tolerance(&mut self, node: NodeId, tolerance: Option<u8>) -> Result<()> {
        self.node_mut(node)?.tolerance = tolerance;
        Ok(())
    }

    /// The alpha multiplier, 0..=1.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn alpha(&self, node: NodeId) -> Result<f64> {
        Ok(self.node(node)?.color.alpha_multiplier)
    }
    /// Sets the alpha multiplier.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] naming the node when `alpha` is outside 0..=1 or NaN;
    /// [`Error::StaleNode`].
    pub fn set_alpha(&mut self, node: NodeId, alpha: f64) -> Result<()> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::OutOfRange {
                what: format!("alpha of {}", self.describe(node)),
                value: alpha,
                range: "0..=1",
            });
        }
        self.node_mut(node)?.color.alpha_multiplier = alpha;
        Ok(())
    }

    /// The colour transform (its alpha multiplier is the `alpha` property).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn color_transform(&self, node: NodeId) -> Result<ColorTransform> {
        Ok(self.node(node)?.color)
    }
    /// Sets the colour transform, alpha included.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node; [`Error::StaleNode`].
    pub fn set_color_transform(&mut self, node: NodeId, ct: ColorTransform) -> Result<()> {
        ct.check_finite(|| format!("colour transform of {}", self.describe(node)))?;
        self.node_mut(node)?.color = ct;
        Ok(())
    }
}
