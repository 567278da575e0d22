//! Anti-aliased trapezoids through Render (x11perf's `InitFixedTraps`/`DoFixedTraps` and
//! `InitFixedTrapezoids`/`DoFixedTrapezoids`): the `2d-aashapes` workloads. Like x11perf, the
//! destination and the solid black/white sources are Xft's (`XftDrawPicture`,
//! `XftDrawSrcPicture`), so the server sees the same pictures.

use super::harness::{Parms, Workload, Xp, HEIGHT, MAXROWS, WIDTH};
use crate::sys::x11::{
    Fixed, LineFixed, PictFormat, Picture, Pixmap, PointFixed, RenderColor, SpanFix, Trap, Trapezoid,
    XftColor, XftDraw, PICT_OP_OVER, PICT_STANDARD_A1, PICT_STANDARD_A4, PICT_STANDARD_A8,
};

const PICT_OP_SRC: i32 = 1;

fn fixed(v: i32) -> Fixed {
    v << 16
}

/// Xft's draw on the perf window and its black and white colours.
struct AaDraw {
    draw: XftDraw,
    black: XftColor,
    white: XftColor,
}

fn aa_draw(xp: &Xp) -> Option<AaDraw> {
    let draw = xp.d.xft_draw_create(xp.w);
    let c = |v: u16| RenderColor { red: v, green: v, blue: v, alpha: 0xffff };
    match (xp.d.xft_color_alloc(c(0)), xp.d.xft_color_alloc(c(0xffff))) {
        (Some(black), Some(white)) => Some(AaDraw { draw, black, white }),
        _ => {
            xp.d.xft_draw_destroy(draw);
            None
        }
    }
}

/// Steps through x11perf's trapezoid layout: (x, y, skew) per object.
fn layout(size: i32, objects: i32) -> Vec<(i32, i32, i32)> {
    let (mut x, mut y, mut rows, mut skew) = (size, 0, 0, size);
    let mut v = Vec::with_capacity(objects as usize);
    for _ in 0..objects {
        v.push((x, y, skew));
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

/// `DoFixedTraps`: clear an alpha mask, add the traps to it, composite a solid colour
/// through it onto the window. `font` is "depth[,width]".
pub struct FixedTraps {
    aa: Option<AaDraw>,
    traps: Vec<Trap>,
    mask_pixmap: Pixmap,
    mask: Picture,
}

impl FixedTraps {
    pub fn make() -> Box<dyn Workload> {
        Box::new(FixedTraps { aa: None, traps: Vec::new(), mask_pixmap: 0, mask: 0 })
    }
}

impl Workload for FixedTraps {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let size = p.special;
        let mut it = p.font.unwrap_or("").split(',').map(|s| s.trim().parse::<i32>().unwrap_or(0));
        let (depth, width) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        let (depth, std_fmt) = match depth {
            4 => (4, PICT_STANDARD_A4),
            1 => (1, PICT_STANDARD_A1),
            _ => (8, PICT_STANDARD_A8),
        };
        let format = xp.d.render_standard_format(std_fmt);
        if format.is_none() {
            // x11perf passes the NULL format on and crashes (gfx-x11 then fails the whole
            // group); we omit the workload, which scores 0.
            println!("Render has no {depth}-bit alpha format on this server, benchmark omitted");
            return 0;
        }
        self.mask_pixmap = xp.d.create_pixmap(xp.w, WIDTH as u32, HEIGHT as u32, depth);
        self.mask = xp.d.render_create_picture(self.mask_pixmap, format);
        self.aa = aa_draw(xp);
        if self.aa.is_none() {
            return 0;
        }
        let width = if width == 0 { size } else { width };
        self.traps = layout(size, p.objects)
            .into_iter()
            .map(|(x, y, skew)| Trap {
                top: SpanFix { left: fixed(x - skew), right: fixed(x - skew + width), y: fixed(y) },
                bottom: SpanFix { left: fixed(x + skew - width), right: fixed(x + skew), y: fixed(y + size) },
            })
            .collect();
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let aa = self.aa.as_ref().expect("init made the draw");
        let d = &xp.d;
        let white = d.xft_draw_src_picture(aa.draw, &aa.white);
        let black = d.xft_draw_src_picture(aa.draw, &aa.black);
        let dst = d.xft_draw_picture(aa.draw);
        let mut src = black;
        let transparent = RenderColor::default();
        for _ in 0..reps {
            d.render_fill_rectangle(PICT_OP_SRC, self.mask, transparent, 0, 0, WIDTH as u32, HEIGHT as u32);
            d.render_add_traps(self.mask, 0, 0, &self.traps);
            d.render_composite(
                PICT_OP_OVER,
                src,
                self.mask,
                dst,
                0,
                0,
                0,
                0,
                0,
                0,
                WIDTH as u32,
                HEIGHT as u32,
            );
            src = if src == black { white } else { black };
        }
    }
    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if let Some(aa) = self.aa.take() {
            xp.d.xft_draw_destroy(aa.draw);
        }
        if self.mask != 0 {
            xp.d.render_free_picture(self.mask);
            xp.d.free_pixmap(self.mask_pixmap);
            self.mask = 0;
        }
    }
}

/// `DoFixedTrapezoids`: `XRenderCompositeTrapezoids` with an A8 mask format ("add": the
/// trapezoids are added into one mask before compositing).
pub struct FixedTrapezoids {
    aa: Option<AaDraw>,
    traps: Vec<Trapezoid>,
    mask_format: PictFormat,
}

impl FixedTrapezoids {
    pub fn make() -> Box<dyn Workload> {
        Box::new(FixedTrapezoids { aa: None, traps: Vec::new(), mask_format: PictFormat::none() })
    }
}

impl Workload for FixedTrapezoids {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let size = p.special;
        self.aa = aa_draw(xp);
        if self.aa.is_none() {
            return 0;
        }
        // x11perf asks XRenderFindFormat for a direct depth-8 format with an 8-bit alpha at 0:
        // the standard A8 format.
        self.mask_format = if p.font == Some("add") {
            xp.d.render_standard_format(PICT_STANDARD_A8)
        } else {
            PictFormat::none()
        };
        let f = |x: i32, y: i32| PointFixed { x: fixed(x), y: fixed(y) };
        self.traps = layout(size, p.objects)
            .into_iter()
            .map(|(x, y, skew)| Trapezoid {
                top: fixed(y),
                bottom: fixed(y + size),
                left: LineFixed { p1: f(x - skew, y), p2: f(x + skew - size, y + size) },
                right: LineFixed { p1: f(x - skew + size, y), p2: f(x + skew, y + size) },
            })
            .collect();
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let aa = self.aa.as_ref().expect("init made the draw");
        let d = &xp.d;
        let white = d.xft_draw_src_picture(aa.draw, &aa.white);
        let black = d.xft_draw_src_picture(aa.draw, &aa.black);
        let dst = d.xft_draw_picture(aa.draw);
        let mut src = black;
        for _ in 0..reps {
            d.render_composite_trapezoids(PICT_OP_OVER, src, dst, self.mask_format, 0, 0, &self.traps);
            src = if src == black { white } else { black };
        }
    }
    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if let Some(aa) = self.aa.take() {
            xp.d.xft_draw_destroy(aa.draw);
        }
    }
}
