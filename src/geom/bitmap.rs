//! Bitmaps: RGBA8 images shared between the nodes that show them.
//!
//! A `Bitmap` is a cheap handle (`Arc`) so that a thousand sprites showing one image share one
//! copy of its pixels. Pixels are kept straight (not premultiplied), as PNG stores them; the
//! rasterizer derives what it needs from them.
//!
//! A bitmap shows a rectangle of an image: all of it, or a region of a sprite sheet
//! ([`Bitmap::region`]) that shares the sheet's pixels. Everything a bitmap answers is about
//! the rectangle it shows, exactly as if those pixels had been copied into an image of their
//! own; its content id is the region's, so what caches derive from it (texel tables, poses)
//! costs the region's texels, not the sheet's.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path as FsPath;
use std::sync::{Arc, Mutex};

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

/// Rectangles of one image whose ids are remembered, at most (see [`Pixels::region_id`]):
/// a sheet of 4096 frames, about 200 KiB of map at worst.
const MAX_REGION_IDS: usize = 1 << 12;

/// A decoded image: the pixels every region of it shares.
struct Pixels {
    /// Its rows are `4 * width` bytes apart.
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    /// The content id of the whole image.
    id: ContentId,
    /// The content id of each rectangle `[x, y, width, height]` asked for as a region, so
    /// that asking twice for one frame of a sheet gives one id (and one set of cached
    /// tables): the pixels never change, so the same rectangle is the same content.
    region_ids: Mutex<HashMap<[u32; 4], ContentId>>,
}

impl Pixels {
    /// The id of the region `rect`: the one it had when asked for before, else a fresh one
    /// (kept for at most [`MAX_REGION_IDS`] rectangles, so that a caller asking for
    /// millions of different ones holds no memory for them: an id not kept is only a
    /// cache miss later).
    fn region_id(&self, rect: [u32; 4]) -> ContentId {
        let Ok(mut ids) = self.region_ids.lock() else {
            return ContentId::fresh();
        };
        if let Some(&id) = ids.get(&rect) {
            return id;
        }
        let id = ContentId::fresh();
        if ids.len() < MAX_REGION_IDS {
            ids.insert(rect, id);
        }
        id
    }
}

