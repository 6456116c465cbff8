//! One label's drawing: the QR code on the left (on top, for a label taller than wide)
//! and the lines of text beside (below) it, each shrunk to fit and, if still too long,
//! cut with an ellipsis.

use pdf_writer::Content;
use qrcode::{Color, EcLevel, QrCode};

use crate::fonts::{FontSet, width};
use crate::{Label, RenderError, Slot};

/// A label ready to paint.
pub(crate) struct Drawn {
    pub page: usize,
    qr: Qr,
    pub lines: Vec<Line>,
}

struct Qr {
    x: f32,
    y: f32,
    module: f32,
    size: usize,
    dark: Vec<bool>,
}

pub(crate) struct Line {
    x: f32,
    baseline: f32,
    size: f32,
    pub text: String,
}

/// Modules of white around the code, as QR readers need.
const QUIET: usize = 4;
/// The largest type, in points.
const MAX_TYPE: f32 = 12.0;
/// Below this, the less important lines give way.
const MIN_TYPE: f32 = 4.5;
/// How far a long line may shrink below its size before it is cut.
const SHRINK: f32 = 0.5;
/// A line's height over its type size.
const LEADING: f32 = 1.2;

pub(crate) fn draw(slot: Slot, label: &Label, index: usize) -> Result<Drawn, RenderError> {
    let code =
        QrCode::with_error_correction_level(label.link.as_bytes(), EcLevel::M).map_err(|_| {
            RenderError::LinkTooLong {
                index,
                len: label.link.len(),
            }
        })?;
    let Slot {
        x,
        y,
        width: w,
        height: h,
        ..
    } = slot;
    let pad = (5.67f32).min(0.08 * w.min(h));
    // (QR side, QR corner, text box left, top, width, height)
    let (side, qx, qy, tx, top, tw, th) = if w >= 1.25 * h {
        let side = (h - 2.0 * pad).min(0.5 * w);
        let tx = x + 2.0 * pad + side;
        (
            side,
            x + pad,
            y + (h - side) / 2.0,
            tx,
            y + h - pad,
            x + w - pad - tx,
            h - 2.0 * pad,
        )
    } else {
        let side = (w - 2.0 * pad).min(0.62 * (h - 3.0 * pad));
        let top = y + h - 2.0 * pad - side;
        (
            side,
            x + (w - side) / 2.0,
            y + h - pad - side,
            x + pad,
            top,
            w - 2.0 * pad,
            h - 3.0 * pad - side,
        )
    };
    let n = code.width();
    let dark = code
        .to_colors()
        .into_iter()
        .map(|c| c == Color::Dark)
        .collect();
    let qr = Qr {
        x: qx,
        y: qy,
        module: side / (n + 2 * QUIET) as f32,
        size: n,
        dark,
    };
    Ok(Drawn {
        page: slot.page,
        qr,
        lines: text_lines(label, tx, top, tw, th),
    })
}

/// The lines of a label in a box `tw` wide and `th` high whose top is `top`.
fn text_lines(label: &Label, x: f32, top: f32, tw: f32, th: f32) -> Vec<Line> {
    // (text, type size relative to the base)
    let mut wanted: Vec<(String, f32)> =
        vec![(clean(&label.name), 1.2), (clean(&label.number), 1.0)];
    if let Some(id) = label
        .identifier
        .as_deref()
        .map(clean)
        .filter(|i| !i.is_empty())
    {
        wanted.push((id, 1.0));
    }
    wanted.push((clean(&label.company), 0.85));
    let base = |lines: &[(String, f32)]| {
        let sum: f32 = lines.iter().map(|l| l.1).sum();
        (th / (LEADING * sum)).min(MAX_TYPE)
    };
    // The company, then the identifier, give way while the type is too small.
    while wanted.len() > 2 && base(&wanted) < MIN_TYPE {
        wanted.pop();
    }
    let f = base(&wanted);
    let mut cursor = top;
    wanted
        .into_iter()
        .map(|(text, scale)| {
            // A long line shrinks to fit, down to half its size; past that it is cut.
            let nominal = f * scale;
            let size = (tw / width(&text).max(0.01)).clamp(nominal * SHRINK, nominal);
            cursor -= size;
            let line = Line {
                x,
                baseline: cursor,
                size,
                text: fit(&text, tw / size),
            };
            cursor -= (LEADING - 1.0) * size;
            line
        })
        .collect()
}

/// One line of text: control characters (a newline in a name) become spaces.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// `text` if it is at most `ems` wide, else as much of it as fits followed by "…".
fn fit(text: &str, ems: f32) -> String {
    if width(text) <= ems {
        return text.to_owned();
    }
    let room = ems - width("…");
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        used += crate::fonts::advance(c);
        if used > room {
            break;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

pub(crate) fn paint(content: &mut Content, d: &Drawn, fonts: &FontSet) {
    let q = &d.qr;
    content.set_fill_gray(0.0);
    for row in 0..q.size {
        let y = q.y + q.module * (q.size + QUIET - 1 - row) as f32;
        let mut col = 0;
        while col < q.size {
            if q.dark[row * q.size + col] {
                let start = col;
                while col < q.size && q.dark[row * q.size + col] {
                    col += 1;
                }
                let x = q.x + q.module * (QUIET + start) as f32;
                content.rect(x, y, q.module * (col - start) as f32, q.module);
            } else {
                col += 1;
            }
        }
    }
    content.fill_nonzero();
    content.begin_text();
    for line in &d.lines {
        content.set_text_matrix([1.0, 0.0, 0.0, 1.0, line.x, line.baseline]);
        fonts.show(content, &line.text, line.size);
    }
    content.end_text();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_an_ellipsis_and_short_text_kept() {
        assert_eq!(fit("Tent", 10.0), "Tent");
        let cut = fit("A very long name of a tent indeed", 5.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(width(&cut) <= 5.0, "{cut}");
        assert!(cut.len() < "A very long name of a tent indeed".len());
        assert_eq!(clean("Big\nTent\t"), "Big Tent");
    }
}
