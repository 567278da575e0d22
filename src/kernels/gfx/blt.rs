//! Scrolls, copies and image transfers (x11perf's `do_blt.c`): `scroll100`, `copypixwin10`,
//! `deepcopyplane10`, `putimagexy500`.

use super::harness::{Parms, Workload, Xp, HEIGHT, WIDTH};
use crate::sys::x11::{Image, Pixmap, Point, Segment, XY_PIXMAP};

const NUMPOINTS: usize = 100;

/// `InitBltLines`: a zig-zag polyline across the window, so copies move real pixels.
fn blt_lines() -> Vec<Point> {
    let mut pts = vec![Point::default(); NUMPOINTS];
    let mut y = 0;
    for (i, p) in pts.iter_mut().enumerate().take(NUMPOINTS / 2).skip(1) {
        p.x = if i & 1 == 1 { (WIDTH - 1) as i16 } else { 0 };
        y += HEIGHT / (NUMPOINTS as i32 / 2);
        p.y = y as i16;
    }
    let mut x = 0;
    for (i, p) in pts.iter_mut().enumerate().skip(NUMPOINTS / 2) {
        p.y = if i & 1 == 1 { (HEIGHT - 1) as i16 } else { 0 };
        x += WIDTH / (NUMPOINTS as i32 / 2);
        p.x = x as i16;
    }
    pts
}

fn neg_mod(x: i32, y: i32) -> i32 {
    y - (((-x) - 1) % 7) - 1
}

/// `InitCopyLocations` with mul = div = 1: source/destination pairs covering every alignment
/// and copy direction.
fn copy_locations(size: i32, reps: i64) -> (Vec<Segment>, Vec<Segment>) {
    let xinc = (size & !3) + 1;
    let yinc = xinc + 3;
    let width = (WIDTH - size) & !31;
    let height = (HEIGHT - size) & !31;
    let (mut x1, mut y1, mut x2, mut y2) = (0, 0, width, height);
    let mut a = Vec::with_capacity(reps as usize);
    let mut b = Vec::with_capacity(reps as usize);
    for _ in 0..reps {
        a.push(Segment { x1: x1 as i16, y1: y1 as i16, x2: x2 as i16, y2: y2 as i16 });
        x2 -= xinc;
        if x2 < 0 {
            x2 = neg_mod(x2, width);
            y2 -= yinc;
            if y2 < 0 {
                y2 = neg_mod(y2, height);
            }
        }
        b.push(Segment { x1: x1 as i16, y1: y1 as i16, x2: x2 as i16, y2: y2 as i16 });
        x1 += xinc;
        if x1 > width {
            x1 %= 32;
            y1 += yinc;
            if y1 > height {
                y1 %= 32;
            }
        }
    }
    (a, b)
}

/// `InitScroll`/`DoScroll`/`MidScroll`: scroll 100x100 squares up by 13 lines (1.3+ rules).
#[derive(Default)]
pub struct Scroll {
    points: Vec<Point>,
}

impl Scroll {
    pub fn make() -> Box<dyn Workload> {
        Box::new(Scroll::default())
    }
}

impl Workload for Scroll {
    fn init(&mut self, xp: &mut Xp, _p: &mut Parms, reps: i64) -> i64 {
        self.points = blt_lines();
        xp.d.draw_lines(xp.w, xp.fggc, &self.points);
        reps
    }
    fn run(&mut self, xp: &mut Xp, p: &Parms, reps: i64) {
        let size = p.special;
        let delta = 13;
        let (mut xorg, mut yorg, mut x, mut y) = (0, 0, 0, 0);
        for _ in 0..reps {
            xp.d.copy_area(xp.w, xp.w, xp.fggc, x, y + delta, size as u32, size as u32, x, y);
            y += size;
            if y + size + delta > HEIGHT {
                yorg += delta;
                if yorg >= size || yorg + size + delta > HEIGHT {
                    yorg = 0;
                    xorg += 1;
                    if xorg >= size || xorg + size > WIDTH {
                        xorg = 0;
                    }
                }
                y = yorg;
                x += size;
                if x + size > WIDTH {
                    x = xorg;
                }
            }
        }
    }
    fn pass_cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        xp.d.clear_window(xp.w);
        xp.d.draw_lines(xp.w, xp.fggc, &self.points);
    }
}

/// What a copy test copies from.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    /// `InitCopyPix` + `DoCopyPixWin`: a window-depth pixmap holding the window's lines.
    Pixmap,
    /// `InitCopyPlane` + `DoCopyPlane` ("Deep"): plane 1 of a window-depth pixmap.
    DeepPlane,
    /// `InitPutImage` + `DoPutImage` ("XY"): an XYPixmap image of the whole window.
    XyImage,
}

