//! The labels' type: Noto Sans (an outline font embedded as a subset, for Latin, Greek
//! and Cyrillic) and, for every other character of the Basic Multilingual Plane (CJK,
//! Arabic, Hebrew, Devanagari, ...), GNU Unifont's 16-pixel glyphs drawn as a Type 3
//! font. Both carry a ToUnicode map, so text extraction reads the names back. A
//! character neither has prints as U+FFFD.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};

/// How a character is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Glyph {
    /// Noto Sans glyph id.
    Outline(u16),
    /// A Unifont glyph of this character.
    Pixel(char),
}

fn face() -> &'static ttf_parser::Face<'static> {
    static FACE: OnceLock<ttf_parser::Face<'static>> = OnceLock::new();
    FACE.get_or_init(|| {
        ttf_parser::Face::parse(notosans::REGULAR_TTF, 0).expect("Noto Sans Regular parses")
    })
}

/// Unifont draws what Noto Sans lacks; what neither has is U+FFFD.
fn glyph(c: char) -> Glyph {
    match face().glyph_index(c) {
        Some(id) if id.0 != 0 => Glyph::Outline(id.0),
        _ if unifont::get_glyph(c).is_some() => Glyph::Pixel(c),
        _ => Glyph::Pixel(char::REPLACEMENT_CHARACTER),
    }
}

/// Pixels in a Unifont em (the glyphs are 16 high, 8 or 16 wide).
const PIXELS: f32 = 16.0;
/// Unifont's baseline, in pixels above the glyph's bottom row.
const PIXEL_DESCENT: f32 = 2.0;

/// A character's advance, in ems.
pub fn advance(c: char) -> f32 {
    match glyph(c) {
        Glyph::Outline(id) => {
            let f = face();
            f32::from(f.glyph_hor_advance(ttf_parser::GlyphId(id)).unwrap_or(0))
                / f32::from(f.units_per_em())
        }
        Glyph::Pixel(p) => pixel_width(p) / PIXELS,
    }
}

fn pixel_width(c: char) -> f32 {
    unifont::get_glyph(c).map_or(8, |g| g.get_width()) as f32
}

/// A text's width in ems.
pub fn width(text: &str) -> f32 {
    text.chars().map(advance).sum()
}

/// Every glyph a document uses, then the fonts to write: one Type 0 font of the Noto
/// subset and as many Type 3 fonts of 256 pixel glyphs as the text needs.
#[derive(Default)]
pub struct FontSet {
    outline: BTreeMap<u16, char>,
    pixels: Vec<char>,
    pixel_index: HashMap<char, usize>,
    remap: Option<subsetter::GlyphRemapper>,
}

/// The resource name of the outline font.
const OUTLINE: Name<'static> = Name(b"N");

impl FontSet {
    /// Notes the glyphs of `text`.
    pub fn add(&mut self, text: &str) {
        for c in text.chars() {
            match glyph(c) {
                Glyph::Outline(id) => {
                    self.outline.entry(id).or_insert(c);
                }
                Glyph::Pixel(p) => {
                    if !self.pixel_index.contains_key(&p) {
                        self.pixel_index.insert(p, self.pixels.len());
                        self.pixels.push(p);
                    }
                }
            }
        }
    }

    /// Fixes the outline subset's glyph numbers; call once every text is added.
    pub fn seal(&mut self) {
        let mut remap = subsetter::GlyphRemapper::new();
        for id in self.outline.keys() {
            remap.remap(*id);
        }
        self.remap = Some(remap);
    }

    /// Shows `text` at the current text position in `size` points, switching fonts
    /// between runs (the text position moves on by each glyph's width).
    pub fn show(&self, content: &mut Content, text: &str, size: f32) {
        let remap = self.remap.as_ref().expect("FontSet::seal before show");
        let mut run: Vec<u8> = Vec::new();
        let mut font: Option<usize> = None; // None: outline; Some(k): pixel font k
        let mut started = false;
        let flush = |content: &mut Content, font: Option<usize>, run: &mut Vec<u8>| {
            if run.is_empty() {
                return;
            }
            match font {
                None => content.set_font(OUTLINE, size),
                Some(k) => content.set_font(Name(pixel_name(k).as_bytes()), size),
            };
            content.show(Str(run));
            run.clear();
        };
        for c in text.chars() {
            let (f, bytes): (Option<usize>, Vec<u8>) = match glyph(c) {
                Glyph::Outline(id) => (None, remap.get(id).unwrap_or(0).to_be_bytes().to_vec()),
                Glyph::Pixel(p) => {
                    let i = self.pixel_index.get(&p).copied().unwrap_or(0);
                    (Some(i / 256), vec![(i % 256) as u8])
                }
            };
            if started && f != font {
                flush(content, font, &mut run);
            }
            started = true;
            font = f;
            run.extend(bytes);
        }
        flush(content, font, &mut run);
    }

    /// Reserves the objects of the fonts pages name (after [`FontSet::seal`]) and
    /// answers their resource names and objects.
    pub fn reserve(&mut self, next: &mut Ref) -> Vec<(String, Ref)> {
        let mut names = vec![("N".to_owned(), next.bump())];
        for k in 0..self.pixels.len().div_ceil(256) {
            names.push((pixel_name(k), next.bump()));
        }
        names
    }

