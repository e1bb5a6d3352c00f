//! Bitmaps: RGBA8 images shared between the nodes that show them.
//!
//! A `Bitmap` is a cheap handle (`Arc`) so that a thousand sprites showing one image share one
//! copy of its pixels. Pixels are kept straight (not premultiplied), as PNG stores them; the
//! rasterizer derives what it needs from them.

use std::io::Cursor;
use std::path::Path as FsPath;
use std::sync::Arc;

use glam::DVec2;

use crate::geom::content_id::ContentId;
use crate::geom::hull::{Kept, KeptHull};
use crate::{Error, Result};

/// Size limits for decoding images; anything larger is refused before it is allocated.
///
/// The size is checked against the image's header before decoding, so a small file that
/// claims a huge image (a decompression bomb) costs nothing. Decoding a file in another
/// layout than 8-bit RGBA takes at most `max_bytes` for the decoder's image plus the RGBA
/// copy, itself at most `max_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageLimits {
    /// Largest width accepted, in pixels.
    pub max_width: u32,
    /// Largest height accepted, in pixels.
    pub max_height: u32,
    /// Largest decoded size accepted, in bytes (the decoder's allocations count too).
    pub max_bytes: u64,
}

impl Default for ImageLimits {
    /// 16384 x 16384 pixels and 256 MiB.
    fn default() -> Self {
        ImageLimits {
            max_width: 16_384,
            max_height: 16_384,
            max_bytes: 256 * 1024 * 1024,
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Pixels {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    /// What caches key the pixels by (never reused, unlike the `Arc`'s address).
    id: ContentId,
    /// Where texels with alpha > 0 lie, worked out on first use.
    hulls: Kept<TexelHulls>,
}

/// Convex outlines, in the bitmap's texel space, of every point whose sample can have
/// alpha > 0 (semantics.md 4.5), for sampling without and with smoothing.
///
/// A colour transform never makes a texel of alpha 0 visible (semantics.md 2), so these
/// hold for every transform. When a texel on the border has alpha > 0, anti-aliased pixels
/// whose centres fall outside the bitmap read it (the texel is clamped), and the outline is
/// the bitmap's whole rectangle, whose coverage those pixels need. Otherwise a centre must
/// fall inside a texel of alpha > 0 (no smoothing) or within half a texel of one
/// (smoothing: the bilinear weights of farther texels are 0).
#[derive(Debug)]
pub(crate) struct TexelHulls {
    pub sharp: KeptHull,
    pub smooth: KeptHull,
}

/// An RGBA8 image, straight alpha, row-major from the top-left. Texel `(i, j)` covers
/// `[i, i+1) x [j, j+1)` of the local space of the node that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap(Arc<Pixels>);

impl Bitmap {
    /// A bitmap from straight RGBA8 bytes, `4 * width * height` of them.
    ///
    /// # Errors
    ///
    /// [`Error::Image`] when the size is zero, the buffer has the wrong length, or the size
    /// exceeds the default [`ImageLimits`].
    ///
    /// ```
    /// let b = pixelhit::Bitmap::from_rgba8(2, 1, vec![255, 0, 0, 255, 0, 0, 0, 0]).unwrap();
    /// assert_eq!((b.width(), b.height()), (2, 1));
    /// assert_eq!(b.pixel(1, 0), Some([0, 0, 0, 0]));
    /// ```
    pub fn from_rgba8(width: u32, height: u32, rgba: Vec<u8>) -> Result<Bitmap> {
        let bad = |reason: String| Error::Image {
            source: "RGBA buffer".into(),
            reason,
        };
        if width == 0 || height == 0 {
            return Err(bad(format!("size {width}x{height} is empty")));
        }
        check_limits(width, height, &ImageLimits::default()).map_err(bad)?;
        let want = 4 * u64::from(width) * u64::from(height);
        if rgba.len() as u64 != want {
            return Err(bad(format!(
                "{} bytes given, {width}x{height} RGBA needs {want}",
                rgba.len()
            )));
        }
        Ok(Bitmap(Arc::new(Pixels {
            width,
            height,
            rgba,
            id: ContentId::fresh(),
            hulls: Kept::default(),
        })))
    }

    /// Decodes PNG bytes with the default [`ImageLimits`].
    ///
    /// # Errors
    ///
    /// [`Error::Image`] when the bytes are not a PNG, are truncated or corrupt, or the image
    /// exceeds the limits.
    pub fn from_png_bytes(bytes: &[u8]) -> Result<Bitmap> {
        Bitmap::decode_png(bytes, "bytes", &ImageLimits::default())
    }

    /// Reads and decodes a PNG file with the default [`ImageLimits`].
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when the file cannot be read, [`Error::Image`] as for
    /// [`Bitmap::from_png_bytes`].
    pub fn from_png_file(path: impl AsRef<FsPath>) -> Result<Bitmap> {
        Bitmap::from_png_file_with_limits(path, &ImageLimits::default())
    }

    /// Like [`Bitmap::from_png_file`], with explicit limits.
    ///
    /// # Errors
    ///
    /// As [`Bitmap::from_png_file`].
    pub fn from_png_file_with_limits(path: impl AsRef<FsPath>, limits: &ImageLimits) -> Result<Bitmap> {
        let path = path.as_ref();
        let bytes = crate::error::read_file(path)?;
        Bitmap::decode_png(&bytes, &path.display().to_string(), limits)
    }

    /// Decodes PNG bytes, naming them `source` in errors.
    ///
    /// # Errors
    ///
    /// As [`Bitmap::from_png_bytes`].
    pub fn decode_png(bytes: &[u8], source: &str, limits: &ImageLimits) -> Result<Bitmap> {
        let bad = |reason: String| Error::Image {
            source: source.to_string(),
            reason,
        };
        let mut reader = image::ImageReader::with_format(Cursor::new(bytes), image::ImageFormat::Png);
        // Width and height are checked below, with a message that gives them; the decoder
        // counts its allocations.
        let mut l = image::Limits::default();
        l.max_alloc = Some(limits.max_bytes);
        reader.limits(l);
        let decoder = reader.into_decoder().map_err(|e| bad(e.to_string()))?;
        // The header gives the size, so a file that claims too many pixels (a decompression
        // bomb among them) is refused here, before anything is allocated for its pixels; the
        // decoder's own limits also count its allocations for other layouts (16-bit, ...).
        let (width, height) = image::ImageDecoder::dimensions(&decoder);
        check_limits(width, height, limits).map_err(bad)?;
        let decoded = image::DynamicImage::from_decoder(decoder).map_err(|e| bad(e.to_string()))?;
        let rgba = decoded.into_rgba8().into_raw();
        if width == 0 || height == 0 {
            return Err(bad("the image is empty".into()));
        }
        Ok(Bitmap(Arc::new(Pixels {
            width,
            height,
            rgba,
            id: ContentId::fresh(),
            hulls: Kept::default(),
        })))
    }

    /// Encodes the bitmap as PNG.
    ///
    /// # Errors
    ///
    /// [`Error::Image`] if the encoder fails.
    pub fn to_png_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        image::write_buffer_with_format(
            &mut Cursor::new(&mut out),
            &self.0.rgba,
            self.0.width,
            self.0.height,
            image::ExtendedColorType::Rgba8,
            image::ImageFormat::Png,
        )
        .map_err(|e| Error::Image {
            source: "bitmap".into(),
            reason: e.to_string(),
        })?;
        Ok(out)
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.0.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.0.height
    }

    /// The straight RGBA bytes, row-major.
    pub fn rgba(&self) -> &[u8] {
        &self.0.rgba
    }

    /// The texel at `(x, y)`, or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.0.width || y >= self.0.height {
            return None;
        }
        let i = 4 * (y as usize * self.0.width as usize + x as usize);
        let p = self.0.rgba.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// Whether two handles share the same pixels (a cheap identity for caches).
    pub fn ptr_eq(&self, other: &Bitmap) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// What caches key the pixels by: never the same for two bitmaps, kept by clones.
    pub(crate) fn id(&self) -> u64 {
        self.0.id.get()
    }

    /// Changes the texels of `rect` (`[x0, x1) x [y0, y1)`, inside the bitmap) by `edit`,
    /// which gets the whole RGBA buffer: in place when no other handle shares the pixels,
    /// else on a copy (copy on write), which is what it returns (`true`: copied). The bitmap
    /// gets a new content id either way, so that nothing kept of the old pixels is read for
    /// the new ones. Its hulls stay valid without a scan of the whole image: an edit that
    /// only lowers alphas keeps them (they may be looser than needed, never too tight); one
    /// that may raise alphas (`grows`) adds the rectangle to them (`geom::bitmap_paint`).
    pub(crate) fn edit_texels(&mut self, rect: [u32; 4], grows: bool, edit: impl FnOnce(&mut [u8])) -> bool {
        let hulls = self
            .0
            .hulls
            .get()
            .map(|h| grown_hulls(h, self.0.width, self.0.height, rect, grows));
        let copied = Arc::get_mut(&mut self.0).is_none();
        if copied {
            self.0 = Arc::new(Pixels {
                width: self.0.width,
                height: self.0.height,
                rgba: self.0.rgba.clone(),
                id: ContentId::fresh(),
                hulls: Kept::default(),
            });
        }
        if let Some(p) = Arc::get_mut(&mut self.0) {
            edit(&mut p.rgba);
            p.id = ContentId::fresh();
            p.hulls = Kept::default();
            if let Some(h) = hulls {
                p.hulls.get_or_init(|| h);
            }
        }
        copied
    }

    /// Where its samples can have alpha > 0, in texel space ([`TexelHulls`]).
    pub(crate) fn hulls(&self) -> &TexelHulls {
        self.0
            .hulls
            .get_or_init(|| texel_hulls(self.0.width, self.0.height, &self.0.rgba))
    }
}

/// The hulls after an edit of `[x0, x1) x [y0, y1)`: the same points, with the rectangle's
/// when the edit may raise alphas (the whole bitmap when the rectangle reaches its border,
/// as [`texel_hulls`] has it).
fn grown_hulls(
    h: &TexelHulls,
    width: u32,
    height: u32,
    [x0, y0, x1, y1]: [u32; 4],
    grows: bool,
) -> TexelHulls {
    let (mut sharp, mut smooth) = (h.sharp.points.to_vec(), h.smooth.points.to_vec());
    if grows {
        let (l, t, r, b) = (f64::from(x0), f64::from(y0), f64::from(x1), f64::from(y1));
        if x0 == 0 || y0 == 0 || x1 == width || y1 == height {
            let (w, h) = (f64::from(width), f64::from(height));
            sharp = vec![
                DVec2::ZERO,
                DVec2::new(w, 0.0),
                DVec2::new(w, h),
                DVec2::new(0.0, h),
            ];
            smooth = sharp.clone();
        } else {
            sharp.extend([
                DVec2::new(l, t),
                DVec2::new(r, t),
                DVec2::new(l, b),
                DVec2::new(r, b),
            ]);
            smooth.extend([
                DVec2::new(l - 0.5, t - 0.5),
                DVec2::new(r + 0.5, t - 0.5),
                DVec2::new(l - 0.5, b + 0.5),
                DVec2::new(r + 0.5, b + 0.5),
            ]);
        }
    }
    TexelHulls {
        sharp: KeptHull::new(sharp),
        smooth: KeptHull::new(smooth),
    }
}

fn texel_hulls(width: u32, height: u32, rgba: &[u8]) -> TexelHulls {
    let (w, h) = (width as usize, height as usize);
    let alpha = |i: usize, j: usize| rgba[4 * (j * w + i) + 3];
    let mut border = false;
    let (mut sharp, mut smooth) = (Vec::new(), Vec::new());
    for j in 0..h {
        let Some(first) = (0..w).find(|&i| alpha(i, j) > 0) else {
            continue;
        };
        let last = (first..w).rev().find(|&i| alpha(i, j) > 0).unwrap_or(first);
        border |= j == 0 || j + 1 == h || first == 0 || last + 1 == w;
        let (x0, x1, y0, y1) = (first as f64, last as f64 + 1.0, j as f64, j as f64 + 1.0);
        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
            sharp.push(DVec2::new(x, y));
        }
        for (x, y) in [
            (x0 - 0.5, y0 - 0.5),
            (x1 + 0.5, y0 - 0.5),
            (x0 - 0.5, y1 + 0.5),
            (x1 + 0.5, y1 + 0.5),
        ] {
            smooth.push(DVec2::new(x, y));
        }
    }
    if border {
        let (x1, y1) = (f64::from(width), f64::from(height));
        sharp = vec![
            DVec2::ZERO,
            DVec2::new(x1, 0.0),
            DVec2::new(x1, y1),
            DVec2::new(0.0, y1),
        ];
        smooth = sharp.clone();
    }
    TexelHulls {
        sharp: KeptHull::new(sharp),
        smooth: KeptHull::new(smooth),
    }
}

