//! Xlib and the Render extension, hand-declared, for the 2D kernels (feature `graphics`).
//!
//! The declarations follow Xlib.h, Xutil.h and Xrender.h for LP64. [`Display`] owns one
//! connection and offers one safe method per Xlib call the kernels make; resource ids
//! (windows, pixmaps, pictures) are plain numbers the server checks (a bad one is a protocol
//! error, reported by Xlib's handler, never memory unsafety). [`Gc`] and [`Image`] wrap
//! client-side pointers: a `Gc` is valid until [`Display::free_gc`], and the kernels free each
//! one exactly once at the end of the workload that made it.
//!
//! Xlib queues requests: a method returns when the request is in the output buffer, as in C.
//! Only [`Display::sync`] and round-trip calls (`get_image`) wait for the server.

// Xlib calls take many arguments; the wrappers keep them as Xlib orders them.
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr, CString};
use std::ptr;

/// An X resource id (window, pixmap, font, colormap, picture).
pub type Xid = c_ulong;
/// `Window`, `Pixmap`, `Drawable`: all XIDs.
pub type Window = Xid;
/// A pixmap id.
pub type Pixmap = Xid;
/// A drawable: a window or a pixmap.
pub type Drawable = Xid;
/// A Render picture id.
pub type Picture = Xid;

/// `XRectangle`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Rectangle {
    pub x: i16,
    pub y: i16,
    pub width: u16,
    pub height: u16,
}

/// `XSegment`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Segment {
    pub x1: i16,
    pub y1: i16,
    pub x2: i16,
    pub y2: i16,
}

/// `XPoint`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Point {
    pub x: i16,
    pub y: i16,
}

/// `XArc`: angles in 64ths of a degree.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Arc {
    pub x: i16,
    pub y: i16,
    pub width: u16,
    pub height: u16,
    pub angle1: i16,
    pub angle2: i16,
}

/// `XTextItem16`'s character: `XChar2b`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Char2b {
    pub byte1: u8,
    pub byte2: u8,
}

/// `XTextItem16`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct TextItem16 {
    chars: *const Char2b,
    nchars: c_int,
    delta: c_int,
    font: Xid,
}

/// Render's 16.16 fixed-point number.
pub type Fixed = c_int;

/// `XPointFixed`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PointFixed {
    pub x: Fixed,
    pub y: Fixed,
}

/// `XLineFixed`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct LineFixed {
    pub p1: PointFixed,
    pub p2: PointFixed,
}

/// `XTrapezoid`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Trapezoid {
    pub top: Fixed,
    pub bottom: Fixed,
    pub left: LineFixed,
    pub right: LineFixed,
}

/// `XSpanFix`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpanFix {
    pub left: Fixed,
    pub right: Fixed,
    pub y: Fixed,
}

/// `XTrap`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Trap {
    pub top: SpanFix,
    pub bottom: SpanFix,
}

/// `XRenderColor`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderColor {
    pub red: u16,
    pub green: u16,
    pub blue: u16,
    pub alpha: u16,
}

/// `XSetWindowAttributes`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SetWindowAttributes {
    pub background_pixmap: Xid,
    pub background_pixel: c_ulong,
    pub border_pixmap: Xid,
    pub border_pixel: c_ulong,
    pub bit_gravity: c_int,
    pub win_gravity: c_int,
    pub backing_store: c_int,
    pub backing_planes: c_ulong,
    pub backing_pixel: c_ulong,
    pub save_under: c_int,
    pub event_mask: c_long,
    pub do_not_propagate_mask: c_long,
    pub override_redirect: c_int,
    pub colormap: Xid,
    pub cursor: Xid,
}

/// `XVisualInfo`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VisualInfo {
    pub visual: *mut c_void,
    pub visualid: c_ulong,
    pub screen: c_int,
    pub depth: c_int,
    pub class: c_int,
    pub red_mask: c_ulong,
    pub green_mask: c_ulong,
    pub blue_mask: c_ulong,
    pub colormap_size: c_int,
    pub bits_per_rgb: c_int,
}

#[repr(C)]
struct XCharStruct {
    lbearing: i16,
    rbearing: i16,
    width: i16,
    ascent: i16,
    descent: i16,
    attributes: u16,
}

#[repr(C)]
struct XFontStruct {
    ext_data: *mut c_void,
    fid: Xid,
    direction: c_uint,
    min_char_or_byte2: c_uint,
    max_char_or_byte2: c_uint,
    min_byte1: c_uint,
    max_byte1: c_uint,
    all_chars_exist: c_int,
    default_char: c_uint,
    n_properties: c_int,
    properties: *mut c_void,
    min_bounds: XCharStruct,
    max_bounds: XCharStruct,
    per_char: *mut c_void,
    ascent: c_int,
    descent: c_int,
}

/// The leading fields of `XImage` that we read; Xlib owns the rest.
#[repr(C)]
struct XImage {
    width: c_int,
    height: c_int,
    xoffset: c_int,
    format: c_int,
    data: *mut c_char,
}

/// A generic event: Xlib's `XEvent` union is 24 longs.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Event {
    pad: [c_long; 24],
}

#[repr(C)]
struct XConfigureEvent {
    kind: c_int,
    serial: c_ulong,
    send_event: c_int,
    display: *mut c_void,
    event: Xid,
    window: Xid,
    x: c_int,
    y: c_int,
    width: c_int,
    height: c_int,
}

pub const CONFIGURE_NOTIFY: c_int = 22;
pub const EXPOSE: c_int = 12;

impl Event {
    /// The event type (`Expose`, `ConfigureNotify`, ...).
    pub fn kind(&self) -> c_int {
        self.pad[0] as c_int
    }
    /// Width and height of a `ConfigureNotify`.
    pub fn configure_size(&self) -> (i32, i32) {
        // SAFETY: XEvent is a union of structs that all fit in 24 longs; reading the
        // XConfigureEvent view of any event reads initialised plain integers.
        let c = unsafe { &*(self as *const Event as *const XConfigureEvent) };
        (c.width, c.height)
    }
}