/// The 4-copies-per-rep tests of `do_blt.c`.
pub struct Copy {
    source: Source,
    pix: Pixmap,
    image: Option<Image>,
    a: Vec<Segment>,
    b: Vec<Segment>,
}

impl Copy {
    fn boxed(source: Source) -> Box<dyn Workload> {
        Box::new(Copy { source, pix: 0, image: None, a: Vec::new(), b: Vec::new() })
    }
    pub fn pix_win() -> Box<dyn Workload> {
        Copy::boxed(Source::Pixmap)
    }
    pub fn deep_plane() -> Box<dyn Workload> {
        Copy::boxed(Source::DeepPlane)
    }
    pub fn put_image_xy() -> Box<dyn Workload> {
        Copy::boxed(Source::XyImage)
    }
}

impl Workload for Copy {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let points = blt_lines();
        let d = &xp.d;
        match self.source {
            Source::Pixmap => {
                d.draw_lines(xp.w, xp.fggc, &points);
                self.pix = d.create_pixmap(xp.w, WIDTH as u32, HEIGHT as u32, xp.depth);
                let gc = d.create_gc(self.pix);
                d.copy_area(xp.w, self.pix, gc, 0, 0, WIDTH as u32, HEIGHT as u32, 0, 0);
                d.free_gc(gc);
            }
            Source::DeepPlane => {
                self.pix = d.create_pixmap(xp.w, WIDTH as u32, HEIGHT as u32, xp.depth);
                let gc = d.create_gc(self.pix);
                d.set_graphics_exposures(gc, false);
                d.set_foreground(gc, 0);
                d.set_background(gc, 1);
                d.fill_rectangle(self.pix, gc, 0, 0, WIDTH as u32, HEIGHT as u32);
                d.set_foreground(gc, 1);
                d.set_background(gc, 0);
                d.draw_lines(self.pix, gc, &points);
                d.free_gc(gc);
            }
            Source::XyImage => {
                d.draw_lines(xp.w, xp.fggc, &points);
                self.image = d.get_image(xp.w, 0, 0, WIDTH as u32, HEIGHT as u32, xp.planemask, XY_PIXMAP);
                if self.image.is_none() {
                    println!("XGetImage failed");
                    return 0;
                }
                d.clear_window(xp.w);
            }
        }
        let (a, b) = copy_locations(p.special, reps);
        self.a = a;
        self.b = b;
        reps
    }

    fn run(&mut self, xp: &mut Xp, p: &Parms, reps: i64) {
        let s = p.special as u32;
        let (d, w, gc) = (&xp.d, xp.w, xp.fggc);
        for (sa, sb) in self.a.iter().zip(&self.b).take(reps as usize) {
            let (a1, a2) = ((sa.x1 as i32, sa.y1 as i32), (sa.x2 as i32, sa.y2 as i32));
            let (b1, b2) = ((sb.x1 as i32, sb.y1 as i32), (sb.x2 as i32, sb.y2 as i32));
            match self.source {
                Source::Pixmap => {
                    for (from, to) in [(a1, a2), (a2, a1), (b2, b1), (b1, b2)] {
                        d.copy_area(self.pix, w, gc, from.0, from.1, s, s, to.0, to.1);
                    }
                }
                Source::DeepPlane => {
                    for (from, to) in [(a1, a2), (a2, a1), (b2, b1), (b1, b2)] {
                        d.copy_plane(self.pix, w, gc, from.0, from.1, s, s, to.0, to.1, 1);
                    }
                }
                Source::XyImage => {
                    let img = self.image.as_ref().expect("init made the image");
                    // DoPutImage's four calls, including its third that puts b2 onto itself.
                    for (from, to) in [(a1, a2), (a2, a1), (b2, b2), (b1, b2)] {
                        d.put_image(w, gc, img, from.0, from.1, to.0, to.1, s, s);
                    }
                }
            }
        }
    }

    fn pass_cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        xp.d.clear_window(xp.w);
    }

    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if self.pix != 0 {
            xp.d.free_pixmap(self.pix);
            self.pix = 0;
        }
        self.image = None;
        self.a.clear();
        self.b.clear();
        xp.p = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_locations_stay_inside_the_window() {
        let (a, b) = copy_locations(500, 1000);
        for s in a.iter().chain(&b) {
            for v in [s.x1, s.y1, s.x2, s.y2] {
                assert!((0..=WIDTH as i16).contains(&v), "{s:?}");
            }
        }
        let (a, _) = copy_locations(10, 3);
        assert_eq!((a[0].x1, a[0].y1, a[0].x2, a[0].y2), (0, 0, 576, 576));
        assert_eq!((a[1].x1, a[1].x2), (9, 567));
    }
}