    /// Writes the fonts [`FontSet::reserve`] named (`fonts`), taking further objects
    /// from `next` on.
    pub fn write(&self, pdf: &mut Pdf, fonts: &[(String, Ref)], next: &mut Ref) {
        let remap = self.remap.as_ref().expect("FontSet::seal before write");
        let (type0, cid, descriptor, file, cmap) = (
            fonts[0].1,
            next.bump(),
            next.bump(),
            next.bump(),
            next.bump(),
        );
        let f = face();
        let scale = 1000.0 / f32::from(f.units_per_em());
        let base = Name(b"RTLABL+NotoSans-Regular");
        pdf.type0_font(type0)
            .base_font(base)
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);
        let mut widths: Vec<(u16, f32)> = self
            .outline
            .keys()
            .map(|id| {
                let adv = f.glyph_hor_advance(ttf_parser::GlyphId(*id)).unwrap_or(0);
                (remap.get(*id).unwrap_or(0), f32::from(adv) * scale)
            })
            .collect();
        widths.sort_by_key(|w| w.0);
        let mut font = pdf.cid_font(cid);
        font.subtype(CidFontType::Type2)
            .base_font(base)
            .system_info(SystemInfo {
                registry: Str(b"Adobe"),
                ordering: Str(b"Identity"),
                supplement: 0,
            })
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        {
            let mut w = font.widths();
            for (id, width) in &widths {
                w.consecutive(*id, [*width]);
            }
        }
        font.finish();
        let bbox = f.global_bounding_box();
        pdf.font_descriptor(descriptor)
            .name(base)
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                f32::from(bbox.x_min) * scale,
                f32::from(bbox.y_min) * scale,
                f32::from(bbox.x_max) * scale,
                f32::from(bbox.y_max) * scale,
            ))
            .italic_angle(0.0)
            .ascent(f32::from(f.ascender()) * scale)
            .descent(f32::from(f.descender()) * scale)
            .cap_height(f32::from(f.capital_height().unwrap_or(f.ascender())) * scale)
            .stem_v(80.0)
            .font_file2(file);
        let subset =
            subsetter::subset(notosans::REGULAR_TTF, 0, remap).expect("Noto Sans Regular subsets");
        pdf.stream(file, &compress(&subset))
            .filter(Filter::FlateDecode);
        let mut unicode = UnicodeCmap::new(Name(b"Custom"), system_info());
        for (id, c) in &self.outline {
            unicode.pair(remap.get(*id).unwrap_or(0), *c);
        }
        pdf.cmap(cmap, &unicode.finish());
        for (chunk, (_, font)) in self.pixels.chunks(256).zip(&fonts[1..]) {
            write_pixel_font(pdf, *font, chunk, next);
        }
    }
}

fn system_info() -> SystemInfo<'static> {
    SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"UCS"),
        supplement: 0,
    }
}

fn pixel_name(k: usize) -> String {
    format!("P{k}")
}

/// A Type 3 font of up to 256 Unifont glyphs, coded 0, 1, ... in `chars`' order.
fn write_pixel_font(pdf: &mut Pdf, font: Ref, chars: &[char], next: &mut Ref) {
    let cmap = next.bump();
    let names: Vec<String> = (0..chars.len()).map(|i| format!("g{i}")).collect();
    let programs: Vec<Ref> = chars.iter().map(|_| next.bump()).collect();
    {
        let mut t3 = pdf.type3_font(font);
        t3.bbox(Rect::new(
            0.0,
            -PIXEL_DESCENT,
            PIXELS,
            PIXELS - PIXEL_DESCENT,
        ))
        .matrix([1.0 / PIXELS, 0.0, 0.0, 1.0 / PIXELS, 0.0, 0.0])
        .first_char(0)
        .last_char((chars.len() - 1) as u8)
        .widths(chars.iter().map(|c| pixel_width(*c)))
        .to_unicode(cmap);
        t3.char_procs().pairs(
            names
                .iter()
                .zip(&programs)
                .map(|(n, r)| (Name(n.as_bytes()), *r)),
        );
        t3.encoding_custom()
            .differences()
            .consecutive(0, names.iter().map(|n| Name(n.as_bytes())));
        t3.finish();
    }
    let mut unicode = UnicodeCmap::<u8>::new(Name(b"Custom"), system_info());
    for (i, c) in chars.iter().enumerate() {
        unicode.pair(i as u8, *c);
    }
    pdf.cmap(cmap, &unicode.finish());
    for (c, r) in chars.iter().zip(&programs) {
        pdf.stream(*r, &pixel_program(*c));
    }
}

/// A Unifont glyph as filled squares, one rectangle per run of set pixels in a row.
fn pixel_program(c: char) -> Vec<u8> {
    let g = unifont::get_glyph(c);
    let w = pixel_width(c);
    let mut content = Content::new();
    content.start_shape_glyph(w, 0.0, -PIXEL_DESCENT, w, PIXELS - PIXEL_DESCENT);
    if let Some(g) = g {
        for row in 0..16 {
            let y = PIXELS - PIXEL_DESCENT - 1.0 - row as f32;
            let mut x = 0;
            while x < g.get_width() {
                if g.get_pixel(x, row) {
                    let start = x;
                    while x < g.get_width() && g.get_pixel(x, row) {
                        x += 1;
                    }
                    content.rect(start as f32, y, (x - start) as f32, 1.0);
                } else {
                    x += 1;
                }
            }
        }
        content.fill_nonzero();
    }
    content.finish().into_vec()
}

pub(crate) fn compress(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}