// Constants from X.h.
pub const GX_COPY: c_int = 3;
pub const FILL_TILED: c_int = 1;
pub const FILL_STIPPLED: c_int = 2;
pub const FILL_OPAQUE_STIPPLED: c_int = 3;
pub const LINE_SOLID: c_int = 0;
pub const LINE_DOUBLE_DASH: c_int = 2;
pub const CAP_BUTT: c_int = 1;
pub const CAP_ROUND: c_int = 2;
pub const JOIN_MITER: c_int = 0;
pub const JOIN_ROUND: c_int = 1;
pub const ARC_PIE_SLICE: c_int = 1;
pub const COMPLEX: c_int = 0;
pub const CONVEX: c_int = 2;
pub const COORD_MODE_ORIGIN: c_int = 0;
pub const Z_PIXMAP: c_int = 2;
pub const XY_PIXMAP: c_int = 1;
pub const CW_BACK_PIXEL: c_ulong = 1 << 1;
pub const CW_BORDER_PIXEL: c_ulong = 1 << 3;
pub const CW_BACKING_STORE: c_ulong = 1 << 6;
pub const CW_OVERRIDE_REDIRECT: c_ulong = 1 << 9;
pub const CW_SAVE_UNDER: c_ulong = 1 << 10;
pub const CW_EVENT_MASK: c_ulong = 1 << 11;
pub const CW_COLORMAP: c_ulong = 1 << 13;
pub const STRUCTURE_NOTIFY_MASK: c_long = 1 << 17;
pub const EXPOSURE_MASK: c_long = 1 << 15;
pub const KEY_PRESS_MASK: c_long = 1 << 0;
pub const SCREEN_SAVER_RESET: c_int = 0;
pub const ALL_PLANES: c_ulong = !0;
pub const INPUT_OUTPUT: c_uint = 1;
pub const ALLOC_NONE: c_int = 0;
// Render.
pub const PICT_OP_OVER: c_int = 3;
pub const PICT_STANDARD_A8: c_int = 2;
pub const PICT_STANDARD_A4: c_int = 3;
pub const PICT_STANDARD_A1: c_int = 4;

