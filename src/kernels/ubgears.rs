//! `ubgears [-time N] [-v] [-info] [-display NAME]`: UnixBench's fork of glxgears
//! (docs/ORIGINAL.md, "gfx-x11 and ubgears"), fixed-function OpenGL through GLX.
//!
//! Three gears built once into display lists, a 300x300 double-buffered RGB window with a
//! depth buffer, one light, culling and GL_NORMALIZE. Each frame: handle pending X events,
//! advance the angle by 60 degrees a second of the time since the last frame (10 ms assumed if
//! none), draw, swap, `sched_yield()`. Every 5 s or more it prints `%d frames in %3.1f seconds
//! = %6.3f FPS`; the first report also prints `Start timing!` and opens the measured window,
//! which counts frames from that frame on. When more than N seconds have passed since then it
//! prints `COUNT|<frames>|1|fps` and `TIME|%.1f` on stderr and exits. Without `-time` it runs
//! until killed, as the C program does.
//!
//! Exit status 3 with `skipped: no X display` on stderr when there is no display, as the 2D
//! applets ([`super::gfx::NO_DISPLAY_EXIT`]). Hidden `--verify`: after the first frame, read
//! the back buffer and fail (exit 1) unless red, green and blue gear pixels are all there.

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::sys::clock;
use crate::sys::gl;
use crate::sys::x11::{Display, CONFIGURE_NOTIFY, EXPOSE};
use std::f64::consts::PI;
use std::ffi::OsString;
use std::io::Write;

struct Opts {
    run_time: i64,
    print_info: bool,
    verbose: bool,
    verify: bool,
}

fn parse(argv: &[OsString]) -> Result<Opts> {
    let mut o = Opts { run_time: -1, print_info: false, verbose: false, verify: false };
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        match s.as_ref() {
            "-display" => {
                let name = it.next().ok_or_else(|| Error::usage("-display needs a display name"))?;
                std::env::set_var("DISPLAY", name);
            }
            "-info" => o.print_info = true,
            "-time" => {
                let v = it.next().ok_or_else(|| Error::usage("-time needs a number of seconds"))?;
                o.run_time = args::parse_uint("run time", v, 1, args::MAX_DURATION)? as i64 * 1_000_000;
            }
            "--verify" => o.verify = true,
            // The C program compares with strncmp over the argument's length: "-v" or "-".
            v if !v.is_empty() && "-v".starts_with(v) => {
                o.verbose = true;
                o.print_info = true;
            }
            v if v.len() > 1 && "-debug_use_threadsafe_api".starts_with(v) => {}
            _ => {
                return Err(Error::usage(format!(
                    "unsupported option '{s}' (usage: ubgears [-time N] [-v] [-info])"
                )))
            }
        }
    }
    Ok(o)
}

/// `gear()`: one gear into the current display list, computed as the C code does (float
/// variables, double trigonometry).
fn gear(inner_radius: f32, outer_radius: f32, width: f32, teeth: i32, tooth_depth: f32) {
    let r0 = inner_radius;
    let r1 = outer_radius - tooth_depth / 2.0;
    let r2 = outer_radius + tooth_depth / 2.0;
    let da = (2.0 * PI / teeth as f64 / 4.0) as f32;
    let angle_of = |i: i32| (i as f64 * 2.0 * PI / teeth as f64) as f32;
    let c = |a: f32| (a as f64).cos();
    let s = |a: f32| (a as f64).sin();
    let v = |r: f32, a: f32, z: f32| gl::vertex3f((r as f64 * c(a)) as f32, (r as f64 * s(a)) as f32, z);
    let hw = width * 0.5;

    gl::shade_model(gl::FLAT);
    gl::normal3f(0.0, 0.0, 1.0);
    // Front face.
    gl::begin(gl::QUAD_STRIP);
    for i in 0..=teeth {
        let a = angle_of(i);
        v(r0, a, hw);
        v(r1, a, hw);
        if i < teeth {
            v(r0, a, hw);
            v(r1, a + 3.0 * da, hw);
        }
    }
    gl::end();
    // Front sides of teeth.
    gl::begin(gl::QUADS);
    for i in 0..teeth {
        let a = angle_of(i);
        v(r1, a, hw);
        v(r2, a + da, hw);
        v(r2, a + 2.0 * da, hw);
        v(r1, a + 3.0 * da, hw);
    }
    gl::end();
    gl::normal3f(0.0, 0.0, -1.0);
    // Back face.
    gl::begin(gl::QUAD_STRIP);
    for i in 0..=teeth {
        let a = angle_of(i);
        v(r1, a, -hw);
        v(r0, a, -hw);
        if i < teeth {
            v(r1, a + 3.0 * da, -hw);
            v(r0, a, -hw);
        }
    }
    gl::end();
    // Back sides of teeth.
    gl::begin(gl::QUADS);
    for i in 0..teeth {
        let a = angle_of(i);
        v(r1, a + 3.0 * da, -hw);
        v(r2, a + 2.0 * da, -hw);
        v(r2, a + da, -hw);
        v(r1, a, -hw);
    }
    gl::end();
    // Outward faces of teeth.
    gl::begin(gl::QUAD_STRIP);
    for i in 0..teeth {
        let a = angle_of(i);
        v(r1, a, hw);
        v(r1, a, -hw);
        let mut u = (r2 as f64 * c(a + da) - r1 as f64 * c(a)) as f32;
        let mut w = (r2 as f64 * s(a + da) - r1 as f64 * s(a)) as f32;
        let len = ((u * u + w * w) as f64).sqrt() as f32;
        u /= len;
        w /= len;
        gl::normal3f(w, -u, 0.0);
        v(r2, a + da, hw);
        v(r2, a + da, -hw);
        gl::normal3f(c(a + 1.5 * da) as f32, s(a + 1.5 * da) as f32, 0.0);
        v(r2, a + 2.0 * da, hw);
        v(r2, a + 2.0 * da, -hw);
        let u = (r1 as f64 * c(a + 3.0 * da) - r2 as f64 * c(a + 2.0 * da)) as f32;
        let w = (r1 as f64 * s(a + 3.0 * da) - r2 as f64 * s(a + 2.0 * da)) as f32;
        gl::normal3f(w, -u, 0.0);
        v(r1, a + 3.0 * da, hw);
        v(r1, a + 3.0 * da, -hw);
        gl::normal3f(c(a + 3.5 * da) as f32, s(a + 3.5 * da) as f32, 0.0);
    }
    v(r1, 0.0, hw);
    v(r1, 0.0, -hw);
    gl::end();
    gl::shade_model(gl::SMOOTH);
    // Inside radius cylinder.
    gl::begin(gl::QUAD_STRIP);
    for i in 0..=teeth {
        let a = angle_of(i);
        gl::normal3f(-c(a) as f32, -s(a) as f32, 0.0);
        v(r0, a, -hw);
        v(r0, a, hw);
    }
    gl::end();
}

