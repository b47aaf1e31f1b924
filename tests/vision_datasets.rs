//! Detection accuracy on the shared real photo sets (every photo with ground-truth corners):
//! the share of photos with all four corners within 3 % of the grid side must not fall below
//! what the detector reaches today (2026-11-21: wichtounet 153/158, kubiesa-train 80/80,
//! kubiesa-val 80/80, measured with `sudoku-lens eval DIR`). The floors sit one or two photos
//! below that: they are regression guards (a detector change that loses photos fails here),
//! not the product's target, which is 98 % on every set. Four of wichtounet's misses are
//! ground-truth errors (image115, image118, image1036, image1082: a true corner lies outside
//! the printed grid) and a fifth (image87) has its true corner on the photo's edge where the
//! grid is cut off, so 98 % there is out of reach of a correct detector.

mod common;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::eval::{CORNER_TOLERANCE_PCT, corner_error_pct};
use sudoku_lens::vision::{self, Point};

/// Checks every photo of set `name`, first shrunk to `long_side_px` (its long side) when
/// given, as a webcam would deliver it.
fn check_set(name: &str, floor_pct: usize) {
    check_set_at(name, floor_pct, None);
}

fn check_set_at(name: &str, floor_pct: usize, long_side_px: Option<u32>) {
    let ds = Dataset::open(common::shared_dataset(name)).unwrap_or_else(|e| panic!("{e}"));
    let (mut total, mut good) = (0, 0);
    let mut failures = Vec::new();
    for photo in &ds.photos {
        let Some(truth) = photo.corners_in_image else {
            continue;
        };
        total += 1;
        let mut image = vision::load_image(&photo.image_path).unwrap();
        let mut truth = truth;
        if let Some(long) = long_side_px {
            let (w, h) = (image.width() as f32, image.height() as f32);
            image = image.resize(long, long, image::imageops::FilterType::Triangle);
            let (sx, sy) = (image.width() as f32 / w, image.height() as f32 / h);
            truth = truth.map(|p| Point::new((p.x + 0.5) * sx - 0.5, (p.y + 0.5) * sy - 0.5));
        }
        match vision::detect(&image) {
            Ok(d) => {
                let e = corner_error_pct(d.corners_in_image, truth);
                if e <= CORNER_TOLERANCE_PCT {
                    good += 1;
                } else {
                    failures.push(format!("{} {e:.1}%", photo.name));
                }
            }
            Err(e) => failures.push(format!("{} {e}", photo.name)),
        }
    }
    assert!(total >= 20, "{name}: only {total} photos");
    eprintln!("{name} ({long_side_px:?} px): {good}/{total} within 3 %; misses {failures:?}");
    assert!(
        good * 100 >= total * floor_pct,
        "{name}: {good}/{total} within 3 %; failures {failures:?}"
    );
}

#[test]
fn wichtounet_corners_within_3pct() {
    check_set("wichtounet-v2-train", 96);
}

#[test]
fn kubiesa_train_corners_within_3pct() {
    check_set("kubiesa-train", 98);
}

#[test]
fn kubiesa_val_corners_within_3pct() {
    check_set("kubiesa-val", 98);
}

/// The validation photos shrunk to 640 px, a webcam's resolution (2026-11-21: 78/80. The
/// misses: 01_06_honor_view_10_1 has its bottom-left cells in a hand's shadow, and at this size
/// 01_04_iphone_14_1's handwriting and pencil marks put nearly as much ink between the lines
/// as on them, while 32 of its 180 lattice edges lack ink).
#[test]
fn kubiesa_val_corners_within_3pct_at_webcam_resolution() {
    check_set_at("kubiesa-val", 96, Some(640));
}

/// The committed corner fixes (models/train/label-fixes/wichtounet-mixed-train/corners.csv)
/// are where the grid is. wichtounet-mixed-train (CC BY 4.0, B. Wicht & J. Hennebert) holds
/// the pixels of wichtounet-v2-train's photos, but six of its corner rows are in the frame of
/// those photos' former EXIF tag, so the training export cut their cells off the grid. Each
/// fix is v2's row for the same photo, the detector finds the grid within 3 % of it, and the
/// set's own row lies more than 10 % from it.
#[test]
fn the_committed_corner_fixes_of_wichtounet_mixed_are_where_the_grid_is() {
    let fixes =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/train/label-fixes");
    let own = Dataset::open(common::shared_dataset("wichtounet-mixed-train")).unwrap();
    let fixed = own.clone().with_label_fixes(&fixes).unwrap();
    let v2 = Dataset::open(common::shared_dataset("wichtounet-v2-train")).unwrap();
    let mut checked = Vec::new();
    for (photo, fix) in own.photos.iter().zip(&fixed.photos) {
        if photo.corners_in_image == fix.corners_in_image {
            continue;
        }
        let fix_corners = fix.corners_in_image.unwrap();
        let same_photo = v2.photos.iter().find(|p| p.name == photo.name).unwrap();
        assert_eq!(
            same_photo.corners_in_image,
            Some(fix_corners),
            "{}",
            photo.name
        );
        let image = vision::load_image(&photo.image_path).unwrap();
        let found = vision::detect(&image).unwrap().corners_in_image;
        let to_fix = corner_error_pct(found, fix_corners);
        let to_own = corner_error_pct(found, photo.corners_in_image.unwrap());
        assert!(
            to_fix <= CORNER_TOLERANCE_PCT,
            "{}: {to_fix:.1} % from the fix",
            photo.name
        );
        assert!(
            to_own > 10.0,
            "{}: {to_own:.1} % from the set's own row",
            photo.name
        );
        checked.push(photo.name.clone());
    }
    assert_eq!(
        checked,
        [
            "image1031",
            "image1036",
            "image1038",
            "image1039",
            "image1040",
            "image1043"
        ]
    );
}