#[link(name = "X11")]
extern "C" {
    fn XOpenDisplay(name: *const c_char) -> *mut c_void;
    fn XCloseDisplay(d: *mut c_void) -> c_int;
    fn XDefaultScreen(d: *mut c_void) -> c_int;
    fn XRootWindow(d: *mut c_void, s: c_int) -> Window;
    fn XDefaultVisual(d: *mut c_void, s: c_int) -> *mut c_void;
    fn XDefaultDepth(d: *mut c_void, s: c_int) -> c_int;
    fn XDefaultColormap(d: *mut c_void, s: c_int) -> Xid;
    fn XBlackPixel(d: *mut c_void, s: c_int) -> c_ulong;
    fn XWhitePixel(d: *mut c_void, s: c_int) -> c_ulong;
    fn XDisplayWidth(d: *mut c_void, s: c_int) -> c_int;
    fn XDisplayHeight(d: *mut c_void, s: c_int) -> c_int;
    fn XServerVendor(d: *mut c_void) -> *const c_char;
    fn XVendorRelease(d: *mut c_void) -> c_int;
    fn XDisplayString(d: *mut c_void) -> *const c_char;
    fn XFree(p: *mut c_void) -> c_int;
    fn XCreateWindow(
        d: *mut c_void,
        parent: Window,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
        bw: c_uint,
        depth: c_int,
        class: c_uint,
        visual: *mut c_void,
        mask: c_ulong,
        attrs: *const SetWindowAttributes,
    ) -> Window;
    fn XCreateSimpleWindow(
        d: *mut c_void,
        parent: Window,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
        bw: c_uint,
        border: c_ulong,
        background: c_ulong,
    ) -> Window;
    fn XChangeWindowAttributes(
        d: *mut c_void,
        w: Window,
        mask: c_ulong,
        a: *const SetWindowAttributes,
    ) -> c_int;
    fn XCreateColormap(d: *mut c_void, w: Window, visual: *mut c_void, alloc: c_int) -> Xid;
    fn XStoreName(d: *mut c_void, w: Window, name: *const c_char) -> c_int;
    fn XMapWindow(d: *mut c_void, w: Window) -> c_int;
    fn XUnmapWindow(d: *mut c_void, w: Window) -> c_int;
    fn XMapSubwindows(d: *mut c_void, w: Window) -> c_int;
    fn XDestroyWindow(d: *mut c_void, w: Window) -> c_int;
    fn XDestroySubwindows(d: *mut c_void, w: Window) -> c_int;
    fn XMoveWindow(d: *mut c_void, w: Window, x: c_int, y: c_int) -> c_int;
    fn XResizeWindow(d: *mut c_void, w: Window, width: c_uint, height: c_uint) -> c_int;
    fn XClearWindow(d: *mut c_void, w: Window) -> c_int;
    fn XCreateGC(d: *mut c_void, dr: Drawable, mask: c_ulong, v: *const c_void) -> *mut c_void;
    fn XFreeGC(d: *mut c_void, gc: *mut c_void) -> c_int;
    fn XSetForeground(d: *mut c_void, gc: *mut c_void, p: c_ulong) -> c_int;
    fn XSetBackground(d: *mut c_void, gc: *mut c_void, p: c_ulong) -> c_int;
    fn XSetFunction(d: *mut c_void, gc: *mut c_void, f: c_int) -> c_int;
    fn XSetPlaneMask(d: *mut c_void, gc: *mut c_void, pm: c_ulong) -> c_int;
    fn XSetGraphicsExposures(d: *mut c_void, gc: *mut c_void, on: c_int) -> c_int;
    fn XSetFillStyle(d: *mut c_void, gc: *mut c_void, s: c_int) -> c_int;
    fn XSetTile(d: *mut c_void, gc: *mut c_void, p: Pixmap) -> c_int;
    fn XSetStipple(d: *mut c_void, gc: *mut c_void, p: Pixmap) -> c_int;
    fn XSetTSOrigin(d: *mut c_void, gc: *mut c_void, x: c_int, y: c_int) -> c_int;
    fn XSetLineAttributes(
        d: *mut c_void,
        gc: *mut c_void,
        w: c_uint,
        ls: c_int,
        cs: c_int,
        js: c_int,
    ) -> c_int;
    fn XSetDashes(d: *mut c_void, gc: *mut c_void, off: c_int, list: *const c_char, n: c_int) -> c_int;
    fn XSetArcMode(d: *mut c_void, gc: *mut c_void, m: c_int) -> c_int;
    fn XSetFont(d: *mut c_void, gc: *mut c_void, f: Xid) -> c_int;
    fn XFillRectangle(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
    ) -> c_int;
    fn XFillRectangles(d: *mut c_void, dr: Drawable, gc: *mut c_void, r: *const Rectangle, n: c_int)
        -> c_int;
    fn XDrawRectangles(d: *mut c_void, dr: Drawable, gc: *mut c_void, r: *const Rectangle, n: c_int)
        -> c_int;
    fn XDrawSegments(d: *mut c_void, dr: Drawable, gc: *mut c_void, s: *const Segment, n: c_int) -> c_int;
    fn XDrawLines(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        p: *const Point,
        n: c_int,
        mode: c_int,
    ) -> c_int;
    fn XDrawArcs(d: *mut c_void, dr: Drawable, gc: *mut c_void, a: *const Arc, n: c_int) -> c_int;
    fn XFillArcs(d: *mut c_void, dr: Drawable, gc: *mut c_void, a: *const Arc, n: c_int) -> c_int;
    fn XFillPolygon(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        p: *const Point,
        n: c_int,
        shape: c_int,
        mode: c_int,
    ) -> c_int;
    fn XCopyArea(
        d: *mut c_void,
        src: Drawable,
        dst: Drawable,
        gc: *mut c_void,
        sx: c_int,
        sy: c_int,
        w: c_uint,
        h: c_uint,
        dx: c_int,
        dy: c_int,
    ) -> c_int;
    fn XCopyPlane(
        d: *mut c_void,
        src: Drawable,
        dst: Drawable,
        gc: *mut c_void,
        sx: c_int,
        sy: c_int,
        w: c_uint,
        h: c_uint,
        dx: c_int,
        dy: c_int,
        plane: c_ulong,
    ) -> c_int;
    fn XGetImage(
        d: *mut c_void,
        dr: Drawable,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
        pm: c_ulong,
        format: c_int,
    ) -> *mut XImage;
    fn XPutImage(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        img: *mut XImage,
        sx: c_int,
        sy: c_int,
        dx: c_int,
        dy: c_int,
        w: c_uint,
        h: c_uint,
    ) -> c_int;
    fn XDestroyImage(img: *mut XImage) -> c_int;
    fn XGetPixel(img: *mut XImage, x: c_int, y: c_int) -> c_ulong;
    fn XCreatePixmap(d: *mut c_void, dr: Drawable, w: c_uint, h: c_uint, depth: c_uint) -> Pixmap;
    fn XFreePixmap(d: *mut c_void, p: Pixmap) -> c_int;
    fn XCreateBitmapFromData(
        d: *mut c_void,
        dr: Drawable,
        data: *const c_char,
        w: c_uint,
        h: c_uint,
    ) -> Pixmap;
    fn XCreatePixmapFromBitmapData(
        d: *mut c_void,
        dr: Drawable,
        data: *const c_char,
        w: c_uint,
        h: c_uint,
        fg: c_ulong,
        bg: c_ulong,
        depth: c_uint,
    ) -> Pixmap;
    fn XDrawString(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        x: c_int,
        y: c_int,
        s: *const c_char,
        n: c_int,
    ) -> c_int;
    fn XDrawText16(
        d: *mut c_void,
        dr: Drawable,
        gc: *mut c_void,
        x: c_int,
        y: c_int,
        items: *const TextItem16,
        n: c_int,
    ) -> c_int;
    fn XLoadQueryFont(d: *mut c_void, name: *const c_char) -> *mut XFontStruct;
    fn XFreeFont(d: *mut c_void, f: *mut XFontStruct) -> c_int;
    fn XSync(d: *mut c_void, discard: c_int) -> c_int;
    fn XFlush(d: *mut c_void) -> c_int;
    fn XPending(d: *mut c_void) -> c_int;
    fn XNextEvent(d: *mut c_void, e: *mut Event) -> c_int;
    fn XWarpPointer(
        d: *mut c_void,
        src: Window,
        dst: Window,
        sx: c_int,
        sy: c_int,
        sw: c_uint,
        sh: c_uint,
        dx: c_int,
        dy: c_int,
    ) -> c_int;
    fn XForceScreenSaver(d: *mut c_void, mode: c_int) -> c_int;
    fn XGetScreenSaver(d: *mut c_void, t: *mut c_int, i: *mut c_int, pb: *mut c_int, ae: *mut c_int)
        -> c_int;
    fn XSetScreenSaver(d: *mut c_void, t: c_int, i: c_int, pb: c_int, ae: c_int) -> c_int;
}

#[link(name = "Xrender")]
extern "C" {
    fn XRenderFindStandardFormat(d: *mut c_void, format: c_int) -> *mut c_void;
    fn XRenderCreatePicture(
        d: *mut c_void,
        dr: Drawable,
        format: *mut c_void,
        mask: c_ulong,
        a: *const c_void,
    ) -> Picture;
    fn XRenderFreePicture(d: *mut c_void, p: Picture);
    fn XRenderFillRectangle(
        d: *mut c_void,
        op: c_int,
        dst: Picture,
        color: *const RenderColor,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
    );
    fn XRenderCompositeTrapezoids(
        d: *mut c_void,
        op: c_int,
        src: Picture,
        dst: Picture,
        mask_format: *mut c_void,
        xsrc: c_int,
        ysrc: c_int,
        traps: *const Trapezoid,
        n: c_int,
    );
    fn XRenderComposite(
        d: *mut c_void,
        op: c_int,
        src: Picture,
        mask: Picture,
        dst: Picture,
        sx: c_int,
        sy: c_int,
        mx: c_int,
        my: c_int,
        dx: c_int,
        dy: c_int,
        w: c_uint,
        h: c_uint,
    );
    fn XRenderAddTraps(d: *mut c_void, p: Picture, xoff: c_int, yoff: c_int, traps: *const Trap, n: c_int);
}

