//! SVG assets: an SVG file collides exactly as the tree it describes, unsupported features are
//! reported, and files that are not SVG are refused with a message, never a panic.

/// Without the `svg` feature a scene's `svg` object is an error that says how to get it.
#[cfg(not(feature = "svg"))]
#[test]
fn without_the_feature_svg_objects_are_refused_by_field() {
    let text = r#"{"pixelhit_scene": 1, "root": {"children": [{"svg": "ship.svg"}]}}"#;
    match pixelhit::Scene::from_json(text, "s.json", std::path::Path::new(".")) {
        Err(pixelhit::Error::Scene { location, reason, .. }) => {
            assert_eq!(location, "root.children[0].svg");
            assert!(reason.contains("feature `svg`"), "{reason}");
        }
        other => panic!("expected a scene error, got {other:?}"),
    }
}

#[cfg(feature = "svg")]
mod with_svg {
    use std::path::PathBuf;

    use pixelhit::svg::{SvgDocument, SvgFeature, load_svg};
    use pixelhit::{
        Bitmap, CollisionOptions, DAffine2, Error, FillRule, Graphic, NodeId, Path, Scene, SceneLimits,
        Stage, matrix_from_properties,
    };

    fn temp_dir(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pixelhit-svg-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Nested groups with translate, rotate, scale, skew and a raw matrix; fills with both rules
    /// and opacity; a round-capped stroke; curves of every kind. Everything that usvg keeps in
    /// f32 is exact here except the sines and cosines of the rotations.
    const SHIPS: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160">
      <g id="ship" transform="translate(60 50) rotate(30)">
        <path d="M-20,-12 L24,0 L-20,12 L-12,0 Z M-16,-4 h6 v8 h-6 z" fill="#48f" fill-rule="evenodd"/>
        <g id="wing" transform="matrix(1 0.25 -0.5 1 -6 10) scale(1.5 0.75)">
          <path d="M-6,0 C-6,-8 6,-8 6,0 S-6,8 -6,0 Z" fill="red" fill-opacity="0.5"/>
          <path d="M-8 0 L8 0 L8 6" stroke="black" stroke-width="3" stroke-linecap="round"
                stroke-linejoin="round" fill="none"/>
        </g>
      </g>
      <g id="rock" transform="translate(100 60) rotate(-15) scale(1.25)">
        <g opacity="0.5">
          <path d="M0,-20 Q20,-20 20,0 T0,20 Q-20,20 -20,0 Z M0,-8 L6,0 L0,8 L-6,0 Z"
                fill="gray" fill-rule="evenodd"/>
        </g>
        <g id="moon" transform="skewX(20) translate(30 0)">
          <rect x="-5" y="-5" width="10" height="10" fill="yellow"/>
        </g>
      </g>
    </svg>"##;

    fn fill(stage: &mut Stage, node: NodeId, d: &str, rule: FillRule, alpha: f64) {
        let g = Graphic::fill(Path::from_svg(d).unwrap(), rule, alpha).unwrap();
        stage.add_graphic(node, g).unwrap();
    }

    fn container(stage: &mut Stage, parent: NodeId, m: DAffine2) -> NodeId {
        let id = stage.add_container(parent).unwrap();
        stage.set_matrix(id, m).unwrap();
        id
    }

    /// The tree SHIPS describes, built by hand in f64. Returns (root, ship, wing, rock, moon).
    fn ships_by_hand(stage: &mut Stage) -> [NodeId; 5] {
        let root = stage.add_container(stage.root()).unwrap();
        let ship = container(stage, root, matrix_from_properties(60.0, 50.0, 30.0, 1.0, 1.0));
        fill(
            stage,
            ship,
            "M-20,-12 L24,0 L-20,12 L-12,0 Z M-16,-4 h6 v8 h-6 z",
            FillRule::EvenOdd,
            1.0,
        );
        let skew = DAffine2::from_cols_array(&[1.0, 0.25, -0.5, 1.0, -6.0, 10.0]);
        let wing = container(stage, ship, skew * DAffine2::from_scale((1.5, 0.75).into()));
        fill(
            stage,
            wing,
            "M-6,0 C-6,-8 6,-8 6,0 S-6,8 -6,0 Z",
            FillRule::NonZero,
            0.5,
        );
        let line = Graphic::stroke(Path::from_svg("M-8 0 L8 0 L8 6").unwrap(), 3.0, 1.0).unwrap();
        stage.add_graphic(wing, line).unwrap();
        let rock = container(
            stage,
            root,
            matrix_from_properties(100.0, 60.0, -15.0, 1.25, 1.25),
        );
        let faded = container(stage, rock, DAffine2::IDENTITY);
        stage.set_alpha(faded, 0.5).unwrap();
        fill(
            stage,
            faded,
            "M0,-20 Q20,-20 20,0 T0,20 Q-20,20 -20,0 Z M0,-8 L6,0 L0,8 L-6,0 Z",
            FillRule::EvenOdd,
            1.0,
        );
        let skew_x = DAffine2::from_cols_array(&[1.0, 0.0, 20f64.to_radians().tan(), 1.0, 0.0, 0.0]);
        let moon = container(
            stage,
            rock,
            skew_x * DAffine2::from_translation((30.0, 0.0).into()),
        );
        fill(stage, moon, "M-5,-5 H5 V5 H-5 Z", FillRule::NonZero, 1.0);
        [root, ship, wing, rock, moon]
    }

    #[test]
    fn nested_transformed_groups_collide_exactly_as_the_hand_built_tree() {
        let doc = SvgDocument::from_str(SHIPS).unwrap();
        assert_eq!(doc.size(), (240.0, 160.0));
        let mut svg_stage = Stage::new();
        let svg_stage_root = svg_stage.root();
        let load = doc.add_to(&mut svg_stage, svg_stage_root).unwrap();
        assert_eq!(load.warnings, vec![], "everything in SHIPS is supported");
        let from_svg = ["ship", "wing", "rock", "moon"].map(|id| load.node(id).unwrap());
        let from_svg = [load.root, from_svg[0], from_svg[1], from_svg[2], from_svg[3]];

        let mut hand_stage = Stage::new();
        let by_hand = ships_by_hand(&mut hand_stage);

        let options = [
            CollisionOptions::default(),
            CollisionOptions::default().tolerance(0),
            CollisionOptions::default().tolerance(128).anti_alias(false),
            CollisionOptions::default().precise(false),
        ];
        let pairs = [(1, 3), (2, 3), (1, 4), (2, 4), (1, 2)];
        let mut touching = 0;
        // Slide the whole rock across the ship so that every part meets every other.
        for step in 0..24 {
            let x = 40.0 + 3.5 * f64::from(step);
            let y = 40.0 + 1.25 * f64::from(step);
            for (stage, nodes) in [(&mut svg_stage, from_svg), (&mut hand_stage, by_hand)] {
                stage.set_x(nodes[3], x).unwrap();
                stage.set_y(nodes[3], y).unwrap();
            }
            for (a, b) in pairs {
                for opts in &options {
                    let s = svg_stage
                        .collision(from_svg[a], from_svg[b], from_svg[0], opts)
                        .unwrap();
                    let h = hand_stage
                        .collision(by_hand[a], by_hand[b], by_hand[0], opts)
                        .unwrap();
                    assert_eq!(
                        s.rect.is_some(),
                        h.rect.is_some(),
                        "step {step}, pair {a}-{b}, {opts:?}"
                    );
                    assert_eq!(
                        s.overlap_pixels, h.overlap_pixels,
                        "step {step}, pair {a}-{b}, {opts:?}"
                    );
                    if opts.precise {
                        // Whole pixels: equal, not merely close.
                        assert_eq!(s.rect, h.rect, "step {step}, pair {a}-{b}, {opts:?}");
                        touching += usize::from(s.rect.is_some());
                    } else if let (Some(s), Some(h)) = (s.rect, h.rect) {
                        // Box corners carry usvg's f32 rotation: equal to a millionth.
                        for (u, v) in s.to_xywh().iter().zip(h.to_xywh()) {
                            assert!((u - v).abs() < 1e-4, "step {step}, pair {a}-{b}: {s:?} vs {h:?}");
                        }
                    }
                }
            }
        }
        assert!(
            touching > 40,
            "the slide must produce real overlaps, got {touching}"
        );
        // Points: the shapes' insides agree too, holes included.
        for j in 0..40 {
            for i in 0..60 {
                let (x, y) = (f64::from(i) * 4.0 + 0.3, f64::from(j) * 4.0 + 0.7);
                for k in 1..5 {
                    assert_eq!(
                        svg_stage.hit_test_point(from_svg[k], x, y, true).unwrap(),
                        hand_stage.hit_test_point(by_hand[k], x, y, true).unwrap(),
                        "node {k} at ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn paint_order_is_kept_around_groups() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <rect width="1" height="1"/>
            <g id="middle"><rect width="2" height="2"/></g>
            <rect width="3" height="3"/><rect width="4" height="4"/>
            <rect id="named" width="5" height="5"/>
        </svg>"##;
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = SvgDocument::from_str(text)
            .unwrap()
            .add_to(&mut stage, stage_root)
            .unwrap();
        // The first rect is the root's own graphic (drawn below its children); the two after
        // the group share a container after it; the named one has its own.
        assert_eq!(stage.graphics(load.root).unwrap().len(), 1);
        let kids = stage.children(load.root).unwrap().to_vec();
        assert_eq!(kids.len(), 3);
        assert_eq!(Some(kids[0]), load.node("middle"));
        assert_eq!(stage.graphics(kids[1]).unwrap().len(), 2);
        assert_eq!(Some(kids[2]), load.node("named"));
        assert_eq!(
            load.ids().map(|(k, _)| k).collect::<Vec<_>>(),
            ["middle", "named"]
        );
    }

    fn features(text: &str) -> Vec<(SvgFeature, String)> {
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = SvgDocument::from_str(text)
            .unwrap()
            .add_to(&mut stage, stage_root)
            .unwrap();
        load.warnings
            .into_iter()
            .map(|w| (w.feature, w.element))
            .collect()
    }

    #[test]
    fn unsupported_features_are_reported_by_element() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
          <defs>
            <linearGradient id="fade"><stop offset="0" stop-opacity="1"/><stop offset="1" stop-opacity="0.25"/></linearGradient>
            <linearGradient id="solid"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>
            <pattern id="dots" width="4" height="4" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1"/></pattern>
            <clipPath id="clip"><rect width="50" height="50"/></clipPath>
            <mask id="m"><rect width="50" height="50" fill="white"/></mask>
            <filter id="blur"><feGaussianBlur stdDeviation="2"/></filter>
          </defs>
          <path id="elbow" d="M0 0 L10 0 L10 10" stroke="black" fill="none"/>
          <path id="dash" d="M0 20 H40" stroke="black" stroke-dasharray="4 2" stroke-linecap="round"/>
          <path id="loop" d="M0 30 H10 V40 Z" stroke="black" stroke-linejoin="bevel" fill="none"/>
          <circle id="ring" cx="50" cy="50" r="10" stroke="black" fill="none"/>
          <rect id="faded" width="10" height="10" fill="url(#fade)"/>
          <rect id="rainbow" width="10" height="10" fill="url(#solid)"/>
          <rect id="dotted" width="10" height="10" fill="url(#dots)"/>
          <g id="clipped" clip-path="url(#clip)"><rect width="80" height="80"/></g>
          <g id="masked" mask="url(#m)"><rect width="80" height="80"/></g>
          <g id="blurred" filter="url(#blur)"><rect width="80" height="80"/></g>
          <g id="ghost" opacity="0.5"><rect width="8" height="8"/><rect x="4" width="8" height="8"/></g>
          <g id="lone" opacity="0.5"><rect width="8" height="8"/></g>
          <text id="label" x="10" y="90">hello</text>
          <text x="10" y="95">unnamed</text>
        </svg>"##;
        let got = features(text);
        let want = [
            (SvgFeature::Text, "text #label"),
            (SvgFeature::Text, "text at line 23"),
            (SvgFeature::StrokeCap, "path #elbow"),
            (SvgFeature::StrokeJoin, "path #elbow"),
            (SvgFeature::Dashes, "path #dash"),
            (SvgFeature::StrokeJoin, "path #loop"),
            (SvgFeature::GradientOpacity, "path #faded"),
            (SvgFeature::Pattern, "path #dotted"),
            (SvgFeature::Filter, "group #blurred"),
            (SvgFeature::GroupOpacity, "group #ghost"),
        ];
        let want: Vec<(SvgFeature, String)> = want.iter().map(|(f, e)| (*f, e.to_string())).collect();
        // A closed circle has no caps and no corners, a gradient of one opacity is exact, a
        // group with one shape composes like a browser, clip paths and masks become masks:
        // none of those is reported.
        assert_eq!(got, want);
    }

    #[test]
    fn clip_paths_and_masks_become_masks_of_their_shapes_region() {
        // A clip path turned 90 degrees with the group, and a mask whose luminance is dark
        // (a browser would hide the content; Flash masks by shape, and so does pixelhit).
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">
          <defs>
            <clipPath id="c"><rect x="0" y="0" width="20" height="10"/></clipPath>
            <mask id="m"><circle cx="150" cy="150" r="10" fill="black"/></mask>
          </defs>
          <g id="clipped" clip-path="url(#c)" transform="translate(50 50) rotate(90)"><rect x="-100" y="-100" width="200" height="200"/></g>
          <g id="masked" mask="url(#m)"><rect x="100" y="100" width="100" height="100"/></g>
        </svg>"##;
        let mut stage = Stage::new();
        let root = stage.root();
        let load = SvgDocument::from_str(text)
            .unwrap()
            .add_to(&mut stage, root)
            .unwrap();
        assert!(load.warnings.is_empty(), "{:?}", load.warnings);
        let clipped = load.node("clipped").unwrap();
        let masked = load.node("masked").unwrap();
        assert!(stage.mask(clipped).unwrap().is_some());
        // The clip rectangle [0, 20] x [0, 10], turned 90 degrees about (50, 50): x 40..50, y 50..70.
        assert!(stage.hit_test_point(clipped, 45.0, 60.0, true).unwrap());
        assert!(!stage.hit_test_point(clipped, 55.0, 60.0, true).unwrap());
        assert!(!stage.hit_test_point(clipped, 45.0, 45.0, true).unwrap());
        assert!(stage.hit_test_point(masked, 150.0, 150.0, true).unwrap());
        assert!(!stage.hit_test_point(masked, 105.0, 105.0, true).unwrap());
    }

    #[test]
    fn warnings_name_unnamed_elements_by_box_and_context() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
          <g id="ship" transform="translate(10 20)"><g><path d="M0 0 H5" stroke="black"/></g></g>
        </svg>"##;
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = SvgDocument::from_str(text)
            .unwrap()
            .add_to(&mut stage, stage_root)
            .unwrap();
        let lines: Vec<String> = load.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            ["path at [10, 20, 5, 0] in #ship: stroke-linecap butt is drawn round"]
        );
    }

    /// Standard base64, for data URLs.
    fn base64(bytes: &[u8]) -> String {
        const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// A 4 x 2 PNG: the left half opaque, the right half transparent.
    fn half_png() -> Vec<u8> {
        let mut rgba = Vec::new();
        for _ in 0..2 {
            rgba.extend([255, 0, 0, 255].repeat(2));
            rgba.extend([0, 0, 0, 0].repeat(2));
        }
        Bitmap::from_rgba8(4, 2, rgba).unwrap().to_png_bytes().unwrap()
    }

    #[test]
    fn embedded_and_linked_pngs_become_bitmaps_scaled_to_their_box() {
        let dir = temp_dir("images");
        std::fs::write(dir.join("half.png"), half_png()).unwrap();
        std::fs::write(
            dir.join("photo.jpg"),
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'],
        )
        .unwrap();
        let text = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
              <image id="inline" x="10" y="10" width="40" height="20" href="data:image/png;base64,{}"/>
              <image id="linked" x="60" y="10" width="8" height="4" xlink:href="half.png" style="image-rendering: pixelated"/>
              <image id="lost" x="0" y="0" width="8" height="4" href="missing.png"/>
            </svg>"##,
            base64(&half_png())
        );
        let file = dir.join("sprites.svg");
        std::fs::write(&file, text).unwrap();
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = load_svg(&mut stage, stage_root, &file).unwrap();
        let inline = load.node("inline").unwrap();
        let linked = load.node("linked").unwrap();
        // The inline image fills [10, 50] x [10, 30]: its opaque half is x < 30.
        assert!(stage.hit_test_point(inline, 29.0, 20.0, true).unwrap());
        assert!(!stage.hit_test_point(inline, 31.0, 20.0, true).unwrap());
        assert_eq!(
            stage
                .tight_bounds(inline, stage.root())
                .unwrap()
                .unwrap()
                .to_xywh(),
            [10.0, 10.0, 40.0, 20.0]
        );
        let (bitmap, smoothing) = stage.bitmap(stage.children(linked).unwrap()[0]).unwrap().unwrap();
        assert_eq!((bitmap.width(), bitmap.height(), smoothing), (4, 2, false));
        assert!(stage.hit_test_point(linked, 63.5, 13.0, true).unwrap());
        assert!(!stage.hit_test_point(linked, 64.5, 13.0, true).unwrap());
        let missing: Vec<String> = load
            .warnings
            .iter()
            .filter(|w| w.feature == SvgFeature::Image)
            .map(|w| w.detail.clone())
            .collect();
        assert_eq!(missing.len(), 1, "{:?}", load.warnings);
        assert!(missing[0].contains("missing.png"), "{missing:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn linked_images_are_not_read_from_text_without_a_folder() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <image width="8" height="4" href="/etc/hostname"/></svg>"##;
        let got = features(text);
        assert_eq!(got, [(SvgFeature::Image, "image".to_string())]);
    }

    fn refused(text: &[u8]) -> String {
        match SvgDocument::from_data(text, "bad.svg", None) {
            Err(Error::Image { source, reason }) => {
                assert_eq!(source, "bad.svg");
                reason
            }
            other => panic!("expected an image error, got {other:?}"),
        }
    }

    #[test]
    fn files_that_are_not_svg_are_refused_with_a_reason() {
        assert!(refused(b"<svg").contains("not well-formed XML"));
        let mismatched = refused(b"<svg xmlns='http://www.w3.org/2000/svg'>\n<g></svg>");
        assert!(
            mismatched.contains("2:"),
            "the XML error has its line and column: {mismatched}"
        );
        assert!(refused(b"<html/>").contains("<html>"));
        assert!(refused(b"\xff\xfe<svg/>").contains("UTF-8"));
        assert!(refused(b"\x1f\x8b\x08\x00").contains("SVGZ"));
        let zero = refused(b"<svg xmlns='http://www.w3.org/2000/svg' width='0' height='10'/>");
        assert!(!zero.is_empty());
        assert!(matches!(
            SvgDocument::from_file("/nonexistent/ship.svg"),
            Err(Error::Io { .. })
        ));
    }

    #[test]
    fn deep_nesting_is_refused_and_the_limit_itself_loads() {
        let nest = |depth: usize| {
            let mut s = String::from("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>");
            s.push_str(&"<g transform='translate(0.01 0)'>".repeat(depth - 2));
            s.push_str("<rect width='1' height='1'/>");
            s.push_str(&"</g>".repeat(depth - 2));
            s.push_str("</svg>");
            s
        };
        // 100,000 levels: refused before usvg's recursion could overflow the stack.
        let reason = refused(nest(100_000).as_bytes());
        assert!(reason.contains("nest more than 128"), "{reason}");
        // 128 levels (svg, 126 groups, rect) load on a test thread's small stack.
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = SvgDocument::from_str(&nest(128))
            .unwrap()
            .add_to(&mut stage, stage_root)
            .unwrap();
        let b = stage.tight_bounds(load.root, stage.root()).unwrap().unwrap();
        assert!((b.x() - 1.26).abs() < 1e-4, "{b:?}");
    }

    #[test]
    fn a_failed_add_leaves_the_stage_as_it_was() {
        let doc = SvgDocument::from_str(SHIPS).unwrap();
        let mut stage = Stage::new();
        let bitmap = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap();
        let leaf = stage.add_bitmap(stage.root(), bitmap, false).unwrap();
        assert!(matches!(
            doc.add_to(&mut stage, leaf),
            Err(Error::NotContainer { .. })
        ));
        assert_eq!(stage.len(), 2);
    }

    #[test]
    fn one_document_adds_many_independent_copies() {
        let doc = SvgDocument::from_str(SHIPS).unwrap();
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let a = doc.add_to(&mut stage, stage_root).unwrap();
        let stage_root = stage.root();
        let b = doc.add_to(&mut stage, stage_root).unwrap();
        stage.set_x(b.root, 500.0).unwrap();
        let ship_a = a.node("ship").unwrap();
        let ship_b = b.node("ship").unwrap();
        assert_ne!(ship_a, ship_b);
        let root = stage.root();
        let ba = stage.bounds(ship_a, root).unwrap().unwrap();
        let bb = stage.bounds(ship_b, root).unwrap().unwrap();
        assert!((bb.x() - ba.x() - 500.0).abs() < 1e-9);
    }

    fn scene_dir_with(tag: &str, svg: &str, scene: &str) -> (PathBuf, PathBuf) {
        let dir = temp_dir(tag);
        std::fs::write(dir.join("ship.svg"), svg).unwrap();
        let file = dir.join("scene.json");
        std::fs::write(&file, scene).unwrap();
        (dir, file)
    }

    #[test]
    fn the_pngs_inside_a_scenes_svg_files_count_toward_its_image_limit() {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
              <image width="4" height="2" href="data:image/png;base64,{}"/>
            </svg>"#,
            base64(&half_png())
        );
        let scene = r#"{"pixelhit_scene": 1, "root": {"children": [{"name": "s", "svg": "ship.svg"}]}}"#;
        let (dir, file) = scene_dir_with("image-limit", &svg, scene);
        // The 4 x 2 PNG takes 32 bytes decoded.
        assert!(Scene::load_with_limits(&file, &SceneLimits::default().max_image_bytes(32)).is_ok());
        match Scene::load_with_limits(&file, &SceneLimits::default().max_image_bytes(31)) {
            Err(Error::Scene { location, reason, .. }) => {
                assert_eq!(location, "root.children[0].svg");
                assert!(reason.contains("images take more than 31 bytes"), "{reason}");
            }
            other => panic!("expected a scene error, got {other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scene_files_load_svg_objects_relative_to_the_file() {
        let scene = r#"{"pixelhit_scene": 1, "root": {"name": "stage", "children": [
            {"name": "fleet", "x": 10, "svg": "ship.svg"},
            {"name": "box", "graphics": [{"fill": "M60 50 H80 V70 H60 Z"}]}]},
          "queries": [{"collision_rect": {"a": "fleet", "b": "box", "parent": "stage"}}]}"#;
        let (dir, file) = scene_dir_with("relative", SHIPS, scene);
        let loaded = Scene::load(&file).unwrap();
        assert_eq!(loaded.warnings(), [] as [String; 0]);
        // The same answer as the hand-built tree moved by 10.
        let mut stage = Stage::new();
        let [root, ..] = ships_by_hand(&mut stage);
        stage.set_x(root, 10.0).unwrap();
        let bx = stage.add_container(stage.root()).unwrap();
        fill(&mut stage, bx, "M60 50 H80 V70 H60 Z", FillRule::NonZero, 1.0);
        let want = stage
            .collision(root, bx, stage.root(), &CollisionOptions::default())
            .unwrap();
        let line = loaded.run_query(&loaded.queries()[0]).unwrap();
        let r = want.rect.unwrap().to_xywh();
        assert_eq!(
            line,
            format!(
                "{{\"collision_rect\": [{}, {}, {}, {}], \"overlap_pixels\": {}}}",
                r[0],
                r[1],
                r[2],
                r[3],
                want.overlap_pixels.unwrap()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn scene_svg_objects_are_leaves_and_report_warnings_and_errors_by_field() {
        let dashed = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <path id="d" d="M0 0 H9" stroke="black" stroke-dasharray="1" stroke-linecap="round"/></svg>"##;
        let scene = r#"{"pixelhit_scene": 1, "root": {"children": [{"name": "a", "svg": "ship.svg"}]}}"#;
        let (dir, file) = scene_dir_with("leaves", dashed, scene);
        let loaded = Scene::load(&file).unwrap();
        assert_eq!(loaded.warnings().len(), 1);
        let w = &loaded.warnings()[0];
        assert!(
            w.contains("root.children[0].svg") && w.contains("path #d") && w.contains("dashed"),
            "{w}"
        );
        let location = |text: &str| match Scene::from_json(text, "s.json", &dir) {
            Err(Error::Scene { location, reason, .. }) => format!("{location}: {reason}"),
            other => panic!("expected a scene error, got {other:?}"),
        };
        let e =
            location(r#"{"pixelhit_scene": 1, "root": {"children": [{"svg": "ship.svg", "children": []}]}}"#);
        assert!(e.starts_with("root.children[0].svg: "), "{e}");
        let e = location(r#"{"pixelhit_scene": 1, "root": {"svg": "ship.svg"}}"#);
        assert!(e.starts_with("root.svg: "), "{e}");
        let e = location(r#"{"pixelhit_scene": 1, "root": {"children": [{"svg": "absent.svg"}]}}"#);
        assert!(
            e.starts_with("root.children[0].svg: ") && e.contains("absent.svg"),
            "{e}"
        );
        std::fs::write(dir.join("broken.svg"), "<svg").unwrap();
        let e = location(r#"{"pixelhit_scene": 1, "root": {"children": [{"svg": "broken.svg"}]}}"#);
        assert!(
            e.starts_with("root.children[0].svg: ") && e.contains("XML"),
            "{e}"
        );
        let e = location(r#"{"pixelhit_scene": 1, "root": {"children": [{"svg": 3}]}}"#);
        assert!(e.starts_with("root.children[0].svg: "), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn svg_paths_match_the_scene_files_path_data() {
        // The same path data through usvg and through Path::from_svg give the same pixels:
        // the scene format's `fill` and an SVG `path` mean the same shape.
        let d = "M2,3 c5,-4 10,4 15,0 s5,8 0,10 q-6,4 -12,0 t-3,-9 a4 3 0 0 1 2 -1 z";
        let text = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="30"><path d="{d}"/></svg>"#
        );
        let mut s = Stage::new();
        let s_root = s.root();
        let load = SvgDocument::from_str(&text)
            .unwrap()
            .add_to(&mut s, s_root)
            .unwrap();
        let by_hand = s.add_container(s.root()).unwrap();
        fill(&mut s, by_hand, d, FillRule::NonZero, 1.0);
        let probe = s.add_container(s.root()).unwrap();
        fill(&mut s, probe, "M0 0 H30 V30 H0 Z", FillRule::NonZero, 1.0);
        let root = s.root();
        let opts = CollisionOptions::default().tolerance(0);
        let a = s.collision(load.root, probe, root, &opts).unwrap();
        let b = s.collision(by_hand, probe, root, &opts).unwrap();
        assert_eq!(a.rect, b.rect);
        // Arcs become Béziers in usvg and in pixelhit by different rules: the fully covered
        // pixel counts may differ by an edge pixel or two, no more.
        let (na, nb) = (a.overlap_pixels.unwrap() as i64, b.overlap_pixels.unwrap() as i64);
        assert!((na - nb).abs() <= 2, "{na} vs {nb}");
    }

    #[test]
    fn the_command_prints_svg_warnings_on_stderr_and_still_answers() {
        let dashed = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <path id="d" d="M0 5 H9" stroke="black" stroke-width="2" stroke-dasharray="1" stroke-linecap="round"/></svg>"##;
        let scene = r#"{"pixelhit_scene": 1, "root": {"name": "stage", "children": [
            {"name": "a", "svg": "ship.svg"},
            {"name": "b", "graphics": [{"fill": "M4 0 H6 V10 H4 Z"}]}]},
          "queries": [{"collision_rect": {"a": "a", "b": "b", "parent": "stage"}}]}"#;
        let (dir, file) = scene_dir_with("command", dashed, scene);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pixelhit"))
            .args(["run", file.to_str().unwrap()])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        );
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        // The stroke is drawn solid: it crosses the bar over [4, 6] x [4, 6].
        assert_eq!(
            stdout,
            "{\"collision_rect\": [4, 4, 2, 2], \"overlap_pixels\": 4}\n"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("pixelhit: warning: "), "{stderr}");
        assert!(
            stderr.contains("root.children[0].svg: path #d: dashed stroke is drawn solid"),
            "{stderr}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_scene_with_svg_objects_saves_as_plain_objects_and_answers_the_same() {
        let dir = temp_dir("save");
        std::fs::write(dir.join("half.png"), half_png()).unwrap();
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160">{}<image x="200" y="100" width="8" height="4" href="half.png"/></svg>"##,
            &SHIPS[SHIPS.find("<g id=\"ship\"").unwrap()..SHIPS.rfind("</svg>").unwrap()]
        );
        std::fs::write(dir.join("ship.svg"), svg).unwrap();
        let scene = r#"{"pixelhit_scene": 1, "root": {"name": "stage", "children": [
            {"name": "fleet", "rotation": 10, "svg": "ship.svg"},
            {"name": "box", "graphics": [{"fill": "M60 50 H80 V70 H60 Z M195 95 H205 V105 H195 Z"}]}]},
          "queries": [{"collision_rect": {"a": "fleet", "b": "box", "parent": "stage"}},
                      {"bounds": {"object": "fleet", "space": "stage"}}]}"#;
        let file = dir.join("scene.json");
        std::fs::write(&file, scene).unwrap();
        let loaded = Scene::load(&file).unwrap();
        let copy = dir.join("copy.json");
        loaded.save(&copy).unwrap();
        assert!(!std::fs::read_to_string(&copy).unwrap().contains("\"svg\""));
        assert!(
            dir.join("copy_0.png").exists(),
            "the SVG's image is saved as a PNG"
        );
        let back = Scene::load(&copy).unwrap();
        for q in loaded.queries() {
            assert_eq!(loaded.run_query(q).unwrap(), back.run_query(q).unwrap());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `use` chains and references nest as deep as the elements they bring in: usvg walks
    /// them recursively, so they count against the same limit.
    #[test]
    fn use_chains_count_against_the_depth_limit() {
        let chain = |n: usize| {
            let mut s = String::from(
                r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><defs><rect id="g0" width="1" height="1"/>"#,
            );
            for k in 1..n {
                s.push_str(&format!(
                    r##"<g id="g{k}" transform="translate(0.01 0)"><use xlink:href="#g{}"/></g>"##,
                    k - 1
                ));
            }
            s.push_str(&format!(r##"</defs><use xlink:href="#g{}"/></svg>"##, n - 1));
            s
        };
        let reason = refused(chain(300).as_bytes());
        assert!(reason.contains("counting what `use`"), "{reason}");
        // 63 links: svg, use, then 62 times g and use, then the rect: 127 levels.
        let doc = SvgDocument::from_str(&chain(63)).unwrap();
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = doc.add_to(&mut stage, stage_root).unwrap();
        let b = stage.tight_bounds(load.root, stage_root).unwrap().unwrap();
        assert!((b.x() - 0.62).abs() < 1e-4, "{b:?}");
        // A clip-path chain is refused the same way, not handed to usvg's recursion.
        let mut clips = String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#);
        for k in 0..150 {
            let link = if k == 0 {
                String::new()
            } else {
                format!(r##" clip-path="url(#c{})""##, k - 1)
            };
            clips.push_str(&format!(
                r#"<clipPath id="c{k}"{link}><rect width="5" height="5"/></clipPath>"#
            ));
        }
        clips.push_str(r##"<rect width="5" height="5" clip-path="url(#c149)"/></svg>"##);
        assert!(refused(clips.as_bytes()).contains("nest more than 128"));
    }

    #[test]
    fn svg_images_load_one_level_deep() {
        let inner = r#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="2" height="4"/></svg>"#;
        let image = |svg: &str| {
            format!(
                r#"<image x="10" y="10" width="8" height="8" href="data:image/svg+xml;base64,{}"/>"#,
                base64(svg.as_bytes())
            )
        };
        let wrap = |body: &str| {
            format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">{body}</svg>"#)
        };
        let mut stage = Stage::new();
        let stage_root = stage.root();
        let load = SvgDocument::from_str(&wrap(&image(inner)))
            .unwrap()
            .add_to(&mut stage, stage_root)
            .unwrap();
        assert_eq!(load.warnings, vec![]);
        // The 4 x 4 image scaled to 8 x 8 at (10, 10): its left half is filled.
        assert!(stage.hit_test_point(load.root, 13.0, 14.0, true).unwrap());
        assert!(!stage.hit_test_point(load.root, 15.0, 14.0, true).unwrap());
        // An SVG image inside that one is reported, not loaded.
        let twice = SvgDocument::from_str(&wrap(&image(&wrap(&image(inner))))).unwrap();
        let load = twice.add_to(&mut stage, stage_root).unwrap();
        assert_eq!(load.warnings.len(), 1, "{:?}", load.warnings);
        assert_eq!(load.warnings[0].feature, SvgFeature::Image);
        assert!(
            load.warnings[0].detail.contains("inside another SVG image"),
            "{:?}",
            load.warnings
        );
    }

    /// A path of `points` points as SVG path data.
    fn zigzag(points: usize) -> String {
        let mut d = String::from("M0,0");
        for k in 1..points {
            d.push_str(&format!(" L{},{}", k % 97, (k * 7) % 89));
        }
        d
    }

    #[test]
    fn markers_drawn_at_every_vertex_are_counted_before_usvg_expands_them() {
        // A marker of 200 small paths at each of 30,000 vertices: 6 million paths once
        // expanded (over 6 GB for a 157 KB file before). Refused from the count, at once.
        let marker: String = (0..200)
            .map(|k| format!("<path d='M{k},0 L{k},1 L1,1'/>"))
            .collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <defs><marker id="m">{marker}</marker></defs>
              <path d="{}" marker-mid="url(#m)" stroke="black"/>
            </svg>"#,
            zigzag(30_000)
        );
        let reason = refused(svg.as_bytes());
        assert!(reason.contains("svg::SVG_EXPANDED"), "{reason}");
        // The same marker on a short path loads, every instance drawn.
        let small = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <defs><marker id="m">{marker}</marker></defs>
              <path d="{}" marker-mid="url(#m)" stroke="black"/>
            </svg>"#,
            zigzag(10)
        );
        let doc = SvgDocument::from_data(small.as_bytes(), "small.svg", None).unwrap();
        assert!(doc.expanded_size() > 8 * 200, "{}", doc.expanded_size());
    }

    #[test]
    fn use_references_multiply_and_are_counted() {
        // A path of 1,000 points shown by 5,000 `use` elements: 5 million points.
        let uses: String = (0..5000).map(|k| format!("<use href='#p' x='{k}'/>")).collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <defs><path id="p" d="{}"/></defs>{uses}
            </svg>"#,
            zigzag(1000)
        );
        assert!(refused(svg.as_bytes()).contains("svg::SVG_EXPANDED"));
    }

    #[test]
    fn one_file_shown_by_many_objects_counts_each_time_against_the_scene() {
        // 1.2 million points per copy (a path of 1,000 points used 1,200 times), shown by 16
        // objects: 19 million, past the scene's budget (16 references took 1.9 GB before).
        let uses: String = (0..1200).map(|k| format!("<use href='#p' x='{k}'/>")).collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <defs><path id="p" d="{}"/></defs>{uses}
            </svg>"#,
            zigzag(1000)
        );
        let objects = |n: usize| {
            let list: Vec<String> = (0..n)
                .map(|k| format!(r#"{{"name": "s{k}", "svg": "ship.svg"}}"#))
                .collect();
            format!(
                r#"{{"pixelhit_scene": 1, "root": {{"children": [{}]}}}}"#,
                list.join(", ")
            )
        };
        let (dir, file) = scene_dir_with("many-refs", &svg, &objects(16));
        match Scene::load(&file) {
            Err(Error::Scene { location, reason, .. }) => {
                assert!(
                    location.starts_with("root.children[") && location.ends_with("].svg"),
                    "{location}"
                );
                assert!(reason.contains("svg::SCENE_SVG_EXPANDED"), "{reason}");
            }
            other => panic!("expected a scene error, got {:?}", other.map(|_| ())),
        }
        std::fs::write(&file, objects(2)).unwrap();
        let scene = Scene::load(&file).unwrap();
        assert!(scene.node("s1").is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn svg_images_parsed_once_per_element_count_toward_the_document() {
        // 400 <image> elements showing one SVG file of 20,000 points: usvg parses it for each
        // (918 MB for a 358 B file before). Past the document's budget they are not loaded,
        // with a warning.
        let dir = temp_dir("nested-images");
        let nested = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="{}"/></svg>"#,
            zigzag(20_000)
        );
        std::fs::write(dir.join("inner.svg"), nested).unwrap();
        let images: String = (0..400)
            .map(|k| format!("<image x='{k}' width='10' height='10' href='inner.svg'/>"))
            .collect();
        let outer =
            format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="500" height="10">{images}</svg>"#);
        std::fs::write(dir.join("outer.svg"), &outer).unwrap();
        let doc = SvgDocument::from_file(dir.join("outer.svg")).unwrap();
        let mut stage = Stage::new();
        let root = stage.root();
        let load = doc.add_to(&mut stage, root).unwrap();
        let skipped = load
            .warnings
            .iter()
            .filter(|w| w.detail.contains("svg::SVG_EXPANDED"))
            .count();
        assert!(skipped > 100 && skipped < 400, "{skipped} images skipped");
        assert!(doc.expanded_size() <= pixelhit::svg::SVG_EXPANDED);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn style_sheets_that_would_match_too_long_are_refused() {
        let rules: String = (0..5000).map(|k| format!(".c{k} {{ fill: red }}\n")).collect();
        let rects: String = (0..5000)
            .map(|k| format!("<rect class='c{k}' width='1' height='1'/>"))
            .collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>{rules}</style>{rects}</svg>"#
        );
        let reason = refused(svg.as_bytes());
        assert!(reason.contains("svg::SVG_CSS_MATCHES"), "{reason}");
        let few = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>{}</style>{rects}</svg>"#,
            &rules[..rules.len() / 50]
        );
        assert!(SvgDocument::from_data(few.as_bytes(), "few.svg", None).is_ok());
    }
}
