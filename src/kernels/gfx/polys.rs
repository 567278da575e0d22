//! Filled polygons (x11perf's `do_tris.c`, `do_traps.c` core part, `do_complex.c`): the
//! `2d-shapes` and `2d-polys` workloads. One `XFillPolygon` request per object.

use super::harness::{Parms, Workload, Xp, HEIGHT, MAXROWS, WIDTH};
use super::lines::Pen;
use super::rects::set_fill_style;
use crate::sys::x11::{Point, COMPLEX, CONVEX};
use std::f64::consts::PI;

fn pt(x: f64, y: f64) -> Point {
    Point { x: x as i32 as i16, y: y as i32 as i16 }
}

/// `InitTriangles` (1.3+ sizes: the area of a size x size square).
fn triangles(p: &Parms) -> Vec<Point> {
    let size = p.special as f64;
    let delta = 2.0 * PI / 3.0;
    let radius = size * (16.0f64 / 27.0).sqrt().sqrt();
    let phiinc = 1.75 * PI / p.objects as f64;
    let iradius = (radius + 0.5) as i32;
    let (mut x, mut y, mut rows, mut phi) = (iradius, iradius, 0, 0.0f64);
    let mut v = Vec::with_capacity(3 * p.objects as usize);
    for _ in 0..p.objects {
        for j in 0..3 {
            let phi2 = phi + j as f64 * delta;
            v.push(pt(x as f64 + radius * phi2.cos() + 0.5, y as f64 + radius * phi2.sin() + 0.5));
        }
        phi += phiinc;
        y += 2 * iradius;
        rows += 1;
        if y + iradius > HEIGHT || rows == MAXROWS {
            rows = 0;
            y = iradius;
            x += 2 * iradius;
            if x + iradius > WIDTH {
                x = iradius;
            }
        }
    }
    v
}

/// `InitTrapezoids`: skewed size x size trapezoids in columns.
fn trapezoids(p: &Parms) -> Vec<Point> {
    let size = p.special;
    let (mut x, mut y, mut rows, mut skew) = (size, 0, 0, size);
    let mut v = Vec::with_capacity(4 * p.objects as usize);
    for _ in 0..p.objects {
        for (px, py) in
            [(x - skew, y), (x - skew + size, y), (x + skew, y + size), (x + skew - size, y + size)]
        {
            v.push(Point { x: px as i16, y: py as i16 });
        }
        skew -= 1;
        if skew < 0 {
            skew = size;
        }
        y += size;
        rows += 1;
        if y + size > HEIGHT || rows == MAXROWS {
            rows = 0;
            y = 0;
            x += 2 * size;
            if x + size > WIDTH {
                x = size;
            }
        }
    }
    v
}

/// `InitComplexPoly`: notched arrowheads (4 points, self-touching), 1.3+ sizes.
fn arrowheads(p: &Parms) -> Vec<Point> {
    let size = p.special as f64;
    let delta = 2.0 * PI / 3.0;
    let radius = size * (4.0f64 / 3.0).sqrt().sqrt();
    let phiinc = 1.75 * PI / p.objects as f64;
    let iradius = radius as i32 + 1;
    let (mut x, mut y, mut phi) = (iradius, iradius, 0.0f64);
    let mut v = Vec::with_capacity(4 * p.objects as usize);
    for _ in 0..p.objects {
        for j in 0..3 {
            let phi2 = phi + j as f64 * delta;
            v.push(pt(x as f64 + radius * phi2.cos() + 0.5, y as f64 + radius * phi2.sin() + 0.5));
        }
        v.push(Point { x: x as i16, y: y as i16 });
        phi += phiinc;
        y += 2 * iradius;
        if y + iradius >= HEIGHT {
            y = iradius;
            x += 2 * iradius;
            if x + iradius >= WIDTH {
                x = iradius;
            }
        }
    }
    v
}

/// `InitGeneralPoly`: regular `nsides`-gons of the area of a size x size square.
fn ngons(p: &Parms, nsides: usize) -> Vec<Point> {
    let n = nsides as f64;
    let delta = 2.0 * PI / n;
    let phiinc = delta / 10.0;
    let inner = p.special as f64 / (n * (PI / n).tan()).sqrt();
    let outer = inner / (PI / (2.0 * n)).cos();
    let iradius = (outer + 1.0) as i32;
    let (mut x, mut y, mut phi) = (iradius, iradius, 0.0f64);
    let mut v = Vec::with_capacity(nsides * p.objects as usize);
    for _ in 0..p.objects {
        let mut phi2 = phi;
        for _ in 0..nsides {
            v.push(pt(x as f64 + (outer * phi2.cos() + 0.5), y as f64 + (outer * phi2.sin() + 0.5)));
            phi2 += delta;
        }
        phi += phiinc;
        y += 2 * iradius;
        if y + iradius >= HEIGHT {
            y = iradius;
            x += 2 * iradius;
            if x + iradius >= WIDTH {
                x = iradius;
            }
        }
    }
    v
}

/// Which polygons a workload fills.
#[derive(Clone, Copy)]
enum Shape {
    Triangle,
    Trapezoid,
    Arrowhead,
    Ngon(usize, i32),
}

/// One polygon-fill workload.
pub struct Polys {
    shape: Shape,
    points: Vec<Point>,
    pen: Pen,
}

impl Polys {
    fn boxed(shape: Shape) -> Box<dyn Workload> {
        Box::new(Polys { shape, points: Vec::new(), pen: Pen::Fg })
    }
    pub fn triangles() -> Box<dyn Workload> {
        Polys::boxed(Shape::Triangle)
    }
    pub fn trapezoids() -> Box<dyn Workload> {
        Polys::boxed(Shape::Trapezoid)
    }
    pub fn complex() -> Box<dyn Workload> {
        Polys::boxed(Shape::Arrowhead)
    }
    pub fn ngon64_convex() -> Box<dyn Workload> {
        Polys::boxed(Shape::Ngon(64, CONVEX))
    }
    pub fn ngon64_complex() -> Box<dyn Workload> {
        Polys::boxed(Shape::Ngon(64, COMPLEX))
    }
}

impl Workload for Polys {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        self.pen = Pen::Fg;
        self.points = match self.shape {
            Shape::Triangle => triangles(p),
            Shape::Trapezoid => trapezoids(p),
            Shape::Arrowhead => arrowheads(p),
            Shape::Ngon(n, _) => ngons(p, n),
        };
        if matches!(self.shape, Shape::Triangle | Shape::Trapezoid) {
            set_fill_style(xp, p);
        }
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let (n, shape) = match self.shape {
            Shape::Triangle => (3, CONVEX),
            Shape::Trapezoid => (4, CONVEX),
            Shape::Arrowhead => (4, COMPLEX),
            Shape::Ngon(n, mode) => (n, mode),
        };
        for _ in 0..reps {
            let gc = self.pen.gc(xp);
            for poly in self.points.chunks_exact(n) {
                xp.d.fill_polygon(xp.w, gc, poly, shape);
            }
            self.pen = self.pen.next();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_x11perf_geometry() {
        let t = triangles(&Parms::new(3, 10));
        // radius = 10 * (16/27)^(1/4) = 8.774; iradius 9; first vertex at phi 0.
        assert_eq!((t[0].x, t[0].y), (18, 9));
        let z = trapezoids(&Parms::new(2, 300));
        assert_eq!((z[0].x, z[0].y, z[2].x, z[2].y), (0, 0, 600, 300));
        assert_eq!(ngons(&Parms::new(1, 100), 64).len(), 64);
    }
}
