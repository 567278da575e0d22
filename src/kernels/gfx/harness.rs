//! x11perf's measuring rules (`x11perf.c`): the perf window and GCs, `HardwareSync`,
//! `CalibrateTest`, `ProcessTest`, `DoTest` and `ReportTimes`, for one workload at a time.
//!
//! A workload is x11perf's init/proc/passCleanup/cleanup quadruple, as a [`Workload`]. The
//! harness owns the connection ([`Xp`], x11perf's `XParms`) and calls them in x11perf's order,
//! so the requests a timed pass sends and the round trips that bound it are x11perf's.

use crate::error::{Error, Result};
use crate::sys::clock;
use crate::sys::x11::{Display, Gc, Pixmap, Window, ALL_PLANES, GX_COPY, Z_PIXMAP};
use std::io::Write;

/// Size of the perf window (x11perf's WIDTH, HEIGHT).
pub const WIDTH: i32 = 600;
pub const HEIGHT: i32 = 600;
/// Items per poly request for small objects, rows and columns of items (x11perf.h).
pub const POLY: i32 = 1000;
pub const MAXROWS: i32 = 40;
pub const MAXCOLS: i32 = 25;
pub const CHILDSIZE: i32 = 8;
pub const CHILDSPACE: i32 = 4;

/// The clip windows x11perf lays over the perf window (`ws[]`).
const CLIP_RECTS: [(i32, i32, u32, u32); 6] = [
    (195, 195, 120, 120),
    (45, 145, 120, 120),
    (345, 245, 120, 120),
    (45, 275, 120, 120),
    (345, 115, 120, 120),
    (195, 325, 120, 120),
];

/// x11perf's `TestType`: how the test is run through rops, planemasks or window counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Graphics test, drawn with GXcopy and all planes (the default rop list).
    Rop,
    /// Overhead or Render test, run once.
    NonRop,
    /// Windowing test: run once per sub-window count (`-subs 25`: 25 children).
    Window,
}

/// x11perf's `ParmRec`.
#[derive(Clone, Copy, Debug)]
pub struct Parms {
    /// Objects per request (per rep).
    pub objects: i32,
    /// Usually the object size.
    pub special: i32,
    /// Tile/stipple name, font name, or a test-specific string.
    pub font: Option<&'static str>,
    /// Second font, or a line width.
    pub bfont: Option<&'static str>,
    /// FillSolid, FillTiled, FillStippled, FillOpaqueStippled.
    pub fill_style: i32,
}

impl Parms {
    pub const fn new(objects: i32, special: i32) -> Parms {
        Parms { objects, special, font: None, bfont: None, fill_style: 0 }
    }
    pub const fn font(mut self, f: &'static str) -> Parms {
        self.font = Some(f);
        self
    }
    pub const fn bfont(mut self, f: &'static str) -> Parms {
        self.bfont = Some(f);
        self
    }
    pub const fn fill(mut self, s: i32) -> Parms {
        self.fill_style = s;
        self
    }
}

/// x11perf's `XParms`: the connection, the perf window and the four GCs.
pub struct Xp {
    pub d: Display,
    pub w: Window,
    /// The pixmap HardwareSync reads instead of the window (0: the window).
    pub p: Pixmap,
    pub fggc: Gc,
    pub bggc: Gc,
    pub ddfggc: Gc,
    pub ddbggc: Gc,
    pub foreground: u64,
    pub background: u64,
    pub ddbackground: u64,
    pub depth: u32,
    pub planemask: u64,
    pub func: i32,
}

/// One x11perf test: init (returns the reps it can do, 0 to skip), the timed proc, the
/// cleanup between passes and the final cleanup.
pub trait Workload {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64;
    fn run(&mut self, xp: &mut Xp, p: &Parms, reps: i64);
    fn pass_cleanup(&mut self, _xp: &mut Xp, _p: &Parms) {}
    fn cleanup(&mut self, _xp: &mut Xp, _p: &Parms) {}
}

