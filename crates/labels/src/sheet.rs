//! Where labels sit on a page: a grid of equal labels (a single label per page for a
//! roll or a shipping label), measured in tenths of a millimetre.

use thiserror::Error;

/// A length in tenths of a millimetre (`665` is 66.5 mm).
pub type Tenths = u32;

/// The largest page side accepted: 1 m.
pub const MAX_PAGE: Tenths = 10_000;
/// The smallest label: room for a readable QR code and a line of text.
pub const MIN_LABEL: (Tenths, Tenths) = (200, 100);
/// The most labels across or down a page.
pub const MAX_GRID: u32 = 50;

/// The templates every company starts with (for each template type), the first the
/// default: a 62 x 29 mm roll label, a 4 x 6 inch shipping label, a US Letter sheet
/// of 30 (1 x 2 5/8 in) and an A4 sheet of 24 (70 x 37 mm). Migration 0016 holds the
/// same figures for companies made before it.
pub const STANDARD: [(&str, SheetSpec); 4] = [
    ("62 x 29 mm roll label", single(620, 290)),
    ("4 x 6 in shipping label", single(1016, 1524)),
    (
        "US Letter sheet of 30 (1 x 2 5/8 in)",
        SheetSpec {
            page_width: 2159,
            page_height: 2794,
            label_width: 667,
            label_height: 254,
            columns: 3,
            rows: 10,
            margin_left: 48,
            margin_top: 127,
            gap_x: 31,
            gap_y: 0,
        },
    ),
    (
        "A4 sheet of 24 (70 x 37 mm)",
        SheetSpec {
            page_width: 2100,
            page_height: 2970,
            label_width: 700,
            label_height: 370,
            columns: 3,
            rows: 8,
            margin_left: 0,
            margin_top: 5,
            gap_x: 0,
            gap_y: 0,
        },
    ),
];

/// A page that is one label (a roll, a shipping label).
const fn single(width: Tenths, height: Tenths) -> SheetSpec {
    SheetSpec {
        page_width: width,
        page_height: height,
        label_width: width,
        label_height: height,
        columns: 1,
        rows: 1,
        margin_left: 0,
        margin_top: 0,
        gap_x: 0,
        gap_y: 0,
    }
}

/// A sheet's measurements as given; [`Sheet::new`] checks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetSpec {
    pub page_width: Tenths,
    pub page_height: Tenths,
    pub label_width: Tenths,
    pub label_height: Tenths,
    pub columns: u32,
    pub rows: u32,
    pub margin_left: Tenths,
    pub margin_top: Tenths,
    pub gap_x: Tenths,
    pub gap_y: Tenths,
}

/// Why measurements make no sheet: the field (as [`SheetSpec`] names it) and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field} {message}")]
pub struct SheetError {
    pub field: &'static str,
    pub message: String,
}

fn refuse(field: &'static str, message: impl Into<String>) -> SheetError {
    SheetError {
        field,
        message: message.into(),
    }
}

/// Measurements that fit: every label lies on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sheet(SheetSpec);

/// A label's box on its page, in PDF points from the page's lower left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub page: usize,
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// Points in a tenth of a millimetre.
const PT_PER_TENTH: f32 = 72.0 / 254.0;

impl Sheet {
    /// Checks the measurements: sides within 1 m, labels at least 20 × 10 mm, at most
    /// 50 across and down, and the grid (margins, labels and gaps) within the page.
    pub fn new(s: SheetSpec) -> Result<Sheet, SheetError> {
        for (field, v) in [("page_width", s.page_width), ("page_height", s.page_height)] {
            if v == 0 || v > MAX_PAGE {
                return Err(refuse(field, "must be more than 0 and at most 1000 mm"));
            }
        }
        if s.label_width < MIN_LABEL.0 {
            return Err(refuse("label_width", "must be at least 20 mm"));
        }
        if s.label_height < MIN_LABEL.1 {
            return Err(refuse("label_height", "must be at least 10 mm"));
        }
        for (field, v) in [("columns", s.columns), ("rows", s.rows)] {
            if v == 0 || v > MAX_GRID {
                return Err(refuse(field, format!("must be 1 to {MAX_GRID}")));
            }
        }
        let across = u64::from(s.margin_left)
            + u64::from(s.columns) * u64::from(s.label_width)
            + u64::from(s.columns - 1) * u64::from(s.gap_x);
        if across > u64::from(s.page_width) {
            return Err(refuse(
                "page_width",
                format!(
                    "is too narrow: the left margin, {} labels and their gaps take {} mm",
                    s.columns,
                    mm(across)
                ),
            ));
        }
        let down = u64::from(s.margin_top)
            + u64::from(s.rows) * u64::from(s.label_height)
            + u64::from(s.rows - 1) * u64::from(s.gap_y);
        if down > u64::from(s.page_height) {
            return Err(refuse(
                "page_height",
                format!(
                    "is too short: the top margin, {} rows of labels and their gaps take {} mm",
                    s.rows,
                    mm(down)
                ),
            ));
        }
        Ok(Sheet(s))
    }