/// A client-side graphics context. Valid until [`Display::free_gc`].
#[derive(Clone, Copy, Debug)]
pub struct Gc(*mut c_void);

/// A Render picture format, owned by Xlib for the life of the display.
#[derive(Clone, Copy, Debug)]
pub struct PictFormat(*mut c_void);

impl PictFormat {
    /// No format (`None` as a mask format).
    pub fn none() -> PictFormat {
        PictFormat(ptr::null_mut())
    }
    /// Whether this is no format (the server has none of the kind asked for).
    pub fn is_none(&self) -> bool {
        self.0.is_null()
    }
}

/// A client-side image from `XGetImage`, freed on drop.
pub struct Image(*mut XImage);

impl Image {
    /// `XGetPixel`.
    pub fn pixel(&self, x: i32, y: i32) -> u64 {
        // SAFETY: self.0 is a live XImage from XGetImage; XGetPixel checks nothing, so the
        // coordinates are clamped into its size first.
        unsafe {
            let (w, h) = ((*self.0).width, (*self.0).height);
            XGetPixel(self.0, x.clamp(0, w - 1), y.clamp(0, h - 1)) as u64
        }
    }
    /// Width and height.
    pub fn size(&self) -> (i32, i32) {
        // SAFETY: self.0 is a live XImage.
        unsafe { ((*self.0).width, (*self.0).height) }
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: self.0 came from XGetImage and is destroyed once, here.
        unsafe { XDestroyImage(self.0) };
    }
}

/// A loaded core font.
pub struct Font {
    raw: *mut XFontStruct,
}

impl Font {
    /// The font's resource id.
    pub fn id(&self) -> Xid {
        // SAFETY: raw is a live XFontStruct until freed by Display::free_font.
        unsafe { (*self.raw).fid }
    }
    /// Ascent plus descent.
    pub fn height(&self) -> i32 {
        // SAFETY: as above.
        unsafe { (*self.raw).ascent + (*self.raw).descent }
    }
    /// Ascent.
    pub fn ascent(&self) -> i32 {
        // SAFETY: as above.
        unsafe { (*self.raw).ascent }
    }
    /// Smallest and largest byte1 and byte2 of the font's characters.
    pub fn char_range(&self) -> (u32, u32, u32, u32) {
        // SAFETY: as above.
        unsafe {
            let f = &*self.raw;
            (f.min_byte1, f.max_byte1, f.min_char_or_byte2, f.max_char_or_byte2)
        }
    }
    /// x11perf's `GetRealChar` test: whether the character at `index` of the font's
    /// byte1 x byte2 matrix has any metrics (a font without per-char metrics has them all).
    pub fn has_char(&self, index: usize) -> bool {
        let (b1lo, b1hi, b2lo, b2hi) = self.char_range();
        let total = (b1hi - b1lo + 1) as usize * (b2hi - b2lo + 1) as usize;
        assert!(index < total, "character index {index} outside the font's {total}");
        // SAFETY: raw is live; per_char, when set, holds one XCharStruct per character of the
        // byte1 x byte2 matrix, and index is inside it (asserted).
        unsafe {
            let pc = (*self.raw).per_char as *const XCharStruct;
            if pc.is_null() {
                return true;
            }
            let c = &*pc.add(index);
            (c.lbearing | c.rbearing | c.width | c.ascent | c.descent | c.attributes as i16) != 0
        }
    }
    /// Maximum ascent plus descent over the characters, as x11perf computes line heights.
    pub fn max_bounds_height(&self) -> i32 {
        // SAFETY: raw is live.
        unsafe { ((*self.raw).max_bounds.ascent + (*self.raw).max_bounds.descent) as i32 }
    }
}

/// One connection to an X server.
pub struct Display {
    raw: *mut c_void,
    screen: c_int,
}

impl Drop for Display {
    fn drop(&mut self) {
        // SAFETY: raw is the connection opened in `open`, closed once here.
        unsafe { XCloseDisplay(self.raw) };
    }
}

impl Display {
    /// `XOpenDisplay(NULL)`: the server named by $DISPLAY. None when unset or refused.
    pub fn open() -> Option<Display> {
        // SAFETY: a null name means $DISPLAY; the result is checked.
        let raw = unsafe { XOpenDisplay(ptr::null()) };
        if raw.is_null() {
            return None;
        }
        // SAFETY: raw is a live connection.
        let screen = unsafe { XDefaultScreen(raw) };
        Some(Display { raw, screen })
    }

