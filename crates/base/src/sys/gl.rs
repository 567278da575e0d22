//! GLX and fixed-function OpenGL 1.x, hand-declared, for `ubgears` (feature `graphics`).
//!
//! GL calls act on the calling thread's current context; without one, libGL's dispatch makes
//! them no-ops, so none of these wrappers can touch memory they were not given. [`Context`]
//! owns a GLX context and makes it current on a window of the same display.

use super::x11::{Display, VisualInfo, Window};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

pub type GLenum = c_uint;

pub const COLOR_BUFFER_BIT: c_uint = 0x4000;
pub const DEPTH_BUFFER_BIT: c_uint = 0x0100;
pub const QUADS: GLenum = 0x0007;
pub const QUAD_STRIP: GLenum = 0x0008;
pub const FLAT: GLenum = 0x1D00;
pub const SMOOTH: GLenum = 0x1D01;
pub const PROJECTION: GLenum = 0x1701;
pub const MODELVIEW: GLenum = 0x1700;
pub const LIGHT0: GLenum = 0x4000;
pub const POSITION: GLenum = 0x1203;
pub const CULL_FACE: GLenum = 0x0B44;
pub const LIGHTING: GLenum = 0x0B50;
pub const DEPTH_TEST: GLenum = 0x0B71;
pub const NORMALIZE: GLenum = 0x0BA1;
pub const COMPILE: GLenum = 0x1300;
pub const FRONT: GLenum = 0x0404;
pub const AMBIENT_AND_DIFFUSE: GLenum = 0x1602;
pub const RENDERER: GLenum = 0x1F01;
pub const VENDOR: GLenum = 0x1F00;
pub const VERSION: GLenum = 0x1F02;
pub const EXTENSIONS: GLenum = 0x1F03;
pub const MAX_VIEWPORT_DIMS: GLenum = 0x0D3A;
const RGBA: GLenum = 0x1908;
const UNSIGNED_BYTE: GLenum = 0x1401;
const BACK: GLenum = 0x0405;

const GLX_RGBA: c_int = 4;
const GLX_DOUBLEBUFFER: c_int = 5;
const GLX_RED_SIZE: c_int = 8;
const GLX_GREEN_SIZE: c_int = 9;
const GLX_BLUE_SIZE: c_int = 10;
const GLX_DEPTH_SIZE: c_int = 12;

#[link(name = "GL")]
extern "C" {
    fn glXChooseVisual(d: *mut c_void, screen: c_int, attrs: *const c_int) -> *mut VisualInfo;
    fn glXCreateContext(
        d: *mut c_void,
        vi: *mut VisualInfo,
        share: *mut c_void,
        direct: c_int,
    ) -> *mut c_void;
    fn glXDestroyContext(d: *mut c_void, ctx: *mut c_void);
    fn glXMakeCurrent(d: *mut c_void, drawable: Window, ctx: *mut c_void) -> c_int;
    fn glXSwapBuffers(d: *mut c_void, drawable: Window);

    fn glGetString(name: GLenum) -> *const c_char;
    fn glGetIntegerv(name: GLenum, out: *mut c_int);
    fn glViewport(x: c_int, y: c_int, w: c_int, h: c_int);
    fn glMatrixMode(m: GLenum);
    fn glLoadIdentity();
    fn glFrustum(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64);
    fn glTranslatef(x: f32, y: f32, z: f32);
    fn glRotatef(a: f32, x: f32, y: f32, z: f32);
    fn glLightfv(light: GLenum, pname: GLenum, v: *const f32);
    fn glEnable(cap: GLenum);
    fn glGenLists(n: c_int) -> c_uint;
    fn glNewList(list: c_uint, mode: GLenum);
    fn glEndList();
    fn glCallList(list: c_uint);
    fn glMaterialfv(face: GLenum, pname: GLenum, v: *const f32);
    fn glShadeModel(m: GLenum);
    fn glNormal3f(x: f32, y: f32, z: f32);
    fn glVertex3f(x: f32, y: f32, z: f32);
    fn glBegin(mode: GLenum);
    fn glEnd();
    fn glClear(mask: c_uint);
    fn glPushMatrix();
    fn glPopMatrix();
    fn glFinish();
    fn glReadBuffer(mode: GLenum);
    fn glReadPixels(x: c_int, y: c_int, w: c_int, h: c_int, format: GLenum, kind: GLenum, out: *mut c_void);
}

/// A visual from `glXChooseVisual` with ubgears' attributes: RGBA, at least one bit per colour,
/// double-buffered, a depth buffer. None when the server has none (or no GLX).
pub fn choose_visual(d: &Display) -> Option<VisualInfo> {
    let attrs = [
        GLX_RGBA,
        GLX_RED_SIZE,
        1,
        GLX_GREEN_SIZE,
        1,
        GLX_BLUE_SIZE,
        1,
        GLX_DOUBLEBUFFER,
        GLX_DEPTH_SIZE,
        1,
        0,
    ];
    // SAFETY: live display; attrs is None-terminated. The result is copied out, then freed.
    unsafe {
        let p = glXChooseVisual(d.raw(), d.screen(), attrs.as_ptr());
        if p.is_null() {
            return None;
        }
        let vi = *p;
        super::x11::xfree(p as *mut c_void);
        Some(vi)
    }
}