    pub fn spec(&self) -> &SheetSpec {
        &self.0
    }

    /// Labels on one page.
    pub fn per_page(&self) -> usize {
        (self.0.columns * self.0.rows) as usize
    }

    /// The page size in points.
    pub fn page_size(&self) -> (f32, f32) {
        (pt(self.0.page_width), pt(self.0.page_height))
    }

    /// Where the `index`th label goes: pages filled row by row, left to right.
    pub fn slot(&self, index: usize) -> Slot {
        let s = &self.0;
        let per_page = self.per_page();
        let (page, at) = (index / per_page, index % per_page);
        let (col, row) = (at as u32 % s.columns, at as u32 / s.columns);
        let left = s.margin_left + col * (s.label_width + s.gap_x);
        let top = s.margin_top + row * (s.label_height + s.gap_y);
        Slot {
            page,
            x: pt(left),
            y: pt(s.page_height) - pt(top) - pt(s.label_height),
            width: pt(s.label_width),
            height: pt(s.label_height),
        }
    }
}

fn pt(t: Tenths) -> f32 {
    t as f32 * PT_PER_TENTH
}

/// Tenths as millimetres for a message: `66.5`, `70`.
pub fn mm(t: u64) -> String {
    if t.is_multiple_of(10) {
        (t / 10).to_string()
    } else {
        format!("{}.{}", t / 10, t % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a4_24() -> SheetSpec {
        SheetSpec {
            page_width: 2100,
            page_height: 2970,
            label_width: 700,
            label_height: 370,
            columns: 3,
            rows: 8,
            margin_left: 0,
            margin_top: 0,
            gap_x: 0,
            gap_y: 0,
        }
    }

    #[test]
    fn the_standard_templates_fit() {
        for (name, spec) in STANDARD {
            assert!(Sheet::new(spec).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_grid_fills_pages_row_by_row() {
        let sheet = Sheet::new(a4_24()).unwrap();
        assert_eq!(sheet.per_page(), 24);
        let first = sheet.slot(0);
        assert_eq!(first.page, 0);
        assert!((first.x - 0.0).abs() < 0.01);
        assert!((first.y - (297.0 - 37.0) * 72.0 / 25.4).abs() < 0.01);
        let second = sheet.slot(1);
        assert!((second.x - 70.0 * 72.0 / 25.4).abs() < 0.01);
        assert!((sheet.slot(3).y - (297.0 - 74.0) * 72.0 / 25.4).abs() < 0.01);
        assert_eq!(sheet.slot(24).page, 1);
        assert!((sheet.slot(24).x - first.x).abs() < 0.01);
    }

    #[test]
    fn measurements_that_do_not_fit_are_refused_naming_the_field() {
        let cases = [
            (
                SheetSpec {
                    page_width: 0,
                    ..a4_24()
                },
                "page_width",
            ),
            (
                SheetSpec {
                    page_height: 10_001,
                    ..a4_24()
                },
                "page_height",
            ),
            (
                SheetSpec {
                    label_width: 199,
                    ..a4_24()
                },
                "label_width",
            ),
            (
                SheetSpec {
                    label_height: 99,
                    ..a4_24()
                },
                "label_height",
            ),
            (
                SheetSpec {
                    columns: 0,
                    ..a4_24()
                },
                "columns",
            ),
            (
                SheetSpec {
                    rows: 51,
                    ..a4_24()
                },
                "rows",
            ),
            (
                SheetSpec {
                    margin_left: 1,
                    ..a4_24()
                },
                "page_width",
            ),
            (
                SheetSpec {
                    gap_y: 2,
                    ..a4_24()
                },
                "page_height",
            ),
            (
                SheetSpec {
                    columns: 4,
                    ..a4_24()
                },
                "page_width",
            ),
        ];
        for (spec, field) in cases {
            assert_eq!(Sheet::new(spec).unwrap_err().field, field, "{spec:?}");
        }
        let err = Sheet::new(SheetSpec {
            columns: 4,
            ..a4_24()
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "page_width is too narrow: the left margin, 4 labels and their gaps take 280 mm"
        );
    }
}
