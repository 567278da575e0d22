//! Segments and polylines (x11perf's `do_segs.c`, `do_lines.c`): `seg100c3`, `wvseg100`,
//! `ddline100`.

use super::harness::{Parms, Workload, Xp, HEIGHT, MAXROWS, WIDTH};
use crate::sys::x11::{
    Gc, Point, Segment, CAP_BUTT, CAP_ROUND, JOIN_MITER, JOIN_ROUND, LINE_DOUBLE_DASH, LINE_SOLID,
};

/// CapNotLast: segments of length 1 keep a direction.
const CAP_NOT_LAST: i32 = 0;

/// Which of x11perf's four GCs a test draws with next; they alternate as in `DoSegments`.
#[derive(Clone, Copy, PartialEq)]
pub enum Pen {
    Fg,
    Bg,
    DdFg,
    DdBg,
}

impl Pen {
    pub fn gc(self, xp: &Xp) -> Gc {
        match self {
            Pen::Fg => xp.fggc,
            Pen::Bg => xp.bggc,
            Pen::DdFg => xp.ddfggc,
            Pen::DdBg => xp.ddbggc,
        }
    }
    pub fn next(self) -> Pen {
        match self {
            Pen::DdBg => Pen::DdFg,
            Pen::DdFg => Pen::DdBg,
            Pen::Bg => Pen::Fg,
            Pen::Fg => Pen::Bg,
        }
    }
}

/// `GenerateSegments`: segments rotating around squares down the window.
fn generate_segments(p: &Parms) -> Vec<Segment> {
    let size = p.special;
    let size8 = 8 * size;
    let half = (size + 19) / 20;
    let (mut x, mut y, mut phase, mut rows) = (half, half, 0, 0);
    let phaseinc = (size8 / p.objects).max(1);
    let mut v = Vec::with_capacity(p.objects as usize);
    for _ in 0..p.objects {
        let m = phase % size;
        let (x1, y1, x2, y2) = match phase / size {
            0 => (0, 0, size, phase),
            1 => (m, 0, size, size),
            2 => (size, 0, size - m, size),
            3 => (size, m, 0, size),
            4 => (size, size, 0, size - m),
            5 => (size - m, size, 0, 0),
            6 => (0, size, m, 0),
            _ => (0, size - m, size, 0),
        };
        v.push(Segment {
            x1: (x + x1) as i16,
            y1: (y + y1) as i16,
            x2: (x + x2) as i16,
            y2: (y + y2) as i16,
        });
        rows += 1;
        y += size;
        if y >= HEIGHT - size - half || rows == MAXROWS {
            rows = 0;
            y = half;
            x += size;
            if x >= WIDTH - size - half {
                x = half;
            }
        }
        phase += phaseinc;
        if phase >= size8 {
            phase -= size8;
        }
    }
    v
}

/// `InitVertSegments`: vertical segments, alternately down and up.
fn generate_vert_segments(p: &Parms) -> Vec<Segment> {
    let size = p.special;
    let half = (size + 19) / 20;
    let (mut x, mut y, mut x1, mut rows) = (half, half, 0, 0);
    let inc = (size / p.objects).max(1);
    let mut v = Vec::with_capacity(p.objects as usize);
    for i in 0..p.objects {
        if i % 2 == 1 {
            v.push(Segment {
                x1: (x + size - x1) as i16,
                x2: (x + size - x1) as i16,
                y1: (y + size) as i16,
                y2: y as i16,
            });
            x1 += inc;
            if x1 >= size {
                x1 -= size;
            }
        } else {
            v.push(Segment { x1: (x + x1) as i16, x2: (x + x1) as i16, y1: y as i16, y2: (y + size) as i16 });
        }
        rows += 1;
        y += size;
        if y >= HEIGHT - size - half || rows == MAXROWS {
            rows = 0;
            y = half;
            x += size;
            if x >= WIDTH - size - half {
                x = half;
            }
        }
    }
    v
}

/// The segment tests.
pub struct Segments {
    wide_vertical: bool,
    segs: Vec<Segment>,
    pen: Pen,
}

