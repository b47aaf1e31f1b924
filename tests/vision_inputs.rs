//! Bad and unusual input files: each must give a clear error or a correct result, never a
//! panic. Files are written to a temporary folder by the tests themselves.

mod common;

use std::io::Write as _;
use std::path::Path;

use image::{DynamicImage, GrayImage, ImageEncoder, Luma};
use sudoku_lens::vision::{LoadError, NoGrid, Point, detect, load_image};

/// A clean synthetic Sudoku (640×480, grid 360 px at (140, 60)) with a few digit-like strokes.
fn synthetic_sudoku() -> GrayImage {
    let mut img = GrayImage::from_pixel(640, 480, Luma([215]));
    let (x0, y0, side) = (140u32, 60u32, 360u32);
    let cell = side / 9;
    for i in 0..=9 {
        let t = if i % 3 == 0 { 3 } else { 1 };
        let p = i * cell;
        for a in 0..=side {
            for d in 0..t {
                img.put_pixel(x0 + p + d - t / 2, y0 + a, Luma([25]));
                img.put_pixel(x0 + a, y0 + p + d - t / 2, Luma([25]));
            }
        }
    }
    for (r, c) in [(0u32, 1u32), (2, 4), (4, 4), (5, 7), (8, 0), (7, 3)] {
        let (cx, cy) = (x0 + c * cell + cell / 2, y0 + r * cell + cell / 2);
        for y in cy - 12..cy + 12 {
            for x in cx - 2..cx + 2 {
                img.put_pixel(x, y, Luma([30]));
            }
        }
    }
    img
}

fn expected_corners() -> [Point; 4] {
    [
        Point::new(140.0, 60.0),
        Point::new(500.0, 60.0),
        Point::new(500.0, 420.0),
        Point::new(140.0, 420.0),
    ]
}

fn assert_found(image: &DynamicImage, truth: [Point; 4], what: &str) {
    let d = detect(image).unwrap_or_else(|e| panic!("{what}: {e}"));
    for (a, b) in d.corners_in_image.iter().zip(truth) {
        assert!(a.distance(b) < 5.0, "{what}: corner {a:?} vs {b:?}");
    }
}

fn write(path: &Path, bytes: &[u8]) {
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn missing_empty_corrupt_and_truncated_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.png");
    let e = load_image(&missing).unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }));
    assert!(e.to_string().contains("missing.png"));

    let empty = dir.path().join("empty.jpg");
    write(&empty, b"");
    assert!(
        load_image(&empty)
            .unwrap_err()
            .to_string()
            .contains("empty.jpg")
    );

    let garbage = dir.path().join("garbage.png");
    write(
        &garbage,
        &(0..5000u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect::<Vec<_>>(),
    );
    assert!(matches!(
        load_image(&garbage),
        Err(LoadError::UnknownFormat { .. })
    ));

    // A real PNG and JPEG cut in half: an error or a partial image, never a panic.
    let img = DynamicImage::ImageLuma8(synthetic_sudoku());
    for (name, fmt) in [
        ("cut.png", image::ImageFormat::Png),
        ("cut.jpg", image::ImageFormat::Jpeg),
    ] {
        let mut bytes = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut bytes), fmt)
            .unwrap();
        let path = dir.path().join(name);
        write(&path, &bytes[..bytes.len() / 2]);
        if let Ok(partial) = load_image(&path) {
            let _ = detect(&partial);
        }
        // Corrupt the middle instead.
        let mut broken = bytes.clone();
        let mid = broken.len() / 2;
        broken[mid..mid + 64].iter_mut().for_each(|b| *b = !*b);
        write(&path, &broken);
        if let Ok(partial) = load_image(&path) {
            let _ = detect(&partial);
        }
    }
}