/// A gear's colour and its `gear()` arguments.
type GearDef = ([f32; 4], (f32, f32, f32, i32, f32));

struct Scene {
    gears: [u32; 3],
    angle: f32,
}

impl Scene {
    /// `init()`: light, state and the three display lists.
    fn init() -> Scene {
        gl::lightfv(gl::LIGHT0, gl::POSITION, &[5.0, 5.0, 10.0, 0.0]);
        gl::enable(gl::CULL_FACE);
        gl::enable(gl::LIGHTING);
        gl::enable(gl::LIGHT0);
        gl::enable(gl::DEPTH_TEST);
        let mut gears = [0; 3];
        let defs: [GearDef; 3] = [
            ([0.8, 0.1, 0.0, 1.0], (1.0, 4.0, 1.0, 20, 0.7)),
            ([0.0, 0.8, 0.2, 1.0], (0.5, 2.0, 2.0, 10, 0.7)),
            ([0.2, 0.2, 1.0, 1.0], (1.3, 2.0, 0.5, 10, 0.7)),
        ];
        for (g, (colour, (ri, ro, w, t, depth))) in gears.iter_mut().zip(defs) {
            *g = gl::gen_list();
            gl::new_list(*g, gl::COMPILE);
            gl::materialfv(gl::FRONT, gl::AMBIENT_AND_DIFFUSE, &colour);
            gear(ri, ro, w, t, depth);
            gl::end_list();
        }
        gl::enable(gl::NORMALIZE);
        Scene { gears, angle: 0.0 }
    }

    fn draw(&self) {
        gl::clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
        gl::push_matrix();
        gl::rotatef(20.0, 1.0, 0.0, 0.0);
        gl::rotatef(30.0, 0.0, 1.0, 0.0);
        gl::rotatef(0.0, 0.0, 0.0, 1.0);
        let places = [
            (-3.0, -2.0, self.angle),
            (3.1, -2.0, -2.0 * self.angle - 9.0),
            (-3.1, 4.2, -2.0 * self.angle - 25.0),
        ];
        for (g, (x, y, rot)) in self.gears.iter().zip(places) {
            gl::push_matrix();
            gl::translatef(x, y, 0.0);
            gl::rotatef(rot, 0.0, 0.0, 1.0);
            gl::call_list(*g);
            gl::pop_matrix();
        }
        gl::pop_matrix();
    }
}

/// `reshape()`: viewport and frustum fitted to the window.
fn reshape(width: i32, height: i32) {
    let h = height as f32 / width as f32;
    gl::viewport(0, 0, width, height);
    gl::matrix_mode(gl::PROJECTION);
    gl::load_identity();
    if h >= 1.0 {
        gl::frustum(-1.0, 1.0, -h as f64, h as f64, 5.0, 60.0);
    } else {
        gl::frustum(-1.0 / h as f64, 1.0 / h as f64, -1.0, 1.0, 5.0, 60.0);
    }
    gl::matrix_mode(gl::MODELVIEW);
    gl::load_identity();
    gl::translatef(0.0, 0.0, -40.0);
}