/// One entry of x11perf's test table, with gfx-x11's reference rate.
pub struct Spec {
    /// The x11perf option without its dash, e.g. `rect10`.
    pub name: &'static str,
    /// x11perf's label (the 1.4+ label where it has two).
    pub label: &'static str,
    /// gfx-x11's reference rate (objects per second on its reference machine).
    pub reference: f64,
    pub kind: Kind,
    /// Clip windows laid over the perf window.
    pub clips: usize,
    pub parms: Parms,
    /// Builds the workload.
    pub make: fn() -> Box<dyn Workload>,
}

/// The sync-cost test (`syncTest`): HardwareSync `reps` times.
struct SyncTest {
    w: Window,
    hs: (i32, i32),
}

impl Workload for SyncTest {
    fn init(&mut self, _xp: &mut Xp, _p: &mut Parms, reps: i64) -> i64 {
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            hardware_sync_on(&xp.d, if xp.p != 0 { xp.p } else { self.w }, self.hs);
        }
    }
}

fn hardware_sync_on(d: &Display, drawable: u64, (x, y): (i32, i32)) {
    // A 1x1 GetImage makes the server finish everything queued before it (x11perf's comment:
    // hardware may claim to be done while still drawing).
    drop(d.get_image(drawable, x, y, 1, 1, ALL_PLANES, Z_PIXMAP));
}

/// Microseconds of `gettimeofday`, as x11perf's `InitTimes`/`ElapsedTime`.
fn now_us() -> f64 {
    clock::gettimeofday() * 1e6
}

/// x11perf's `RoundTo3Digits`.
pub fn round_to_3_digits(d: f64) -> f64 {
    let (mut d, sign) = if d < 0.0 { (-d, -1.0) } else { (d, 1.0) };
    let mut exponent = 1.0;
    if d >= 1000.0 {
        loop {
            exponent *= 10.0;
            if d / exponent < 1000.0 {
                break;
            }
        }
        d = ((d / exponent + 0.5) as i64) as f64 * exponent;
    } else {
        if d != 0.0 {
            while d * exponent < 100.0 {
                exponent *= 10.0;
            }
        }
        d = ((d * exponent + 0.5) as i64) as f64 / exponent;
    }
    d * sign
}

/// x11perf's `ReportTimes` line; returns the rate as the line shows it (`%8.1f` of the
/// 3-digit rounding, which is what gfx-x11 parses; 0 when unmeasurable).
pub fn report_line(usecs: f64, n: i64, label: &str, average: bool) -> (String, f64) {
    let tag = if average { "trep" } else { "reps" };
    if usecs != 0.0 {
        let msecs_per_obj = usecs / (1000.0 * n as f64);
        let objs_per_sec = round_to_3_digits(n as f64 * 1_000_000.0 / usecs);
        (
            format!("{n:>11} {tag} @ {msecs_per_obj:>8.4} msec ({objs_per_sec:>8.1}/sec): {label}"),
            format!("{objs_per_sec:.1}").parse().unwrap_or(0.0),
        )
    } else {
        let t = if average { "t" } else { "" };
        (format!("{n:>6} {t}reps @ 0.0 msec (unmeasurably fast): {label}"), 0.0)
    }
}

/// The x11perf run of one group: window, status window, sync cost, then tests one by one.
pub struct X11Perf {
    xp: Xp,
    status: Window,
    tgc: Gc,
    hs: (i32, i32),
    origin: (i32, i32),
    sync_time: f64,
    repeat: u32,
    seconds: u32,
    fixed_reps: i64,
    verify: bool,
    saver: [i32; 4],
    clip_windows: Vec<Window>,
}

