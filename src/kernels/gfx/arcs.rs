//! Circles and ellipses (x11perf's `do_arcs.c`): the `2d-circle` and `2d-ellipse` workloads.

use super::harness::{Parms, Workload, Xp, HEIGHT, MAXROWS, WIDTH};
use super::lines::Pen;
use crate::sys::x11::{
    Arc, ARC_PIE_SLICE, CAP_BUTT, CAP_ROUND, JOIN_MITER, JOIN_ROUND, LINE_DOUBLE_DASH, LINE_SOLID,
};

const fn deg(d: i32) -> i32 {
    d * 64
}

/// `GenerateCircles`.
fn generate_circles(p: &Parms, partial: bool) -> Vec<Arc> {
    let size = p.special;
    let half = (size + 19) / 20;
    let (mut x, mut xorg, mut y, mut yorg) = (half, half, half, half);
    let mut rows = 0;
    let (mut start, mut extent) = (deg(0), deg(360));
    let mut v = Vec::with_capacity(p.objects as usize);
    for _ in 0..p.objects {
        v.push(Arc {
            x: x as i16,
            y: y as i16,
            width: size as u16,
            height: size as u16,
            angle1: start as i16,
            angle2: extent as i16,
        });
        if partial {
            start += deg(30);
            if start >= deg(360) {
                start -= deg(360);
            }
            extent -= deg(20);
            if extent <= deg(0) {
                extent += deg(360);
            }
        }
        y += size + 1;
        rows += 1;
        if y >= HEIGHT - size - half || rows == MAXROWS {
            rows = 0;
            x += size + 1;
            if x >= WIDTH - size {
                yorg += 1;
                if yorg >= size + half || yorg >= HEIGHT - size - half {
                    yorg = half;
                    xorg += 1;
                    if xorg >= size + half || xorg >= WIDTH - size - half {
                        xorg = half;
                    }
                }
                x = xorg;
            }
            y = yorg;
        }
    }
    v
}

/// `GenerateEllipses`: sizes sweep from flat to round, alternating orientation.
fn generate_ellipses(p: &Parms, partial: bool) -> Vec<Arc> {
    let size = p.special;
    let half = (size + 19) / 20;
    let mut vsize = 1;
    let vsizeinc = ((size - 1) / (p.objects - 1)).max(1);
    let (mut x, mut y, mut dir, mut rows) = (half, half, 0, 0);
    let (mut start, mut extent) = (deg(0), deg(360));
    let mut v = Vec::with_capacity(p.objects as usize);
    for i in 0..p.objects {
        let (w, h) = if ((i & 1) ^ dir) != 0 { (vsize, size) } else { (size, vsize) };
        v.push(Arc {
            x: x as i16,
            y: y as i16,
            width: w as u16,
            height: h as u16,
            angle1: start as i16,
            angle2: extent as i16,
        });
        if partial {
            start += deg(30);
            if start >= deg(360) {
                start -= deg(360);
            }
            extent -= deg(20);
            if extent <= deg(0) {
                extent += deg(360);
            }
        }
        y += size + 1;
        rows += 1;
        if y >= HEIGHT - size - half || rows == MAXROWS {
            rows = 0;
            y = half;
            x += size + 1;
            if x >= WIDTH - size - half {
                x = half;
            }
        }
        vsize += vsizeinc;
        if vsize > size {
            vsize -= size;
            dir = 1 - dir;
        }
    }
    v
}

/// How an arc test draws its outlines.
#[derive(Clone, Copy, PartialEq)]
pub enum Line {
    /// Zero-width solid (`InitCircles`, `InitPartEllipses`).
    Thin,
    /// Width size/10, round caps and joins (`GenerateWideCircles`).
    Wide,
    /// Zero-width 3-on 2-off double dash (`InitDoubleDashed*`).
    DoubleDash,
    /// Wide, double dashes of twice the width (`InitWideDoubleDashed*`).
    WideDoubleDash,
    /// Filled as pie slices (`InitSlicePart*` + `DoFilledArcs`).
    FillSlice,
}

/// One arc workload.
pub struct Arcs {
    ellipse: bool,
    partial: bool,
    line: Line,
    arcs: Vec<Arc>,
    pen: Pen,
}

impl Arcs {
    pub fn boxed(ellipse: bool, partial: bool, line: Line) -> Box<dyn Workload> {
        Box::new(Arcs { ellipse, partial, line, arcs: Vec::new(), pen: Pen::Fg })
    }
}

impl Workload for Arcs {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let dd = matches!(self.line, Line::DoubleDash | Line::WideDoubleDash);
        self.pen = if dd { Pen::DdFg } else { Pen::Fg };
        self.arcs =
            if self.ellipse { generate_ellipses(p, self.partial) } else { generate_circles(p, self.partial) };
        let d = &xp.d;
        let gcs = if dd { [xp.ddbggc, xp.ddfggc] } else { [xp.bggc, xp.fggc] };
        let wide = ((p.special + 9) / 10) as u32;
        for gc in gcs {
            match self.line {
                Line::Thin => {}
                Line::Wide => d.set_line_attributes(gc, wide, LINE_SOLID, CAP_ROUND, JOIN_ROUND),
                Line::DoubleDash => {
                    d.set_line_attributes(gc, 0, LINE_DOUBLE_DASH, CAP_BUTT, JOIN_MITER);
                    d.set_dashes(gc, 0, &[3, 2]);
                }
                Line::WideDoubleDash => {
                    d.set_line_attributes(gc, wide, LINE_DOUBLE_DASH, CAP_ROUND, JOIN_ROUND);
                    d.set_dashes(gc, 0, &[2 * wide as u8, 2 * wide as u8]);
                }
                Line::FillSlice => d.set_arc_mode(gc, ARC_PIE_SLICE),
            }
        }
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            let gc = self.pen.gc(xp);
            if self.line == Line::FillSlice {
                xp.d.fill_arcs(xp.w, gc, &self.arcs);
            } else {
                xp.d.draw_arcs(xp.w, gc, &self.arcs);
            }
            self.pen = self.pen.next();
        }
    }
}

/// The eight arc workloads of the circle and ellipse groups.
pub fn circle500() -> Box<dyn Workload> {
    Arcs::boxed(false, false, Line::Thin)
}
pub fn wddcircle100() -> Box<dyn Workload> {
    Arcs::boxed(false, false, Line::WideDoubleDash)
}
pub fn wpcircle100() -> Box<dyn Workload> {
    Arcs::boxed(false, true, Line::Wide)
}
pub fn fspcircle100() -> Box<dyn Workload> {
    Arcs::boxed(false, true, Line::FillSlice)
}
pub fn ddellipse100() -> Box<dyn Workload> {
    Arcs::boxed(true, false, Line::DoubleDash)
}
pub fn wddellipse100() -> Box<dyn Workload> {
    Arcs::boxed(true, false, Line::WideDoubleDash)
}
pub fn pellipse10() -> Box<dyn Workload> {
    Arcs::boxed(true, true, Line::Thin)
}
pub fn fspellipse100() -> Box<dyn Workload> {
    Arcs::boxed(true, true, Line::FillSlice)
}