/// Counts gear-coloured pixels in the back buffer: (red, green, blue) dominant.
fn gear_pixels(w: i32, h: i32) -> [u64; 3] {
    let px = gl::read_back(w, h);
    let mut n = [0u64; 3];
    for p in px.chunks_exact(4) {
        let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
        if r > 40 && r > 2 * g && r > 2 * b {
            n[0] += 1;
        } else if g > 40 && g > 2 * r && g > b {
            n[1] += 1;
        } else if b > 40 && b > r + 20 && b > g + 20 {
            n[2] += 1;
        }
    }
    n
}

fn yield_cpu() {
    std::thread::yield_now();
}

pub fn main(argv: Vec<OsString>) -> Result {
    let o = parse(&argv)?;
    let d: Display = super::gfx::open_display()?;
    let (width, height) = (300, 300);
    if o.verbose {
        println!("Window x=0, y=0, width={width}, height={height}");
    }
    let vi = gl::choose_visual(&d)
        .ok_or_else(|| Error::failed("Error: couldn't get an RGB, Double-buffered visual."))?;
    let win = d.create_gl_window(&vi, 0, 0, width as u32, height as u32, "ubgears");
    let ctx = gl::Context::new(&d, &vi).ok_or_else(|| Error::failed("Error: glXCreateContext failed."))?;
    d.map_window(win);
    if !ctx.make_current(win) {
        return Err(Error::failed("Error: glXMakeCurrent failed."));
    }
    let max = gl::get_integer2(gl::MAX_VIEWPORT_DIMS);
    if o.print_info {
        println!("GL_MAX_VIEWPORT_DIMS={}/{}", max[0], max[1]);
    }
    if width > max[0] || height > max[1] {
        return Err(Error::failed(format!(
            "Error: Requested window size ({width}/{height}) larger than maximum supported by GL engine ({}/{}).",
            max[0], max[1]
        )));
    }
    reshape(width, height);
    if o.print_info {
        println!("GL_RENDERER   = {}", gl::get_string(gl::RENDERER));
        println!("GL_VERSION    = {}", gl::get_string(gl::VERSION));
        println!("GL_VENDOR     = {}", gl::get_string(gl::VENDOR));
        println!("GL_EXTENSIONS = {}", gl::get_string(gl::EXTENSIONS));
    }
    let mut scene = Scene::init();

    let clock_start = clock::gettimeofday();
    let current_time = || ((clock::gettimeofday() - clock_start) * 1e6).round() as i64;
    let (mut start_time, mut last_frame, mut last_fps) = (0i64, 0i64, 0i64);
    let mut frames = 0i32;
    let mut run_frames = 0i64;
    let mut verified = !o.verify;
    let mut out = std::io::stdout();
    loop {
        while d.pending() > 0 {
            let e = d.next_event();
            match e.kind() {
                EXPOSE if o.verbose => println!("Event: Expose"),
                CONFIGURE_NOTIFY => {
                    if o.verbose {
                        println!("Event: ConfigureNotify");
                    }
                    let (w, h) = e.configure_size();
                    reshape(w, h);
                }
                _ => {}
            }
        }
        let t = current_time();
        if last_frame == 0 {
            last_frame = t;
        }
        if last_fps == 0 {
            last_fps = t;
        }
        let mut useconds = t - last_frame;
        if useconds == 0 {
            useconds = 10_000;
        }
        scene.angle = (scene.angle as f64 + (60.0 * useconds as f64) / 1_000_000.0) as f32;
        if scene.angle > 360.0 {
            scene.angle -= 360.0;
        }
        scene.draw();
        if !verified {
            let [r, g, b] = gear_pixels(width, height);
            println!("verify ubgears: {r} red, {g} green, {b} blue gear pixels");
            if r == 0 || g == 0 || b == 0 {
                return Err(Error::failed("verify ubgears: a gear is missing from the frame"));
            }
            verified = true;
        }
        ctx.swap_buffers(win);
        last_frame = t;
        frames += 1;
        if t - last_fps >= 5_000_000 {
            let seconds = (t - last_fps) as f32 / 1_000_000.0;
            let fps = frames as f32 / seconds;
            println!("{frames} frames in {seconds:3.1} seconds = {fps:6.3} FPS");
            last_fps = t;
            frames = 0;
            if o.run_time > 0 && start_time == 0 {
                println!("Start timing!");
                start_time = t;
            }
            let _ = out.flush();
        }
        if start_time > 0 {
            run_frames += 1;
        }
        if o.run_time > 0 && start_time > 0 && t - start_time > o.run_time {
            let time = (t - start_time) as f64 / 1_000_000.0;
            let _ = out.flush();
            protocol::emit(&protocol::count(run_frames as u64, 1, "fps"));
            protocol::emit(&protocol::time(time, 1));
            drop(ctx);
            d.destroy_window(win);
            return Ok(());
        }
        yield_cpu();
    }
}