impl X11Perf {
    /// x11perf's `main` up to the test loop.
    pub fn new(d: Display, repeat: u32, seconds: u32, fixed_reps: u64, verify: bool) -> X11Perf {
        let (vendor, release, name) = d.server_info();
        println!("{vendor} server version {release} on {name}");
        d.force_screen_saver_reset();
        let saver = d.get_screen_saver();
        d.set_screen_saver([8 * 3600, saver[1], saver[2], saver[3]]);
        let (fg, bg) = (d.black_pixel(), d.white_pixel());
        let (sw, sh) = d.size();
        let wx = if sw < WIDTH + 2 + 1 { -1 } else { 2 };
        let wy = if sh < HEIGHT + 2 + 1 { -1 } else { 2 };
        let w = d.create_perf_window(wx, wy, WIDTH as u32, HEIGHT as u32, bg, fg);
        let mut hs = (WIDTH - 1, HEIGHT - 1);
        if wx + 1 + WIDTH > sw {
            hs.0 = sw - (1 + wx + 1);
        }
        if wy + 1 + HEIGHT > sh {
            hs.1 = sh - (1 + wy + 1);
        }
        let status = d.create_perf_window(wx, HEIGHT + 5, WIDTH as u32, 20, bg, fg);
        let tgc = d.create_gc(status);
        d.set_foreground(tgc, fg);
        d.set_background(tgc, bg);
        let depth = d.default_depth();
        let gc = d.create_gc(w);
        let xp = Xp {
            d,
            w,
            p: 0,
            fggc: gc,
            bggc: gc,
            ddfggc: gc,
            ddbggc: gc,
            foreground: fg,
            background: bg,
            ddbackground: bg,
            depth,
            planemask: ALL_PLANES,
            func: GX_COPY,
        };
        let mut x = X11Perf {
            xp,
            status,
            tgc,
            hs,
            origin: (wx, wy),
            sync_time: 0.0,
            repeat,
            seconds,
            fixed_reps: fixed_reps as i64,
            verify,
            saver,
            clip_windows: Vec::new(),
        };
        x.xp.d.free_gc(gc);
        x.create_perf_gcs(GX_COPY, ALL_PLANES);
        x.xp.d.warp_pointer(status, WIDTH + 32, 20 + 32);
        let mut sync = SyncTest { w, hs };
        let mut parms = Parms::new(1, 0);
        let (_, per_obj) = x.calibrate(&mut sync, &mut parms, 0, 1);
        x.sync_time = per_obj;
        x.destroy_perf_gcs();
        println!("Sync time adjustment is {:6.4} msecs.\n", x.sync_time / 1000.0);
        x
    }

    fn hardware_sync(&self) {
        hardware_sync_on(&self.xp.d, if self.xp.p != 0 { self.xp.p } else { self.xp.w }, self.hs);
    }

    fn elapsed(&self, start: f64) -> f64 {
        now_us() - start - self.sync_time
    }

    /// x11perf's `CreatePerfGCs` (copy-mode colours; x11perf's xor variant is never used here).
    fn create_perf_gcs(&mut self, func: i32, pm: u64) {
        let xp = &mut self.xp;
        let (fg, bg, ddbg) = (xp.foreground, xp.background, xp.ddbackground);
        let make = |d: &Display, f: u64, b: u64| {
            let gc = d.create_gc(xp.w);
            d.set_foreground(gc, f);
            d.set_background(gc, b);
            d.set_graphics_exposures(gc, false);
            d.set_function(gc, func);
            d.set_plane_mask(gc, pm);
            gc
        };
        xp.fggc = make(&xp.d, fg, bg);
        xp.bggc = make(&xp.d, bg, fg);
        xp.ddfggc = make(&xp.d, fg, ddbg);
        xp.ddbggc = make(&xp.d, ddbg, fg);
    }

    fn destroy_perf_gcs(&mut self) {
        let xp = &self.xp;
        for gc in [xp.fggc, xp.bggc, xp.ddfggc, xp.ddbggc] {
            xp.d.free_gc(gc);
        }
    }

