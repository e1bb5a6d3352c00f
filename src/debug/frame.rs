//! The picture's frame: which part of the root's space it shows, at what scale and zoom.

use crate::Result;

use crate::Error;
use crate::Rect;
use glam::DAffine2;
use glam::DVec2;
use tiny_skia::Pixmap;

/// Blank space around the scene, in root pixels.
pub(super) const PAD: f64 = 8.0;
/// The most root pixels drawn along either side; larger scenes are scaled down.
pub(super) const MAX_SOURCE: f64 = 4096.0;
/// Small scenes are magnified by a whole factor until the longer side reaches this.
pub(super) const MIN_SIDE: f64 = 512.0;
/// The longest side of a picture with a given zoom, so that a large zoom cannot allocate
/// gigabytes.
pub(super) const MAX_PICTURE: f64 = 16384.0;

/// Muted colours for the query targets (or, without queries, the top-level objects), so the
/// strong overlay colours stand out. No grey (that is [`NEUTRAL`]) and no red or magenta
/// (the answers and the overlap pixels).

/// Where the picture lies in the root's space and how it is scaled.
pub(super) struct Frame {
    /// The root point at the picture's top-left corner (whole pixels).
    pub(super) origin: DVec2,
    /// Layer pixels per root pixel: 1, or less for scenes larger than [`MAX_SOURCE`].
    pub(super) scale: f64,
    /// Picture pixels per layer pixel.
    pub(super) zoom: u32,
    /// Size of the layer the scene is drawn into before magnification.
    pub(super) layer_size: (u32, u32),
}

impl Frame {
    /// The frame around `area` grown by `pad` (an empty stage is a point at the origin),
    /// magnified by `zoom` or by the automatic factor.
    pub(super) fn new(area: Option<Rect>, pad: f64, zoom: Option<u32>) -> Result<Frame> {
        let [l, t, r, b] = area.map_or([0.0; 4], |a| [a.left(), a.top(), a.right(), a.bottom()]);
        let (left, top) = ((l - pad).floor(), (t - pad).floor());
        let (w, h) = ((r + pad).ceil() - left, (b + pad).ceil() - top);
        // An area thinner than a pixel still gets one.
        let (w, h) = (w.max(1.0), h.max(1.0));
        let longer = w.max(h);
        let scale = if longer > MAX_SOURCE {
            MAX_SOURCE / longer
        } else {
            1.0
        };
        let auto = (MIN_SIDE / longer).ceil().clamp(1.0, MIN_SIDE);
        let zoom = match zoom {
            None => auto,
            Some(z) => {
                let z = f64::from(z);
                if z < 1.0 || (longer * scale).ceil() * z > MAX_PICTURE {
                    return Err(Error::OutOfRange {
                        what: "debug picture zoom".into(),
                        value: z,
                        range: "1.. with sides up to 16384 pixels",
                    });
                }
                z
            }
        };
        // Casts saturate (NaN to 0), and the sizes are at most MAX_SOURCE anyway.
        let side = |v: f64| ((v * scale).ceil().min(MAX_SOURCE) as u32).max(1);
        let frame = Frame {
            origin: DVec2::new(left, top),
            scale,
            zoom: zoom as u32,
            layer_size: (side(w), side(h)),
        };
        if !(frame.scale > 0.0 && frame.origin.is_finite()) {
            return Err(picture_error(longer));
        }
        Ok(frame)
    }

    pub(super) fn picture_size(&self) -> (u32, u32) {
        (self.layer_size.0 * self.zoom, self.layer_size.1 * self.zoom)
    }

    /// Maps the root's space into the layer; origin first, so f32 only sees small numbers.
    pub(super) fn root_to_layer(&self) -> DAffine2 {
        DAffine2::from_scale(DVec2::splat(self.scale)) * DAffine2::from_translation(-self.origin)
    }

    pub(super) fn root_to_picture(&self) -> DAffine2 {
        DAffine2::from_scale(DVec2::splat(f64::from(self.zoom))) * self.root_to_layer()
    }

    /// The layer or picture as a rectangle, grown a little so clipping stays off-screen.
    pub(super) fn clip(&self, size: (u32, u32)) -> Option<Rect> {
        Rect::from_ltrb(-2.0, -2.0, f64::from(size.0) + 2.0, f64::from(size.1) + 2.0)
    }

    pub(super) fn pixmap(&self, size: (u32, u32)) -> Result<Pixmap> {
        Pixmap::new(size.0, size.1).ok_or_else(|| picture_error(f64::from(size.0.max(size.1))))
    }
}

pub(super) fn picture_error(value: f64) -> Error {
    Error::OutOfRange {
        what: "debug picture size".into(),
        value,
        range: "1..=4096 pixels per side",
    }
}
