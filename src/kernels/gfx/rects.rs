//! Filled and outlined rectangles (x11perf's `do_rects.c`) and the tile/stipple set-up that
//! rectangles and trapezoids share (`SetFillStyle` in `bitmaps.c`).
//!
//! x11perf tiles with bitmaps of its own (a 17x15 odd tile, the 216x208 Escher knot). We use
//! generated patterns of the same sizes: a tiled or stippled fill costs per pixel and per
//! tile row, not per bit value.

use super::harness::{Parms, Workload, Xp, HEIGHT, MAXROWS, WIDTH};
use crate::sys::x11::{
    Rectangle, CAP_BUTT, FILL_OPAQUE_STIPPLED, FILL_STIPPLED, FILL_TILED, JOIN_MITER, LINE_SOLID,
};

/// XBM bits (rows padded to bytes) of a `w` x `h` pattern, from a fixed seed.
pub fn pattern_bits(w: u32, h: u32, seed: u64) -> Vec<u8> {
    let mut rng = oorandom::Rand32::new(seed);
    (0..(w as usize).div_ceil(8) * h as usize).map(|_| rng.rand_u32() as u8).collect()
}

/// The tile/stipple size and x origin x11perf uses for a `font` name.
fn pattern_for(font: Option<&str>, tiled: bool) -> (u32, u32, i32) {
    match font {
        None if tiled => (4, 4, 0),
        None => (8, 8, 0),
        Some("escherknot") => (216, 208, -3),
        Some("OddTile") => (17, 15, 0),
        Some(_) => (161, 145, 0),
    }
}

/// x11perf's `SetFillStyle`: gives fggc and bggc the test's tile or stipple.
pub fn set_fill_style(xp: &mut Xp, p: &Parms) {
    let d = &xp.d;
    match p.fill_style {
        FILL_STIPPLED | FILL_OPAQUE_STIPPLED => {
            let (w, h, xorg) = pattern_for(p.font, false);
            let stipple = d.create_bitmap_from_data(xp.w, &pattern_bits(w, h, 1), w, h);
            for gc in [xp.fggc, xp.bggc] {
                d.set_stipple(gc, stipple);
                d.set_fill_style(gc, p.fill_style);
                d.set_ts_origin(gc, xorg, 0);
            }
            d.free_pixmap(stipple);
        }
        FILL_TILED => {
            let (w, h, xorg) = pattern_for(p.font, true);
            let bits = pattern_bits(w, h, 2);
            for (gc, fg, bg) in
                [(xp.fggc, xp.foreground, xp.background), (xp.bggc, xp.background, xp.foreground)]
            {
                let tile = d.create_pixmap_from_bitmap_data(xp.w, &bits, w, h, fg, bg, xp.depth);
                d.set_tile(gc, tile);
                d.set_fill_style(gc, FILL_TILED);
                d.set_ts_origin(gc, xorg, 0);
                d.free_pixmap(tile);
            }
        }
        _ => {}
    }
}

/// `InitRectangles` + `DoRectangles` / `DoOutlineRectangles`.
#[derive(Default)]
pub struct Rects {
    rects: Vec<Rectangle>,
    outline: bool,
    fg_next: bool,
}

impl Rects {
    pub fn filled() -> Box<dyn Workload> {
        Box::new(Rects::default())
    }
    pub fn outlined() -> Box<dyn Workload> {
        Box::new(Rects { outline: true, ..Default::default() })
    }
}

impl Workload for Rects {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let size = p.special;
        let mut lw = 0;
        if let Some(b) = p.bfont {
            lw = b.parse::<i32>().unwrap_or(0);
            xp.d.set_line_attributes(xp.bggc, lw as u32, LINE_SOLID, CAP_BUTT, JOIN_MITER);
            xp.d.set_line_attributes(xp.fggc, lw as u32, LINE_SOLID, CAP_BUTT, JOIN_MITER);
            lw = (lw >> 1) + 1;
        }
        let step = size + 1 + (size % 2);
        let (mut x, mut y, mut rows) = (lw, lw, 0);
        self.rects.clear();
        for _ in 0..p.objects {
            self.rects.push(Rectangle { x: x as i16, y: y as i16, width: size as u16, height: size as u16 });
            y += step;
            rows += 1;
            if y + size > HEIGHT || rows == MAXROWS {
                rows = 0;
                y = lw;
                x += step;
                if x + size > WIDTH {
                    x = lw;
                }
            }
        }
        set_fill_style(xp, p);
        self.fg_next = true;
        reps
    }

    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            let gc = if self.fg_next { xp.fggc } else { xp.bggc };
            if self.outline {
                xp.d.draw_rectangles(xp.w, gc, &self.rects);
            } else {
                xp.d.fill_rectangles(xp.w, gc, &self.rects);
            }
            self.fg_next = !self.fg_next;
        }
    }
}
