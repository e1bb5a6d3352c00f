//! Regions of a shared image in the cache: one rectangle of one image is one content, and
//! its texel table is made from the region alone.

use std::sync::Arc;

use crate::raster::RasterCache;
use crate::{Bitmap, ColorTransform};

#[test]
fn one_rectangle_is_one_content_and_its_table_costs_its_texels() {
    let rgba = (0..64 * 32 * 4).map(|i| (i * 7) as u8).collect();
    let sheet = Bitmap::from_rgba8(64, 32, rgba).unwrap();
    let (a, b) = (
        sheet.region(10, 3, 20, 20).unwrap(),
        sheet.region(10, 3, 20, 20).unwrap(),
    );
    let nested = sheet.region(5, 0, 40, 30).unwrap().region(5, 3, 20, 20).unwrap();
    assert_eq!(a.id(), b.id());
    assert_eq!(a.id(), nested.id());
    assert_ne!(a.id(), sheet.region(10, 3, 20, 19).unwrap().id());
    assert_ne!(a.id(), sheet.id());
    assert_eq!(sheet.region(0, 0, 64, 32).unwrap().id(), sheet.id());
    // Another image with the same pixels is other content.
    let twin = Bitmap::from_rgba8(64, 32, sheet.rgba().into_owned()).unwrap();
    assert_ne!(twin.region(10, 3, 20, 20).unwrap().id(), a.id());
    let cache = RasterCache::default();
    let ct = ColorTransform::IDENTITY;
    let (ta, tb) = (cache.texels(&a, &ct), cache.texels(&nested, &ct));
    assert!(Arc::ptr_eq(&ta, &tb), "one table for one rectangle");
    assert_eq!(ta.alpha.len(), 20 * 20);
    // Counted at the region's size: the sheet's own table would take 2048 bytes of alpha
    // (every table also holds its per-threshold solid outlines, 8 KiB whatever its size).
    assert_eq!(cache.bytes(), cache.recount());
    let boxes = crate::raster::solid_outline::SolidOutlines::BYTES;
    assert!(cache.bytes() - boxes < 64 * 32, "{} bytes", cache.bytes());
}