    fn create_clip_windows(&mut self, clips: usize) {
        for &(x, y, w, h) in CLIP_RECTS.iter().take(clips) {
            let (ox, oy) = self.origin;
            let cw =
                self.xp.d.create_perf_window(ox + x, oy + y, w, h, self.xp.background, self.xp.foreground);
            self.clip_windows.push(cw);
        }
    }

    fn destroy_clip_windows(&mut self) {
        for w in self.clip_windows.drain(..) {
            self.xp.d.destroy_window(w);
        }
    }

    fn display_status(&self, message: &str, label: &str, attempt: u32) {
        self.xp.d.clear_window(self.status);
        self.xp.d.draw_string(self.status, self.tgc, 10, 13, &format!("{attempt} {message} {label}"));
    }

    /// x11perf's `CalibrateTest`: returns (reps for `seconds`, microseconds per object).
    fn calibrate(&mut self, t: &mut dyn Workload, p: &mut Parms, clips: usize, seconds: u32) -> (i64, f64) {
        const GOAL: f64 = 2_500_000.0;
        const ENOUGH: f64 = 2_000_000.0;
        const TICK: f64 = 10_000.0;
        if self.fixed_reps != 0 {
            return (self.fixed_reps, 0.0);
        }
        let mut reps: i64 = 1;
        let usecs;
        loop {
            self.xp.d.destroy_subwindows(self.xp.w);
            self.xp.d.clear_window(self.xp.w);
            let did = t.init(&mut self.xp, p, reps);
            if did == 0 {
                return (0, 0.0);
            }
            self.create_clip_windows(clips);
            self.hardware_sync();
            let start = now_us();
            t.run(&mut self.xp, p, reps);
            self.hardware_sync();
            let u = self.elapsed(start);
            t.pass_cleanup(&mut self.xp, p);
            t.cleanup(&mut self.xp, p);
            self.destroy_clip_windows();
            if did != reps {
                return (did, u / (did * p.objects as i64) as f64);
            }
            if u >= ENOUGH {
                usecs = u;
                break;
            }
            reps = if u <= TICK { reps * 10 } else { (GOAL * reps as f64 / u) as i32 as i64 + 1 };
        }
        let per_obj = usecs / (reps * p.objects as i64) as f64;
        let mut reps = (seconds as f64 * 1_000_000.0 * reps as f64 / usecs) as i32 as i64 + 1;
        // Round up to one significant digit, as x11perf does.
        reps -= 1;
        let mut exponent = 1;
        while reps > 9 {
            reps /= 10;
            exponent *= 10;
        }
        ((reps + 1) * exponent, per_obj)
    }

    /// x11perf's `ProcessTest` for one table entry; returns the rate gfx-x11 would take from
    /// the output (the last `trep` line's, 0 when there is none).
    pub fn process(&mut self, spec: &Spec) -> Result<f64> {
        let mut parms = spec.parms;
        let mut label = spec.label.to_string();
        if spec.kind == Kind::Window {
            parms.objects = 25;
            label = format!("{} ({} kids)", spec.label, parms.objects);
        }
        let mut t = (spec.make)();
        self.xp.planemask = ALL_PLANES;
        self.xp.func = GX_COPY;
        self.create_perf_gcs(GX_COPY, ALL_PLANES);
        self.display_status("Calibrating", &label, 0);
        let (mut reps, _) = self.calibrate(t.as_mut(), &mut parms, spec.clips, self.seconds);
        let mut rate = 0.0;
        if reps == 0 {
            println!("skipped {}: it cannot be set up on this server", spec.name);
        } else {
            self.xp.d.destroy_subwindows(self.xp.w);
            self.xp.d.clear_window(self.xp.w);
            reps = t.init(&mut self.xp, &mut parms, reps);
            if reps == 0 {
                println!("skipped {}: it cannot be set up on this server\n", spec.name);
                self.destroy_perf_gcs();
                return Ok(0.0);
            }
            self.create_clip_windows(spec.clips);
            let mut total = 0.0;
            for j in 0..self.repeat {
                self.display_status("Testing", &label, j + 1);
                self.xp.d.force_screen_saver_reset();
                self.hardware_sync();
                let start = now_us();
                t.run(&mut self.xp, &parms, reps);
                self.hardware_sync();
                let time = self.elapsed(start).max(0.0);
                t.pass_cleanup(&mut self.xp, &parms);
                total += time;
                println!("{}", report_line(time, reps * parms.objects as i64, &label, false).0);
            }
            if self.repeat > 1 {
                let (line, r) =
                    report_line(total, self.repeat as i64 * reps * parms.objects as i64, &label, true);
                println!("{line}");
                rate = r;
            }
            t.cleanup(&mut self.xp, &parms);
            self.destroy_clip_windows();
            if self.verify {
                self.verify_drawn(spec, t.as_mut(), &mut parms)?;
            }
        }
        println!();
        let _ = std::io::stdout().flush();
        self.destroy_perf_gcs();
        Ok(rate)
    }