/// What a [`Bitmap`] handle shows: a rectangle of an image, with what is derived from it.
struct Shown {
    pixels: Arc<Pixels>,
    /// The rectangle's top-left texel in the image, and its size.
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    /// What caches key the rectangle's texels by (never reused, unlike the `Arc`'s
    /// address).
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
///
/// It may be a region of a larger image ([`Bitmap::region`]), sharing its pixels; it then
/// behaves in every way as the same pixels copied into an image of their own. Two bitmaps
/// are equal when they show the same pixels, whichever images they share.
#[derive(Clone)]
pub struct Bitmap(Arc<Shown>);

/// The pixels shown, as for an image of their own (the handle's id and sharing are not
/// part of a bitmap's value).
impl PartialEq for Bitmap {
    fn eq(&self, other: &Bitmap) -> bool {
        self.ptr_eq(other)
            || (self.width() == other.width()
                && self.height() == other.height()
                && (0..self.height()).all(|y| self.row(y) == other.row(y)))
    }
}

impl Eq for Bitmap {}

/// The pixels shown (a region prints as its copy would), not where they are kept.
impl std::fmt::Debug for Bitmap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bitmap")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("rgba", &&*self.rgba())
            .finish()
    }
}

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
        Ok(Bitmap::whole(width, height, rgba))
    }

    /// A bitmap showing all of an image of `width` x `height` texels (checked by the caller).
    fn whole(width: u32, height: u32, rgba: Vec<u8>) -> Bitmap {
        let id = ContentId::fresh();
        Bitmap(Arc::new(Shown {
            pixels: Arc::new(Pixels {
                width,
                height,
                rgba,
                id,
                region_ids: Mutex::new(HashMap::new()),
            }),
            x: 0,
            y: 0,
            width,
            height,
            id,
            hulls: Kept::default(),
        }))
    }

    /// The whole image this bitmap shows a rectangle of (itself when it shows all of it),
    /// with the rectangle `[x, y, width, height]` when it is a region: what a scene file
    /// saves (the image once, each region by its rectangle).
    pub(crate) fn image(&self) -> (Bitmap, Option<[u32; 4]>) {
        let s = &self.0;
        let p = &s.pixels;
        if (s.width, s.height) == (p.width, p.height) {
            return (self.clone(), None);
        }
        let whole = Bitmap(Arc::new(Shown {
            pixels: p.clone(),
            x: 0,
            y: 0,
            width: p.width,
            height: p.height,
            id: p.id,
            hulls: Kept::default(),
        }));
        (whole, Some([s.x, s.y, s.width, s.height]))
    }

    /// A bitmap showing the `width` x `height` rectangle of this one whose top-left texel
    /// is `(x, y)`, without copying its pixels: a frame of a sprite sheet. It answers every
    /// query exactly as those pixels copied into a bitmap of their own, and a region of a
    /// region is a region of the image below both. Asking twice for the same rectangle of
    /// one image gives bitmaps with one content id, so that what queries derive from it
    /// (texel tables, rasters) is made once.
    ///
    /// # Errors
    ///
    /// [`Error::Image`] when the rectangle is empty or reaches outside this bitmap; the
    /// message gives both.
    ///
    /// ```
    /// use pixelhit::Bitmap;
    /// // A 4 x 1 sheet of two 2 x 1 frames.
    /// let sheet = Bitmap::from_rgba8(4, 1, [[9, 9, 9, 255], [0; 4], [0; 4], [7, 7, 7, 99]].concat())?;
    /// let second = sheet.region(2, 0, 2, 1)?;
    /// assert_eq!(second, Bitmap::from_rgba8(2, 1, [[0; 4], [7, 7, 7, 99]].concat())?);
    /// assert_eq!(second.pixel(1, 0), Some([7, 7, 7, 99]));
    /// assert!(sheet.region(3, 0, 2, 1).is_err());
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn region(&self, x: u32, y: u32, width: u32, height: u32) -> Result<Bitmap> {
        let s = &self.0;
        let inside = |at: u32, len: u32, limit: u32| u64::from(at) + u64::from(len) <= u64::from(limit);
        if width == 0 || height == 0 || !inside(x, width, s.width) || !inside(y, height, s.height) {
            let what = if width == 0 || height == 0 {
                "is empty"
            } else {
                "reaches outside"
            };
            return Err(Error::Image {
                source: "bitmap region".into(),
                reason: format!(
                    "the rectangle at ({x}, {y}) of {width}x{height} texels {what} the {}x{} bitmap",
                    s.width, s.height
                ),
            });
        }
        if (x, y, width, height) == (0, 0, s.width, s.height) {
            return Ok(self.clone());
        }
        let (ax, ay) = (s.x + x, s.y + y);
        Ok(Bitmap(Arc::new(Shown {
            pixels: s.pixels.clone(),
            x: ax,
            y: ay,
            width,
            height,
            id: s.pixels.region_id([ax, ay, width, height]),
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
        Ok(Bitmap::whole(width, height, rgba))
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
            &self.rgba(),
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

    /// The straight RGBA bytes, row-major, `4 * width * height` of them: borrowed when the
    /// bitmap's rows lie one after another in its image (a whole image, or a region as wide
    /// as it), else copied. [`Bitmap::row`] reads a region without copying.
    ///
    /// ```
    /// let sheet = pixelhit::Bitmap::from_rgba8(2, 2, (0..16).collect())?;
    /// assert_eq!(&*sheet.region(1, 0, 1, 2)?.rgba(), &[4, 5, 6, 7, 12, 13, 14, 15]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn rgba(&self) -> Cow<'_, [u8]> {
        let (bytes, stride) = self.strided();
        let row = 4 * self.0.width as usize;
        if stride == self.0.width as usize {
            return Cow::Borrowed(&bytes[..row * self.0.height as usize]);
        }
        let rows = bytes.chunks(4 * stride).take(self.0.height as usize);
        Cow::Owned(rows.flat_map(|r| &r[..row]).copied().collect())
    }

    /// Row `y` of straight RGBA bytes (`4 * width` of them), or `None` below the bitmap.
    ///
    /// ```
    /// let b = pixelhit::Bitmap::from_rgba8(1, 2, vec![1, 2, 3, 4, 5, 6, 7, 8])?;
    /// assert_eq!(b.row(1), Some(&[5, 6, 7, 8][..]));
    /// assert_eq!(b.row(2), None);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn row(&self, y: u32) -> Option<&[u8]> {
        if y >= self.0.height {
            return None;
        }
        let (bytes, stride) = self.strided();
        bytes
            .get(4 * stride * y as usize..)?
            .get(..4 * self.0.width as usize)
    }

    /// The image's bytes from the bitmap's top-left texel on, and the image's width: texel
    /// `(i, j)` of the bitmap is at `4 * (j * stride + i)` (for readers that index rows).
    pub(crate) fn strided(&self) -> (&[u8], usize) {
        let s = &self.0;
        let stride = s.pixels.width as usize;
        let start = 4 * (s.y as usize * stride + s.x as usize);
        (s.pixels.rgba.get(start..).unwrap_or(&[]), stride)
    }

    /// The texel at `(x, y)`, or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.0.width {
            return None;
        }
        let p = self.row(y)?.get(4 * x as usize..4 * x as usize + 4)?;
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
        let (width, height) = (self.0.width, self.0.height);
        let hulls = self
            .0
            .hulls
            .get()
            .map(|h| grown_hulls(h, width, height, rect, grows));
        // In place only when this handle alone shows all of an image no other handle
        // shares; a region, or shared pixels, are copied first (copy on write).
        let whole =
            (self.0.x, self.0.y) == (0, 0) && (self.0.pixels.width, self.0.pixels.height) == (width, height);
        let in_place =
            whole && Arc::get_mut(&mut self.0).is_some_and(|shown| Arc::get_mut(&mut shown.pixels).is_some());
        if !in_place {
            *self = Bitmap::whole(width, height, self.rgba().into_owned());
        }
        let id = ContentId::fresh();
        if let Some(shown) = Arc::get_mut(&mut self.0)
            && let Some(p) = Arc::get_mut(&mut shown.pixels)
        {
            edit(&mut p.rgba);
            p.id = id;
            if let Ok(ids) = p.region_ids.get_mut() {
                ids.clear();
            }
            shown.id = id;
            shown.hulls = Kept::default();
            if let Some(h) = hulls {
                shown.hulls.get_or_init(|| h);
            }
        }
        !in_place
    }

    /// Where its samples can have alpha > 0, in texel space ([`TexelHulls`]).
    pub(crate) fn hulls(&self) -> &TexelHulls {
        self.0.hulls.get_or_init(|| texel_hulls(self))
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

fn texel_hulls(bitmap: &Bitmap) -> TexelHulls {
    let (width, height) = (bitmap.width(), bitmap.height());
    let (w, h) = (width as usize, height as usize);
    let (rgba, stride) = bitmap.strided();
    let alpha = |i: usize, j: usize| rgba[4 * (j * stride + i) + 3];
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
    fn the_ids_remembered_are_bounded() {
        let sheet = Bitmap::from_rgba8(80, 80, vec![9; 80 * 80 * 4]).unwrap();
        let ids = |sheet: &Bitmap| -> Vec<u64> {
            (0..80 * 80)
                .map(|k| sheet.region(k % 80, k / 80, 1, 1).unwrap().id())
                .collect()
        };
        let (first, again) = (ids(&sheet), ids(&sheet));
        let kept = first.iter().zip(&again).filter(|(a, b)| a == b).count();
        // The first MAX_REGION_IDS rectangles keep their ids; the others get new ones
        // (a cache miss, never a wrong answer), and the map grows no further.
        assert_eq!(kept, MAX_REGION_IDS);
        assert_eq!(sheet.0.pixels.region_ids.lock().unwrap().len(), MAX_REGION_IDS);
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