    /// The raw `Display *`, for GLX calls in [`super::gl`].
    pub(crate) fn raw(&self) -> *mut c_void {
        self.raw
    }
    /// The default screen number.
    pub fn screen(&self) -> i32 {
        self.screen
    }
    pub fn root(&self) -> Window {
        // SAFETY: live connection, valid screen.
        unsafe { XRootWindow(self.raw, self.screen) }
    }
    pub fn default_depth(&self) -> u32 {
        // SAFETY: live connection, valid screen.
        unsafe { XDefaultDepth(self.raw, self.screen) as u32 }
    }
    pub fn default_colormap(&self) -> Xid {
        // SAFETY: live connection, valid screen.
        unsafe { XDefaultColormap(self.raw, self.screen) }
    }
    pub fn black_pixel(&self) -> u64 {
        // SAFETY: live connection, valid screen.
        unsafe { XBlackPixel(self.raw, self.screen) as u64 }
    }
    pub fn white_pixel(&self) -> u64 {
        // SAFETY: live connection, valid screen.
        unsafe { XWhitePixel(self.raw, self.screen) as u64 }
    }
    /// Screen width and height in pixels.
    pub fn size(&self) -> (i32, i32) {
        // SAFETY: live connection, valid screen.
        unsafe { (XDisplayWidth(self.raw, self.screen), XDisplayHeight(self.raw, self.screen)) }
    }
    /// Vendor string, release number and display name, for the x11perf-style header.
    pub fn server_info(&self) -> (String, i32, String) {
        // SAFETY: live connection; the strings are Xlib's, NUL-terminated, copied here.
        unsafe {
            let s = |p: *const c_char| {
                if p.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(p).to_string_lossy().into_owned()
                }
            };
            (s(XServerVendor(self.raw)), XVendorRelease(self.raw), s(XDisplayString(self.raw)))
        }
    }

    /// x11perf's `CreatePerfWindow`: an override-redirect child of the root in the default
    /// visual, mapped.
    pub fn create_perf_window(&self, x: i32, y: i32, w: u32, h: u32, bg: u64, border: u64) -> Window {
        let a = SetWindowAttributes {
            background_pixel: bg as c_ulong,
            border_pixel: border as c_ulong,
            colormap: self.default_colormap(),
            override_redirect: 1,
            backing_store: 0,
            save_under: 0,
            ..Default::default()
        };
        let mask = CW_BACK_PIXEL
            | CW_BORDER_PIXEL
            | CW_COLORMAP
            | CW_OVERRIDE_REDIRECT
            | CW_BACKING_STORE
            | CW_SAVE_UNDER;
        // SAFETY: live connection; a points to initialised attributes for the duration.
        unsafe {
            let vis = XDefaultVisual(self.raw, self.screen);
            let win = XCreateWindow(
                self.raw,
                self.root(),
                x,
                y,
                w,
                h,
                1,
                self.default_depth() as c_int,
                0,
                vis,
                mask,
                &a,
            );
            XMapWindow(self.raw, win);
            win
        }
    }

    /// A window in a GLX visual (`visual` from [`super::gl::choose_visual`]) with its own colormap,
    /// listening for structure, exposure and key events; not yet mapped.
    pub fn create_gl_window(&self, vi: &VisualInfo, x: i32, y: i32, w: u32, h: u32, name: &str) -> Window {
        // SAFETY: live connection; vi.visual came from glXChooseVisual on this display.
        unsafe {
            let cmap = XCreateColormap(self.raw, self.root(), vi.visual, ALLOC_NONE);
            let a = SetWindowAttributes {
                background_pixel: 0,
                border_pixel: 0,
                colormap: cmap,
                event_mask: STRUCTURE_NOTIFY_MASK | EXPOSURE_MASK | KEY_PRESS_MASK,
                ..Default::default()
            };
            let mask = CW_BACK_PIXEL | CW_BORDER_PIXEL | CW_COLORMAP | CW_EVENT_MASK;
            let win = XCreateWindow(
                self.raw,
                self.root(),
                x,
                y,
                w,
                h,
                0,
                vi.depth,
                INPUT_OUTPUT,
                vi.visual,
                mask,
                &a,
            );
            let cname = CString::new(name).unwrap_or_default();
            XStoreName(self.raw, win, cname.as_ptr());
            win
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn create_simple_window(
        &self,
        parent: Window,
        x: i32,
        y: i32,
        w: u32,
        h: u32,
        bw: u32,
        border: u64,
        bg: u64,
    ) -> Window {
        // SAFETY: live connection.
        unsafe { XCreateSimpleWindow(self.raw, parent, x, y, w, h, bw, border as c_ulong, bg as c_ulong) }
    }
    /// Sets only the override-redirect attribute.
    pub fn set_override_redirect(&self, w: Window, on: bool) {
        let a = SetWindowAttributes { override_redirect: on as c_int, ..Default::default() };
        // SAFETY: live connection, initialised attributes.
        unsafe { XChangeWindowAttributes(self.raw, w, CW_OVERRIDE_REDIRECT, &a) };
    }
    pub fn map_window(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XMapWindow(self.raw, w) };
    }
    pub fn unmap_window(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XUnmapWindow(self.raw, w) };
    }
    pub fn map_subwindows(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XMapSubwindows(self.raw, w) };
    }
    pub fn destroy_window(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XDestroyWindow(self.raw, w) };
    }
    pub fn destroy_subwindows(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XDestroySubwindows(self.raw, w) };
    }
    #[inline]
    pub fn move_window(&self, w: Window, x: i32, y: i32) {
        // SAFETY: live connection.
        unsafe { XMoveWindow(self.raw, w, x, y) };
    }
    #[inline]
    pub fn resize_window(&self, w: Window, width: u32, height: u32) {
        // SAFETY: live connection.
        unsafe { XResizeWindow(self.raw, w, width, height) };
    }
    pub fn clear_window(&self, w: Window) {
        // SAFETY: live connection.
        unsafe { XClearWindow(self.raw, w) };
    }

    /// `XCreateGC(d, drawable, 0, NULL)`: a GC with the server's defaults.
    pub fn create_gc(&self, d: Drawable) -> Gc {
        // SAFETY: live connection; no values passed.
        Gc(unsafe { XCreateGC(self.raw, d, 0, ptr::null()) })
    }
    pub fn free_gc(&self, gc: Gc) {
        // SAFETY: gc came from create_gc on this display; callers free it once.
        unsafe { XFreeGC(self.raw, gc.0) };
    }
    pub fn set_foreground(&self, gc: Gc, p: u64) {
        // SAFETY: gc is live (see [`Gc`]).
        unsafe { XSetForeground(self.raw, gc.0, p as c_ulong) };
    }
    pub fn set_background(&self, gc: Gc, p: u64) {
        // SAFETY: gc is live.
        unsafe { XSetBackground(self.raw, gc.0, p as c_ulong) };
    }
    pub fn set_function(&self, gc: Gc, f: i32) {
        // SAFETY: gc is live.
        unsafe { XSetFunction(self.raw, gc.0, f) };
    }
    pub fn set_plane_mask(&self, gc: Gc, pm: u64) {
        // SAFETY: gc is live.
        unsafe { XSetPlaneMask(self.raw, gc.0, pm as c_ulong) };
    }
    pub fn set_graphics_exposures(&self, gc: Gc, on: bool) {
        // SAFETY: gc is live.
        unsafe { XSetGraphicsExposures(self.raw, gc.0, on as c_int) };
    }
    pub fn set_fill_style(&self, gc: Gc, s: i32) {
        // SAFETY: gc is live.
        unsafe { XSetFillStyle(self.raw, gc.0, s) };
    }
    pub fn set_tile(&self, gc: Gc, p: Pixmap) {
        // SAFETY: gc is live.
        unsafe { XSetTile(self.raw, gc.0, p) };
    }
    pub fn set_stipple(&self, gc: Gc, p: Pixmap) {
        // SAFETY: gc is live.
        unsafe { XSetStipple(self.raw, gc.0, p) };
    }
    pub fn set_ts_origin(&self, gc: Gc, x: i32, y: i32) {
        // SAFETY: gc is live.
        unsafe { XSetTSOrigin(self.raw, gc.0, x, y) };
    }
    pub fn set_line_attributes(&self, gc: Gc, width: u32, line_style: i32, cap: i32, join: i32) {
        // SAFETY: gc is live.
        unsafe { XSetLineAttributes(self.raw, gc.0, width, line_style, cap, join) };
    }
    pub fn set_dashes(&self, gc: Gc, offset: i32, list: &[u8]) {
        // SAFETY: gc is live; list is valid for its length.
        unsafe { XSetDashes(self.raw, gc.0, offset, list.as_ptr() as *const c_char, list.len() as c_int) };
    }
    pub fn set_arc_mode(&self, gc: Gc, m: i32) {
        // SAFETY: gc is live.
        unsafe { XSetArcMode(self.raw, gc.0, m) };
    }
    pub fn set_font(&self, gc: Gc, f: Xid) {
        // SAFETY: gc is live.
        unsafe { XSetFont(self.raw, gc.0, f) };
    }

    pub fn fill_rectangle(&self, d: Drawable, gc: Gc, x: i32, y: i32, w: u32, h: u32) {
        // SAFETY: gc is live.
        unsafe { XFillRectangle(self.raw, d, gc.0, x, y, w, h) };
    }
    #[inline]
    pub fn fill_rectangles(&self, d: Drawable, gc: Gc, r: &[Rectangle]) {
        // SAFETY: gc is live; the slice is valid for its length.
        unsafe { XFillRectangles(self.raw, d, gc.0, r.as_ptr(), r.len() as c_int) };
    }
    #[inline]
    pub fn draw_rectangles(&self, d: Drawable, gc: Gc, r: &[Rectangle]) {
        // SAFETY: as above.
        unsafe { XDrawRectangles(self.raw, d, gc.0, r.as_ptr(), r.len() as c_int) };
    }
    #[inline]
    pub fn draw_segments(&self, d: Drawable, gc: Gc, s: &[Segment]) {
        // SAFETY: as above.
        unsafe { XDrawSegments(self.raw, d, gc.0, s.as_ptr(), s.len() as c_int) };
    }
    #[inline]
    pub fn draw_lines(&self, d: Drawable, gc: Gc, p: &[Point]) {
        // SAFETY: as above.
        unsafe { XDrawLines(self.raw, d, gc.0, p.as_ptr(), p.len() as c_int, COORD_MODE_ORIGIN) };
    }
    #[inline]
    pub fn draw_arcs(&self, d: Drawable, gc: Gc, a: &[Arc]) {
        // SAFETY: as above.
        unsafe { XDrawArcs(self.raw, d, gc.0, a.as_ptr(), a.len() as c_int) };
    }
    #[inline]
    pub fn fill_arcs(&self, d: Drawable, gc: Gc, a: &[Arc]) {
        // SAFETY: as above.
        unsafe { XFillArcs(self.raw, d, gc.0, a.as_ptr(), a.len() as c_int) };
    }
    #[inline]
    pub fn fill_polygon(&self, d: Drawable, gc: Gc, p: &[Point], shape: i32) {
        // SAFETY: as above.
        unsafe { XFillPolygon(self.raw, d, gc.0, p.as_ptr(), p.len() as c_int, shape, COORD_MODE_ORIGIN) };
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn copy_area(
        &self,
        src: Drawable,
        dst: Drawable,
        gc: Gc,
        sx: i32,
        sy: i32,
        w: u32,
        h: u32,
        dx: i32,
        dy: i32,
    ) {
        // SAFETY: gc is live.
        unsafe { XCopyArea(self.raw, src, dst, gc.0, sx, sy, w, h, dx, dy) };
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn copy_plane(
        &self,
        src: Drawable,
        dst: Drawable,
        gc: Gc,
        sx: i32,
        sy: i32,
        w: u32,
        h: u32,
        dx: i32,
        dy: i32,
        plane: u64,
    ) {
        // SAFETY: gc is live.
        unsafe { XCopyPlane(self.raw, src, dst, gc.0, sx, sy, w, h, dx, dy, plane as c_ulong) };
    }
    /// `XGetImage`; None when the server refuses.
    pub fn get_image(
        &self,
        d: Drawable,
        x: i32,
        y: i32,
        w: u32,
        h: u32,
        plane_mask: u64,
        format: i32,
    ) -> Option<Image> {
        // SAFETY: live connection; the result is checked and owned by Image.
        let p = unsafe { XGetImage(self.raw, d, x, y, w, h, plane_mask as c_ulong, format) };
        (!p.is_null()).then_some(Image(p))
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn put_image(
        &self,
        d: Drawable,
        gc: Gc,
        img: &Image,
        sx: i32,
        sy: i32,
        dx: i32,
        dy: i32,
        w: u32,
        h: u32,
    ) {
        // SAFETY: gc and img are live; Xlib clips the source rectangle to the image.
        unsafe { XPutImage(self.raw, d, gc.0, img.0, sx, sy, dx, dy, w, h) };
    }
    pub fn create_pixmap(&self, d: Drawable, w: u32, h: u32, depth: u32) -> Pixmap {
        // SAFETY: live connection.
        unsafe { XCreatePixmap(self.raw, d, w, h, depth) }
    }
    pub fn free_pixmap(&self, p: Pixmap) {
        // SAFETY: live connection.
        unsafe { XFreePixmap(self.raw, p) };
    }
    /// A depth-1 pixmap from XBM-ordered bits (rows padded to bytes).
    pub fn create_bitmap_from_data(&self, d: Drawable, bits: &[u8], w: u32, h: u32) -> Pixmap {
        assert!(bits.len() >= (w as usize).div_ceil(8) * h as usize);
        // SAFETY: bits holds at least the rows XCreateBitmapFromData reads (asserted).
        unsafe { XCreateBitmapFromData(self.raw, d, bits.as_ptr() as *const c_char, w, h) }
    }
    /// A pixmap of `depth` with `fg` where the XBM bits are set and `bg` elsewhere.
    #[allow(clippy::too_many_arguments)]
    pub fn create_pixmap_from_bitmap_data(
        &self,
        d: Drawable,
        bits: &[u8],
        w: u32,
        h: u32,
        fg: u64,
        bg: u64,
        depth: u32,
    ) -> Pixmap {
        assert!(bits.len() >= (w as usize).div_ceil(8) * h as usize);
        // SAFETY: as for create_bitmap_from_data.
        unsafe {
            XCreatePixmapFromBitmapData(
                self.raw,
                d,
                bits.as_ptr() as *const c_char,
                w,
                h,
                fg as c_ulong,
                bg as c_ulong,
                depth,
            )
        }
    }
    pub fn draw_string(&self, d: Drawable, gc: Gc, x: i32, y: i32, s: &str) {
        // SAFETY: gc is live; s is valid for its length.
        unsafe { XDrawString(self.raw, d, gc.0, x, y, s.as_ptr() as *const c_char, s.len() as c_int) };
    }
    /// `XDrawText16` of up to 8 items.
    #[inline]
    pub fn draw_text16(&self, d: Drawable, gc: Gc, x: i32, y: i32, items: &[TextItem<'_>]) {
        const MAX: usize = 8;
        assert!(items.len() <= MAX);
        let mut raw = [TextItem16 { chars: ptr::null(), nchars: 0, delta: 0, font: 0 }; MAX];
        for (r, i) in raw.iter_mut().zip(items) {
            *r = TextItem16 {
                chars: i.chars.as_ptr(),
                nchars: i.chars.len() as c_int,
                delta: i.delta,
                font: i.font,
            };
        }
        // SAFETY: gc is live; each raw item points into a slice borrowed for this call.
        unsafe { XDrawText16(self.raw, d, gc.0, x, y, raw.as_ptr(), items.len() as c_int) };
    }
    /// `XLoadQueryFont`; None when the server has no such font.
    pub fn load_query_font(&self, name: &str) -> Option<Font> {
        let c = CString::new(name).ok()?;
        // SAFETY: live connection, NUL-terminated name; the result is checked.
        let raw = unsafe { XLoadQueryFont(self.raw, c.as_ptr()) };
        (!raw.is_null()).then_some(Font { raw })
    }
    pub fn free_font(&self, f: Font) {
        // SAFETY: f came from load_query_font on this display and is consumed.
        unsafe { XFreeFont(self.raw, f.raw) };
    }
    /// `XSync(d, False)`: waits until the server has handled every request.
    pub fn sync(&self) {
        // SAFETY: live connection.
        unsafe { XSync(self.raw, 0) };
    }
    pub fn flush(&self) {
        // SAFETY: live connection.
        unsafe { XFlush(self.raw) };
    }
    pub fn pending(&self) -> i32 {
        // SAFETY: live connection.
        unsafe { XPending(self.raw) }
    }
    pub fn next_event(&self) -> Event {
        let mut e = Event { pad: [0; 24] };
        // SAFETY: e is a writable XEvent-sized buffer.
        unsafe { XNextEvent(self.raw, &mut e) };
        e
    }
    pub fn warp_pointer(&self, dst: Window, x: i32, y: i32) {
        // SAFETY: live connection.
        unsafe { XWarpPointer(self.raw, 0, dst, 0, 0, 0, 0, x, y) };
    }
    pub fn force_screen_saver_reset(&self) {
        // SAFETY: live connection.
        unsafe { XForceScreenSaver(self.raw, SCREEN_SAVER_RESET) };
    }
    /// The screen saver settings (timeout, interval, prefer blanking, allow exposures).
    pub fn get_screen_saver(&self) -> [i32; 4] {
        let mut v = [0; 4];
        let [a, b, c, d] = &mut v;
        // SAFETY: four valid out-pointers.
        unsafe { XGetScreenSaver(self.raw, a, b, c, d) };
        v
    }
    pub fn set_screen_saver(&self, v: [i32; 4]) {
        // SAFETY: live connection.
        unsafe { XSetScreenSaver(self.raw, v[0], v[1], v[2], v[3]) };
    }

    /// `XRenderFindStandardFormat` (PICT_STANDARD_*).
    pub fn render_standard_format(&self, which: i32) -> PictFormat {
        // SAFETY: live connection.
        PictFormat(unsafe { XRenderFindStandardFormat(self.raw, which) })
    }
    /// A picture on `d` with no attributes. The format must be non-null.
    pub fn render_create_picture(&self, d: Drawable, f: PictFormat) -> Picture {
        assert!(!f.0.is_null(), "no Render format");
        // SAFETY: f is a format Xlib returned for this display; no attributes.
        unsafe { XRenderCreatePicture(self.raw, d, f.0, 0, ptr::null()) }
    }
    pub fn render_free_picture(&self, p: Picture) {
        // SAFETY: live connection.
        unsafe { XRenderFreePicture(self.raw, p) };
    }
    #[allow(clippy::too_many_arguments)]
    pub fn render_fill_rectangle(
        &self,
        op: i32,
        dst: Picture,
        c: RenderColor,
        x: i32,
        y: i32,
        w: u32,
        h: u32,
    ) {
        // SAFETY: c is a valid colour for the call.
        unsafe { XRenderFillRectangle(self.raw, op, dst, &c, x, y, w, h) };
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn render_composite_trapezoids(
        &self,
        op: i32,
        src: Picture,
        dst: Picture,
        mask: PictFormat,
        xs: i32,
        ys: i32,
        t: &[Trapezoid],
    ) {
        // SAFETY: mask is null or a format for this display; the slice is valid.
        unsafe {
            XRenderCompositeTrapezoids(self.raw, op, src, dst, mask.0, xs, ys, t.as_ptr(), t.len() as c_int)
        };
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn render_composite(
        &self,
        op: i32,
        src: Picture,
        mask: Picture,
        dst: Picture,
        sx: i32,
        sy: i32,
        mx: i32,
        my: i32,
        dx: i32,
        dy: i32,
        w: u32,
        h: u32,
    ) {
        // SAFETY: live connection; ids are checked by the server.
        unsafe { XRenderComposite(self.raw, op, src, mask, dst, sx, sy, mx, my, dx, dy, w, h) };
    }
    #[inline]
    pub fn render_add_traps(&self, p: Picture, xoff: i32, yoff: i32, t: &[Trap]) {
        // SAFETY: the slice is valid for its length.
        unsafe { XRenderAddTraps(self.raw, p, xoff, yoff, t.as_ptr(), t.len() as c_int) };
    }
}

/// One run of a polytext request: characters, the advance before them, and a font to switch
/// to first (0 keeps the GC's).
#[derive(Clone, Copy, Debug)]
pub struct TextItem<'a> {
    pub chars: &'a [Char2b],
    pub delta: i32,
    pub font: Xid,
}

/// Frees memory Xlib or GLX returned (`XFree`).
pub(crate) fn xfree(p: *mut c_void) {
    // SAFETY: callers pass only pointers Xlib/GLX allocated, once.
    unsafe { XFree(p) };
}

/// `XftColor`: a pixel and its Render colour.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct XftColor {
    pub pixel: c_ulong,
    pub color: RenderColor,
}

#[repr(C)]
struct XftFontRaw {
    ascent: c_int,
    descent: c_int,
    height: c_int,
    max_advance_width: c_int,
}

#[link(name = "Xft")]
extern "C" {
    fn XftDrawCreate(d: *mut c_void, dr: Drawable, visual: *mut c_void, cmap: Xid) -> *mut c_void;
    fn XftDrawDestroy(draw: *mut c_void);
    fn XftDrawPicture(draw: *mut c_void) -> Picture;
    fn XftDrawSrcPicture(draw: *mut c_void, color: *const XftColor) -> Picture;
    fn XftColorAllocValue(
        d: *mut c_void,
        v: *mut c_void,
        cmap: Xid,
        c: *const RenderColor,
        out: *mut XftColor,
    ) -> c_int;
    fn XftColorFree(d: *mut c_void, v: *mut c_void, cmap: Xid, c: *mut XftColor);
    fn XftFontOpenName(d: *mut c_void, screen: c_int, name: *const c_char) -> *mut XftFontRaw;
    fn XftFontClose(d: *mut c_void, f: *mut XftFontRaw);
    fn XftDrawString8(
        draw: *mut c_void,
        c: *const XftColor,
        f: *mut XftFontRaw,
        x: c_int,
        y: c_int,
        s: *const u8,
        n: c_int,
    );
}

/// An `XftDraw` on a drawable of the default visual. Valid until [`Display::xft_draw_destroy`].
#[derive(Clone, Copy, Debug)]
pub struct XftDraw(*mut c_void);

/// An open Xft font. Valid until [`Display::xft_font_close`].
#[derive(Clone, Copy, Debug)]
pub struct XftFont(*mut XftFontRaw);

impl XftFont {
    /// The font's line height (`aafont->height`).
    pub fn height(&self) -> i32 {
        // SAFETY: self.0 is a live XftFont (see the type's contract).
        unsafe { (*self.0).height }
    }
}

impl Display {
    /// `XftDrawCreate` on `d` with the default visual and colormap.
    pub fn xft_draw_create(&self, d: Drawable) -> XftDraw {
        // SAFETY: live connection, default visual and colormap of this screen.
        XftDraw(unsafe {
            XftDrawCreate(self.raw, d, XDefaultVisual(self.raw, self.screen), self.default_colormap())
        })
    }
    pub fn xft_draw_destroy(&self, draw: XftDraw) {
        // SAFETY: draw came from xft_draw_create and is destroyed once.
        unsafe { XftDrawDestroy(draw.0) };
    }
    /// The Render picture of the draw's drawable.
    pub fn xft_draw_picture(&self, draw: XftDraw) -> Picture {
        // SAFETY: draw is live.
        unsafe { XftDrawPicture(draw.0) }
    }
    /// Xft's cached solid source picture of `c`.
    pub fn xft_draw_src_picture(&self, draw: XftDraw, c: &XftColor) -> Picture {
        // SAFETY: draw is live; c is a valid colour.
        unsafe { XftDrawSrcPicture(draw.0, c) }
    }
    /// `XftColorAllocValue` in the default visual and colormap.
    pub fn xft_color_alloc(&self, c: RenderColor) -> Option<XftColor> {
        let mut out = XftColor::default();
        // SAFETY: live connection; c and out are valid for the call.
        let ok = unsafe {
            XftColorAllocValue(
                self.raw,
                XDefaultVisual(self.raw, self.screen),
                self.default_colormap(),
                &c,
                &mut out,
            )
        };
        (ok != 0).then_some(out)
    }
    pub fn xft_color_free(&self, mut c: XftColor) {
        // SAFETY: c came from xft_color_alloc on this display.
        unsafe {
            XftColorFree(self.raw, XDefaultVisual(self.raw, self.screen), self.default_colormap(), &mut c)
        };
    }
    /// `XftFontOpenName`; None when fontconfig finds nothing.
    pub fn xft_font_open(&self, name: &str) -> Option<XftFont> {
        let c = CString::new(name).ok()?;
        // SAFETY: live connection, NUL-terminated pattern; the result is checked.
        let f = unsafe { XftFontOpenName(self.raw, self.screen, c.as_ptr()) };
        (!f.is_null()).then_some(XftFont(f))
    }
    pub fn xft_font_close(&self, f: XftFont) {
        // SAFETY: f came from xft_font_open and is closed once.
        unsafe { XftFontClose(self.raw, f.0) };
    }
    #[inline]
    pub fn xft_draw_string8(&self, draw: XftDraw, c: &XftColor, f: XftFont, x: i32, y: i32, s: &[u8]) {
        // SAFETY: draw and f are live; s is valid for its length.
        unsafe { XftDrawString8(draw.0, c, f.0, x, y, s.as_ptr(), s.len() as c_int) };
    }
}
