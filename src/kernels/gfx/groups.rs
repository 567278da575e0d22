//! gfx-x11's groups, and the x11perf table entries they run with gfx-x11's reference rates
//! (docs/ORIGINAL.md, "gfx-x11 references"): the objects per request, sizes and fill styles are
//! `do_tests.c`'s.

use super::harness::{Kind, Parms, Spec, POLY};
use super::{aatraps, arcs, blt, lines, polys, rects, text, windows};
use crate::sys::x11::{FILL_OPAQUE_STIPPLED, FILL_TILED};

/// A gfx-x11 group: its name (`2d-<name>` is the applet) and its four x11perf tests.
pub struct Group {
    pub name: &'static str,
    pub tests: [&'static str; 4],
}

pub static GROUPS: &[Group] = &[
    Group { name: "rects", tests: ["rect10", "rect100", "oddtilerect10", "eschertilerect100"] },
    Group { name: "lines", tests: ["seg100c3", "wvseg100", "ddline100", "worect500"] },
    Group { name: "circle", tests: ["circle500", "wddcircle100", "wpcircle100", "fspcircle100"] },
    Group { name: "ellipse", tests: ["ddellipse100", "wddellipse100", "pellipse10", "fspellipse100"] },
    Group { name: "shapes", tests: ["triangle10", "trap300", "oddostrap300", "eschertiletrap300"] },
    Group { name: "aashapes", tests: ["aa4trap300", "aa1trap10", "aatrap2x300", "addaatrapezoid300"] },
    Group { name: "polys", tests: ["complex10", "64poly100convex", "64poly10complex", "64poly100complex"] },
    Group { name: "text", tests: ["polytext16", "rgb24text", "caa10text", "ca24text"] },
    Group { name: "blit", tests: ["scroll100", "copypixwin10", "deepcopyplane10", "putimagexy500"] },
    Group { name: "window", tests: ["popup", "move", "movetree", "resize"] },
];

/// The group called `name` (without the `2d-` prefix).
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// The table entry of an x11perf test name.
pub fn spec(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

const fn s(
    name: &'static str,
    label: &'static str,
    reference: f64,
    kind: Kind,
    clips: usize,
    parms: Parms,
    make: fn() -> Box<dyn super::harness::Workload>,
) -> Spec {
    Spec { name, label, reference, kind, clips, parms, make }
}

use Kind::{NonRop, Rop, Window};

pub static SPECS: &[Spec] = &[
    // rects
    s("rect10", "10x10 rectangle", 7_180_000.0, Rop, 0, Parms::new(POLY, 10), rects::Rects::filled),
    s("rect100", "100x100 rectangle", 110_000.0, Rop, 0, Parms::new(36, 100), rects::Rects::filled),
    s(
        "oddtilerect10",
        "10x10 tiled rectangle (17x15 tile)",
        1_430_000.0,
        Rop,
        0,
        Parms::new(POLY, 10).font("OddTile").fill(FILL_TILED),
        rects::Rects::filled,
    ),
    s(
        "eschertilerect100",
        "100x100 tiled rectangle (216x208 tile)",
        18_000.0,
        Rop,
        0,
        Parms::new(36, 100).font("escherknot").fill(FILL_TILED),
        rects::Rects::filled,
    ),
    // lines
    s(
        "seg100c3",
        "100-pixel line segment (3 kids)",
        421_000.0,
        Rop,
        3,
        Parms::new(POLY, 100),
        lines::Segments::plain,
    ),
    s(
        "wvseg100",
        "100x10 wide vertical line segment",
        584_000.0,
        Rop,
        0,
        Parms::new(100, 100),
        lines::Segments::wide_vertical,
    ),
    s(
        "ddline100",
        "100-pixel double-dashed line",
        453_000.0,
        Rop,
        0,
        Parms::new(POLY, 100),
        lines::DoubleDashedLines::make,
    ),
    s(
        "worect500",
        "500x500 wide rectangle outline",
        9_790.0,
        Rop,
        0,
        Parms::new(1, 500).bfont("50"),
        rects::Rects::outlined,
    ),
    // circle
    s("circle500", "500-pixel circle", 28_900.0, Rop, 0, Parms::new(50, 500), arcs::circle500),
    s(
        "wddcircle100",
        "100-pixel wide double-dashed circle",
        8_300.0,
        Rop,
        0,
        Parms::new(100, 100),
        arcs::wddcircle100,
    ),
    s(
        "wpcircle100",
        "100-pixel wide partial circle",
        39_000.0,
        Rop,
        0,
        Parms::new(198, 100),
        arcs::wpcircle100,
    ),
    s(
        "fspcircle100",
        "100-pixel fill slice partial circle",
        187_000.0,
        Rop,
        0,
        Parms::new(108, 100),
        arcs::fspcircle100,
    ),
    // ellipse
    s(
        "ddellipse100",
        "100-pixel double-dashed ellipse",
        88_900.0,
        Rop,
        0,
        Parms::new(25, 100),
        arcs::ddellipse100,
    ),
    s(
        "wddellipse100",
        "100-pixel wide double-dashed ellipse",
        6_680.0,
        Rop,
        0,
        Parms::new(25, 100),
        arcs::wddellipse100,
    ),
    s("pellipse10", "10-pixel partial ellipse", 1_350_000.0, Rop, 0, Parms::new(540, 10), arcs::pellipse10),
    s(
        "fspellipse100",
        "100-pixel fill slice partial ellipse",
        269_000.0,
        Rop,
        0,
        Parms::new(36, 100),
        arcs::fspellipse100,
    ),
    // shapes
    s(
        "triangle10",
        "Fill 10x10 equivalent triangle",
        969_000.0,
        Rop,
        0,
        Parms::new(POLY, 10),
        polys::Polys::triangles,
    ),
    s("trap300", "Fill 300x300 trapezoid", 11_600.0, Rop, 0, Parms::new(2, 300), polys::Polys::trapezoids),
    s(
        "oddostrap300",
        "Fill 300x300 opaque stippled trapezoid (17x15 stipple)",
        2_080.0,
        Rop,
        0,
        Parms::new(2, 300).font("OddTile").fill(FILL_OPAQUE_STIPPLED),
        polys::Polys::trapezoids,
    ),
    s(
        "eschertiletrap300",
        "Fill 300x300 tiled trapezoid (216x208 tile)",
        2_450.0,
        Rop,
        0,
        Parms::new(2, 300).font("escherknot").fill(FILL_TILED),
        polys::Polys::trapezoids,
    ),
    // aashapes
    s(
        "aa4trap300",
        "Fill 300x300 aa trap with 4 bit alpha",
        1_460.0,
        NonRop,
        0,
        Parms::new(POLY, 300).font("4"),
        aatraps::FixedTraps::make,
    ),
    s(
        "aa1trap10",
        "Fill 10x10 aa trap with 1 bit alpha",
        357_000.0,
        NonRop,
        0,
        Parms::new(POLY, 10).font("1"),
        aatraps::FixedTraps::make,
    ),
    s(
        "aatrap2x300",
        "Fill 2x300 aa trap",
        5_710.0,
        NonRop,
        0,
        Parms::new(POLY, 300).font("8,2"),
        aatraps::FixedTraps::make,
    ),
    s(
        "addaatrapezoid300",
        "Fill 300x300 aa pre-added trapezoid",
        4_460.0,
        NonRop,
        0,
        Parms::new(POLY, 300).font("add"),
        aatraps::FixedTrapezoids::make,
    ),
    // polys
    s(
        "complex10",
        "Fill 10x10 equivalent complex polygon",
        655_000.0,
        Rop,
        0,
        Parms::new(POLY, 10),
        polys::Polys::complex,
    ),
    s(
        "64poly100convex",
        "Fill 100x100 64-gon (Convex)",
        105_000.0,
        Rop,
        0,
        Parms::new(POLY / 10, 100),
        polys::Polys::ngon64_convex,
    ),
    s(
        "64poly10complex",
        "Fill 10x10 64-gon (Complex)",
        353_000.0,
        Rop,
        0,
        Parms::new(POLY, 10),
        polys::Polys::ngon64_complex,
    ),
    s(
        "64poly100complex",
        "Fill 100x100 64-gon (Complex)",
        105_000.0,
        Rop,
        0,
        Parms::new(POLY / 10, 100),
        polys::Polys::ngon64_complex,
    ),
    // text
    s(
        "polytext16",
        "Char16 in 7/14/7 line (k14, k24)",
        369_000.0,
        Rop,
        0,
        Parms::new(28, 1)
            .font("-misc-fixed-medium-r-normal--14-130-75-75-c-140-jisx0208.1983-*")
            .bfont("-jis-fixed-medium-r-normal--24-230-75-75-c-240-jisx0208.1983-*"),
        text::PolyText16::make,
    ),
    s(
        "rgb24text",
        "Char in 30-char rgb line (Charter 24)",
        2_510.0,
        NonRop,
        0,
        Parms::new(30, 24).font("charter:antialias=true:rgba=rgb:pixelsize=24"),
        text::AaText::make,
    ),
    s(
        "caa10text",
        "Char in 80-char aa core line (Charter 10)",
        15_300.0,
        NonRop,
        0,
        Parms::new(80, 10).font("charter:antialias=true:render=false:rgba=0:pixelsize=10"),
        text::AaText::make,
    ),
    s(
        "ca24text",
        "Char in 30-char a core line (Charter 24)",
        2_540.0,
        NonRop,
        0,
        Parms::new(30, 24).font("charter:antialias=false:render=false:rgba=0:pixelsize=24"),
        text::AaText::make,
    ),
    // blit
    s("scroll100", "Scroll 100x100 pixels", 52_000.0, Rop, 0, Parms::new(1, 100), blt::Scroll::make),
    s(
        "copypixwin10",
        "Copy 10x10 from pixmap to window",
        502_000.0,
        Rop,
        0,
        Parms::new(4, 10),
        blt::Copy::pix_win,
    ),
    s(
        "deepcopyplane10",
        "Copy 10x10 n-bit deep plane",
        151_000.0,
        Rop,
        0,
        Parms::new(4, 10).font("Deep"),
        blt::Copy::deep_plane,
    ),
    s(
        "putimagexy500",
        "PutImage XY 500x500 square",
        0.1,
        Rop,
        0,
        Parms::new(4, 500).font("XY"),
        blt::Copy::put_image_xy,
    ),
    // window
    s("popup", "Hide/expose window via popup", 660_000.0, Window, 0, Parms::new(0, 1), windows::Popup::make),
    s("move", "Move window", 120_000.0, Window, 0, Parms::new(0, 1), windows::MoveWin::moves),
    s("movetree", "Move window via parent", 877_000.0, Window, 0, Parms::new(4, 1), windows::MoveWin::tree),
    s("resize", "Resize window", 136_000.0, Window, 0, Parms::new(4, 1), windows::MoveWin::resizes),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_test_has_a_table_entry() {
        assert_eq!(GROUPS.len(), 10);
        for g in GROUPS {
            for t in g.tests {
                assert!(spec(t).is_some(), "{t}");
            }
        }
        assert_eq!(SPECS.len(), 40);
        for t in group("text").unwrap().tests {
            assert!(spec(t).unwrap().parms.font.is_some(), "{t} needs its font pattern");
        }
    }
}