#[test]
fn tiny_images_are_no_grid() {
    for (w, h) in [(1, 1), (2, 300), (31, 31), (300, 3)] {
        let img = DynamicImage::ImageLuma8(GrayImage::from_pixel(w, h, Luma([128])));
        assert!(
            matches!(detect(&img), Err(NoGrid::TooSmall { .. })),
            "{w}×{h}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.png");
    GrayImage::from_pixel(1, 1, Luma([0])).save(&path).unwrap();
    let img = load_image(&path).unwrap();
    assert!(detect(&img).is_err());
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

#[test]
fn huge_dimensions_are_refused_from_the_header() {
    // A PNG whose header claims 20000×20000 (8-bit gray) but carries almost no data: decoding
    // would need 400 MB; the loader must refuse before allocating.
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&20000u32.to_be_bytes());
    ihdr.extend_from_slice(&20000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &[0x78, 0x01, 0x01, 0x00, 0x00]);
    chunk(&mut png, b"IEND", &[]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    write(&path, &png);
    match load_image(&path) {
        Err(LoadError::TooLarge {
            width: 20000,
            height: 20000,
            ..
        }) => {}
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let msg = load_image(&path).unwrap_err().to_string();
    assert!(msg.contains("huge.png") && msg.contains("20000"), "{msg}");
}

#[test]
fn gray_alpha_and_16_bit_pngs_are_found() {
    let gray = synthetic_sudoku();
    let dir = tempfile::tempdir().unwrap();
    let la8 = DynamicImage::ImageLumaA8(image::ImageBuffer::from_fn(640, 480, |x, y| {
        image::LumaA([gray.get_pixel(x, y).0[0], 255])
    }));
    let l16 = DynamicImage::ImageLuma16(image::ImageBuffer::from_fn(640, 480, |x, y| {
        Luma([gray.get_pixel(x, y).0[0] as u16 * 257])
    }));
    let rgba16 = DynamicImage::ImageRgba16(image::ImageBuffer::from_fn(640, 480, |x, y| {
        let v = gray.get_pixel(x, y).0[0] as u16 * 257;
        image::Rgba([v, v, v, 65535])
    }));
    for (name, img) in [("la8.png", la8), ("l16.png", l16), ("rgba16.png", rgba16)] {
        let path = dir.path().join(name);
        img.save(&path).unwrap();
        let loaded = load_image(&path).unwrap();
        assert_eq!(loaded.color(), img.color(), "{name}");
        assert_found(&loaded, expected_corners(), name);
    }
}

#[test]
fn exif_orientation_is_applied() {
    // Store the photo rotated 90° counter-clockwise with orientation 6 ("rotate 90° clockwise
    // to display"): the loader must hand back the upright picture.
    let upright = synthetic_sudoku();
    let stored = image::imageops::rotate270(&upright);
    let mut exif = b"MM\x00\x2a\x00\x00\x00\x08".to_vec();
    exif.extend_from_slice(&1u16.to_be_bytes());
    exif.extend_from_slice(&[
        0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00,
    ]);
    exif.extend_from_slice(&0u32.to_be_bytes());
    let mut bytes = Vec::new();
    let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 92);
    enc.set_exif_metadata(exif).unwrap();
    enc.write_image(
        stored.as_raw(),
        stored.width(),
        stored.height(),
        image::ExtendedColorType::L8,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rotated.jpg");
    write(&path, &bytes);
    let loaded = load_image(&path).unwrap();
    assert_eq!((loaded.width(), loaded.height()), (640, 480));
    // The digit stroke in r1c2 is where it is upright.
    let g = loaded.to_luma8();
    assert!(g.get_pixel(140 + 40 + 20, 60 + 20).0[0] < 100);
    assert_found(&loaded, expected_corners(), "rotated.jpg");
}

/// A BMP header (24-bit, uncompressed) announcing `width`×`height` with no pixel data.
fn bmp_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"BM".to_vec();
    b.extend_from_slice(&54u32.to_le_bytes()); // file size (as declared)
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&54u32.to_le_bytes()); // pixel data offset
    b.extend_from_slice(&40u32.to_le_bytes()); // BITMAPINFOHEADER
    b.extend_from_slice(&width.to_le_bytes());
    b.extend_from_slice(&height.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b
}

#[test]
fn large_photos_are_read_reduced_and_other_large_files_refused() {
    // A kubiesa-val photo (MIT, A. Kubiesa) enlarged 3× (17 MP) reads at a reduced size
    // (JPEG: half, by scaled IDCT; PNG: a third, rows averaged as they come) into the same grid as the original.
    let set = sudoku_lens::dataset::Dataset::open(common::shared_dataset("kubiesa-val"))
        .expect("kubiesa-val opens");
    let photo = &set.photos[0];
    let original = load_image(&photo.image_path).unwrap().to_luma8();
    let mut scanner = sudoku_lens::scan::Scanner::with_default_model().unwrap();
    let want = scanner.scan_gray(&original).unwrap().values;
    let (w, h) = (original.width() * 3, original.height() * 3);
    let big = image::imageops::resize(&original, w, h, image::imageops::FilterType::Triangle);
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [
        ("big.jpg", image::ImageFormat::Jpeg),
        ("big.png", image::ImageFormat::Png),
    ] {
        let path = dir.path().join(name);
        big.save_with_format(&path, format).unwrap();
        let loaded = load_image(&path).unwrap();
        let (lw, lh) = (loaded.width(), loaded.height());
        assert!(
            u64::from(lw) * u64::from(lh) <= 8_000_000 && lw >= w / 3,
            "{name}: {lw}×{lh}"
        );
        let got = scanner.scan(&loaded).unwrap().values;
        assert_eq!(
            got, want,
            "{name}: read differently from the original photo"
        );
    }
    // A format without a reduced decoder is refused above 12 MP, from its header.
    let path = dir.path().join("big.bmp");
    write(&path, &bmp_header(5000, 3000));
    match load_image(&path) {
        Err(LoadError::TooLarge {
            width: 5000,
            height: 3000,
            ..
        }) => {}
        other => panic!("expected TooLarge, got {other:?}"),
    }
}