fn check_limits(width: u32, height: u32, limits: &ImageLimits) -> std::result::Result<(), String> {
    let bytes = 4 * u64::from(width) * u64::from(height);
    if width > limits.max_width || height > limits.max_height || bytes > limits.max_bytes {
        return Err(format!(
            "{width}x{height} exceeds the limits of {}x{} pixels and {} bytes",
            limits.max_width, limits.max_height, limits.max_bytes
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip() {
        let b = Bitmap::from_rgba8(3, 2, (0..24).map(|v| v as u8 * 10).collect()).unwrap();
        let again = Bitmap::from_png_bytes(&b.to_png_bytes().unwrap()).unwrap();
        assert_eq!(again.rgba(), b.rgba());
    }

    #[test]
    fn wrong_buffer_length_is_refused() {
        let e = Bitmap::from_rgba8(2, 2, vec![0; 15]).unwrap_err();
        assert!(e.to_string().contains("15 bytes"), "{e}");
        assert!(Bitmap::from_rgba8(0, 2, vec![]).is_err());
    }

    #[test]
    fn garbage_and_truncated_png_are_refused() {
        assert!(matches!(
            Bitmap::from_png_bytes(b"not a png"),
            Err(Error::Image { .. })
        ));
        let png = Bitmap::from_rgba8(8, 8, vec![7; 256])
            .unwrap()
            .to_png_bytes()
            .unwrap();
        assert!(Bitmap::from_png_bytes(&png[..png.len() / 2]).is_err());
    }

    #[test]
    fn oversized_png_is_refused() {
        let png = Bitmap::from_rgba8(40, 2, vec![7; 320])
            .unwrap()
            .to_png_bytes()
            .unwrap();
        let limits = ImageLimits {
            max_width: 32,
            ..ImageLimits::default()
        };
        let e = Bitmap::decode_png(&png, "x.png", &limits).unwrap_err();
        assert!(e.to_string().contains("x.png"), "{e}");
    }
}