/// A GLX rendering context on one display.
pub struct Context<'d> {
    d: &'d Display,
    raw: *mut c_void,
}

impl<'d> Context<'d> {
    /// `glXCreateContext(d, vi, NULL, True)`: direct rendering where possible.
    pub fn new(d: &'d Display, vi: &VisualInfo) -> Option<Context<'d>> {
        let mut vi = *vi;
        // SAFETY: live display; vi is a copy of glXChooseVisual's answer (GLX reads it only).
        let raw = unsafe { glXCreateContext(d.raw(), &mut vi, std::ptr::null_mut(), 1) };
        (!raw.is_null()).then_some(Context { d, raw })
    }
    /// Makes this context current on `win`.
    pub fn make_current(&self, win: Window) -> bool {
        // SAFETY: live display and context.
        unsafe { glXMakeCurrent(self.d.raw(), win, self.raw) != 0 }
    }
    pub fn swap_buffers(&self, win: Window) {
        // SAFETY: live display.
        unsafe { glXSwapBuffers(self.d.raw(), win) };
    }
}

impl Drop for Context<'_> {
    fn drop(&mut self) {
        // SAFETY: releases the current binding, then destroys the context created in `new`.
        unsafe {
            glXMakeCurrent(self.d.raw(), 0, std::ptr::null_mut());
            glXDestroyContext(self.d.raw(), self.raw);
        }
    }
}

/// `glGetString`, empty when unavailable.
pub fn get_string(name: GLenum) -> String {
    // SAFETY: glGetString returns null or a static NUL-terminated string.
    unsafe {
        let p = glGetString(name);
        if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    }
}

/// `glGetIntegerv` for a two-valued query (e.g. MAX_VIEWPORT_DIMS).
pub fn get_integer2(name: GLenum) -> [i32; 2] {
    let mut v = [0i32; 16];
    // SAFETY: a 16-int buffer covers every query of up to 16 values.
    unsafe { glGetIntegerv(name, v.as_mut_ptr()) };
    [v[0], v[1]]
}

/// The back buffer's RGBA bytes over `w` x `h` from the bottom-left corner, after `glFinish`.
pub fn read_back(w: i32, h: i32) -> Vec<u8> {
    let mut px = vec![0u8; 4 * w.max(0) as usize * h.max(0) as usize];
    // SAFETY: RGBA/UNSIGNED_BYTE is 4 bytes a pixel (default pack alignment 4 adds no padding),
    // so px holds exactly the w x h pixels GL writes.
    unsafe {
        glFinish();
        glReadBuffer(BACK);
        glReadPixels(0, 0, w, h, RGBA, UNSIGNED_BYTE, px.as_mut_ptr() as *mut c_void);
    }
    px
}

// Plain state and geometry calls: their arguments are values, so they are safe to expose.
macro_rules! gl_safe {
    ($( $(#[$m:meta])* fn $name:ident($($a:ident: $t:ty),*) => $ffi:ident; )*) => {
        $( $(#[$m])* #[inline] pub fn $name($($a: $t),*) {
            // SAFETY: value arguments only; without a current context libGL ignores the call.
            unsafe { $ffi($($a),*) }
        } )*
    };
}

gl_safe! {
    fn viewport(x: i32, y: i32, w: i32, h: i32) => glViewport;
    fn matrix_mode(m: GLenum) => glMatrixMode;
    fn load_identity() => glLoadIdentity;
    fn frustum(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) => glFrustum;
    fn translatef(x: f32, y: f32, z: f32) => glTranslatef;
    fn rotatef(a: f32, x: f32, y: f32, z: f32) => glRotatef;
    fn enable(cap: GLenum) => glEnable;
    fn new_list(list: u32, mode: GLenum) => glNewList;
    fn end_list() => glEndList;
    fn call_list(list: u32) => glCallList;
    fn shade_model(m: GLenum) => glShadeModel;
    fn normal3f(x: f32, y: f32, z: f32) => glNormal3f;
    fn vertex3f(x: f32, y: f32, z: f32) => glVertex3f;
    fn begin(mode: GLenum) => glBegin;
    fn end() => glEnd;
    fn clear(mask: u32) => glClear;
    fn push_matrix() => glPushMatrix;
    fn pop_matrix() => glPopMatrix;
}

/// `glGenLists(1)`.
pub fn gen_list() -> u32 {
    // SAFETY: value argument.
    unsafe { glGenLists(1) }
}

/// `glLightfv` with a 4-vector.
pub fn lightfv(light: GLenum, pname: GLenum, v: &[f32; 4]) {
    // SAFETY: v holds the 4 floats GL reads for POSITION and colour parameters.
    unsafe { glLightfv(light, pname, v.as_ptr()) }
}

/// `glMaterialfv` with a 4-vector.
pub fn materialfv(face: GLenum, pname: GLenum, v: &[f32; 4]) {
    // SAFETY: v holds the 4 floats GL reads for colour parameters.
    unsafe { glMaterialfv(face, pname, v.as_ptr()) }
}