impl Segments {
    /// `InitSegments` + `DoSegments` (seg100c3: under 3 clip windows).
    pub fn plain() -> Box<dyn Workload> {
        Box::new(Segments { wide_vertical: false, segs: Vec::new(), pen: Pen::Fg })
    }
    /// `InitWideVertSegments` + `DoSegments`.
    pub fn wide_vertical() -> Box<dyn Workload> {
        Box::new(Segments { wide_vertical: true, segs: Vec::new(), pen: Pen::Fg })
    }
}

impl Workload for Segments {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        self.pen = Pen::Fg;
        let d = &xp.d;
        if self.wide_vertical {
            self.segs = generate_vert_segments(p);
            let w = ((p.special + 9) / 10) as u32;
            for gc in [xp.bggc, xp.fggc] {
                d.set_line_attributes(gc, w, LINE_SOLID, CAP_ROUND, JOIN_ROUND);
            }
        } else {
            self.segs = generate_segments(p);
            for gc in [xp.fggc, xp.bggc] {
                d.set_line_attributes(gc, 0, LINE_SOLID, CAP_NOT_LAST, JOIN_MITER);
            }
        }
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            xp.d.draw_segments(xp.w, self.pen.gc(xp), &self.segs);
            self.pen = self.pen.next();
        }
    }
}

/// `GenerateLines`: a polyline of `objects` lines bouncing down and up the window.
fn generate_lines(p: &Parms) -> Vec<Point> {
    let size = p.special;
    let size4 = 4 * (size + 1);
    let half = (size + 19) / 20;
    let (mut x, mut y) = (half, half);
    let (mut xdir, mut ydir, mut bigxdir) = (1, 1, 1);
    let mut phasef: f32 = 0.0;
    let phaseinc = (size4 as f32 / p.objects as f32).max(1.0);
    let mut rows = 0;
    let mut pts = Vec::with_capacity(p.objects as usize + 1);
    pts.push(Point { x: x as i16, y: y as i16 });
    let (mut x1, mut y1) = (0, 0);
    for _ in 1..=p.objects {
        let phase = phasef as i32;
        match phase / (size + 1) {
            0 => (x1, y1) = (size, phase),
            1 => (x1, y1) = (size - phase % (size + 1), size),
            2 => (x1, y1) = (phase % (size + 1), size),
            3 => (x1, y1) = (size, size - phase % (size + 1)),
            _ => {}
        }
        y += ydir * y1;
        rows += 1;
        if y < half || y >= HEIGHT - half || rows > MAXROWS {
            rows = 0;
            if bigxdir > 0 {
                if x + size < WIDTH - half {
                    xdir = 1;
                } else {
                    bigxdir = -1;
                }
            } else if x - size > half {
                xdir = -1;
            } else {
                bigxdir = 1;
            }
            ydir = -ydir;
            y += 2 * ydir * y1;
            if y < half {
                y = (HEIGHT - y1) / 2;
                ydir = 1;
            } else if y > HEIGHT - half {
                y = (HEIGHT + y1) / 2;
                ydir = -1;
            }
        }
        x += xdir * x1;
        xdir = -xdir;
        if x < half {
            x = (WIDTH - x1) / 2;
            xdir = 1;
        } else if x > WIDTH - half {
            x = (WIDTH + x1) / 2;
            xdir = -1;
        }
        pts.push(Point { x: x as i16, y: y as i16 });
        phasef += phaseinc;
        if phasef >= size4 as f32 {
            phasef -= size4 as f32;
        }
    }
    pts
}

/// `InitDoubleDashedLines` + `DoLines`: 3-on 2-off double-dashed thin lines.
pub struct DoubleDashedLines {
    points: Vec<Point>,
    pen: Pen,
}

impl DoubleDashedLines {
    pub fn make() -> Box<dyn Workload> {
        Box::new(DoubleDashedLines { points: Vec::new(), pen: Pen::DdFg })
    }
}

impl Workload for DoubleDashedLines {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        self.points = generate_lines(p);
        self.pen = Pen::DdFg;
        for gc in [xp.ddbggc, xp.ddfggc] {
            xp.d.set_line_attributes(gc, 0, LINE_DOUBLE_DASH, CAP_BUTT, JOIN_MITER);
            xp.d.set_dashes(gc, 0, &[3, 2]);
        }
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            xp.d.draw_lines(xp.w, self.pen.gc(xp), &self.points);
            self.pen = self.pen.next();
        }
    }
}
