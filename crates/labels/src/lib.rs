//! Label sheets as PDF: for each record a QR code of its link and its name, number,
//! identifier and company, on a page grid ([`Sheet`]). Pure: no database, no I/O.
//!
//! Type is Noto Sans, with GNU Unifont for every other script (`fonts`), so a name in
//! any script of the Basic Multilingual Plane prints as itself, never as "?".

mod fonts;
mod layout;
pub mod sheet;

pub use sheet::{STANDARD, Sheet, SheetError, SheetSpec, Slot};

use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, TextStr};

/// What one label shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// What the QR code encodes: a link to the record.
    pub link: String,
    pub name: String,
    /// The record's number as shown, e.g. `#1042`.
    pub number: String,
    /// The record's own identifier (serial, code, e-mail), if any.
    pub identifier: Option<String>,
    pub company: String,
}

/// Why labels could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the link of label {index} is too long for a QR code ({len} bytes)")]
    LinkTooLong { index: usize, len: usize },
}

/// A PDF of `labels` laid out on `sheet`, in order, as many pages as they take (one
/// empty page when there are none).
pub fn render(sheet: &Sheet, labels: &[Label]) -> Result<Vec<u8>, RenderError> {
    let drawn: Vec<layout::Drawn> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| layout::draw(sheet.slot(i), label, i))
        .collect::<Result<_, _>>()?;
    let mut fonts = fonts::FontSet::default();
    for d in &drawn {
        for line in &d.lines {
            fonts.add(&line.text);
        }
    }
    fonts.seal();
    let pages = labels.len().div_ceil(sheet.per_page()).max(1);
    let mut next = Ref::new(1);
    let (catalog, tree, info) = (next.bump(), next.bump(), next.bump());
    let page_refs: Vec<(Ref, Ref)> = (0..pages).map(|_| (next.bump(), next.bump())).collect();
    let font_refs = fonts.reserve(&mut next);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_refs.iter().map(|p| p.0))
        .count(pages as i32);
    pdf.document_info(info)
        .title(TextStr("Labels"))
        .producer(TextStr("rentrack"));
    let (w, h) = sheet.page_size();
    let mut by_page = drawn.iter().peekable();
    for (number, (page_ref, content_ref)) in page_refs.iter().enumerate() {
        let mut page = pdf.page(*page_ref);
        page.media_box(Rect::new(0.0, 0.0, w, h))
            .parent(tree)
            .contents(*content_ref);
        {
            let mut resources = page.resources();
            let mut names = resources.fonts();
            for (name, r) in &font_refs {
                names.pair(Name(name.as_bytes()), *r);
            }
        }
        page.finish();
        let mut content = Content::new();
        while let Some(d) = by_page.next_if(|d| d.page == number) {
            layout::paint(&mut content, d, &fonts);
        }
        let data = fonts::compress(&content.finish());
        pdf.stream(*content_ref, &data).filter(Filter::FlateDecode);
    }
    fonts.write(&mut pdf, &font_refs, &mut next);
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(name: String) -> Label {
        Label {
            link: "https://rentrack.example/scan/1/assets/1".into(),
            name,
            number: "#1".into(),
            identifier: None,
            company: "Acme".into(),
        }
    }

    #[test]
    fn more_than_256_characters_outside_noto_take_several_pixel_fonts() {
        let names: Vec<Label> = (0..40)
            .map(|i| {
                let start = 0x4E00 + i * 10;
                label((start..start + 10).filter_map(char::from_u32).collect())
            })
            .collect();
        let sheet = Sheet::new(STANDARD[3].1).unwrap();
        let pdf = render(&sheet, &names).unwrap();
        let text = String::from_utf8_lossy(&pdf);
        assert!(
            text.contains("/P0") && text.contains("/P1"),
            "two pixel fonts"
        );
        assert!(!text.contains("/P2"), "400 characters need two, not three");
    }

    #[test]
    fn no_labels_make_one_empty_page_and_a_link_too_long_is_an_error() {
        let sheet = Sheet::new(STANDARD[0].1).unwrap();
        let pdf = render(&sheet, &[]).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let mut long = label("Tent".into());
        long.link = "x".repeat(5000);
        assert!(matches!(
            render(&sheet, &[long]),
            Err(RenderError::LinkTooLong {
                index: 0,
                len: 5000
            })
        ));
    }
}