    /// Draws one rep from a fresh init, reads the whole window back and counts the pixels that
    /// are not the background: zero means the workload drew nothing.
    fn verify_drawn(&mut self, spec: &Spec, t: &mut dyn Workload, parms: &mut Parms) -> Result {
        self.xp.d.destroy_subwindows(self.xp.w);
        self.xp.d.clear_window(self.xp.w);
        if t.init(&mut self.xp, parms, 1) == 0 {
            return Err(Error::failed(format!("verify {}: init failed", spec.name)));
        }
        t.run(&mut self.xp, parms, 1);
        self.xp.d.sync();
        let img = self
            .xp
            .d
            .get_image(self.xp.w, 0, 0, WIDTH as u32, HEIGHT as u32, ALL_PLANES, Z_PIXMAP)
            .ok_or_else(|| Error::failed(format!("verify {}: XGetImage failed", spec.name)))?;
        let bg = self.xp.background;
        let mut drawn = 0u64;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                if img.pixel(x, y) != bg {
                    drawn += 1;
                }
            }
        }
        t.pass_cleanup(&mut self.xp, parms);
        t.cleanup(&mut self.xp, parms);
        self.xp.d.destroy_subwindows(self.xp.w);
        println!("verify {}: {} of {} pixels drawn", spec.name, drawn, WIDTH * HEIGHT);
        if drawn == 0 {
            return Err(Error::failed(format!("verify {}: nothing was drawn in the window", spec.name)));
        }
        Ok(())
    }

    /// Restores the screen saver and closes the windows (x11perf's end of `main`).
    pub fn finish(self) {
        let d = &self.xp.d;
        d.free_gc(self.tgc);
        d.destroy_window(self.xp.w);
        d.destroy_window(self.status);
        d.set_screen_saver(self.saver);
        d.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_as_x11perf() {
        assert_eq!(round_to_3_digits(16_843_211.0), 16_800_000.0);
        assert_eq!(round_to_3_digits(2_445_000.0), 2_450_000.0);
        assert_eq!(round_to_3_digits(999.4), 999.0);
        assert_eq!(round_to_3_digits(12.345), 12.3);
        assert_eq!(round_to_3_digits(0.1234), 0.123);
    }

    #[test]
    fn report_lines_match_x11perf_format() {
        let (l, r) = report_line(1_190_476.0, 20_000_000, "10x10 rectangle", false);
        assert_eq!(l, "   20000000 reps @   0.0001 msec (16800000.0/sec): 10x10 rectangle");
        assert_eq!(r, 16_800_000.0);
        let (l, _) = report_line(6_000_000.0, 60_000, "Scroll 100x100 pixels", true);
        assert_eq!(l, "      60000 trep @   0.1000 msec ( 10000.0/sec): Scroll 100x100 pixels");
        assert_eq!(report_line(0.0, 5, "x", true).1, 0.0);
        // Below 10/s the rate keeps 3 digits but the line, and so gfx-x11, only one decimal.
        assert_eq!(report_line(8_100_000.0, 10, "x", true).1, 1.2);
    }
}
