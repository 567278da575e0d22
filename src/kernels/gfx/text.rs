//! Text (x11perf's `do_text.c`): `polytext16` in core fonts (two JIS X 0208 fonts) and the
//! Xft workloads `rgb24text`, `caa10text`, `ca24text` through libXft, as x11perf draws them
//! (fontconfig resolves "charter" to whatever the host has, for x11perf and us alike).

use super::harness::{Parms, Workload, Xp, HEIGHT};
use crate::sys::x11::{Char2b, Font, RenderColor, TextItem, XftColor, XftDraw, XftFont};

const XPOS: i32 = 20;

/// x11perf's `GetRealChar`: steps `ch` down (wrapping) to the next character the font has.
fn real_char(font: &Font, total: i32, ch: &mut i32) {
    loop {
        *ch -= 1;
        if *ch < 0 {
            *ch = total - 1;
        }
        if font.has_char(*ch as usize) {
            break;
        }
    }
}

fn matrix(font: &Font) -> (i32, i32, i32, i32) {
    let (b1lo, b1hi, b2lo, b2hi) = font.char_range();
    ((b1hi - b1lo + 1) as i32, (b2hi - b2lo + 1) as i32, b1lo as i32, b2lo as i32)
}

fn char2b(font: &Font, ch: i32) -> Char2b {
    let (_, columns, b1lo, b2lo) = matrix(font);
    Char2b { byte1: (ch / columns + b1lo) as u8, byte2: (ch % columns + b2lo) as u8 }
}

/// The line-walking state shared by the text procs.
struct Lines {
    ypos: i32,
    height: i32,
    total: usize,
}

impl Lines {
    /// x11perf's loop: draw line `line` at `ypos`, step down, wrap to the top with the next
    /// start line.
    fn each(&mut self, reps: i64, mut draw: impl FnMut(usize, i32)) {
        let (mut line, mut start) = (0, 0);
        for _ in 0..reps {
            draw(line, self.ypos);
            self.ypos += self.height;
            if self.ypos > HEIGHT - self.height {
                self.ypos = XPOS;
                line = start;
                start = (start + 1) % self.total;
            }
            line = (line + 1) % self.total;
        }
    }
}

/// `InitText16` (with `special`: 7/14/7 segments) + `DoPolyText16`.
pub struct PolyText16 {
    fonts: Option<(Font, Font)>,
    lines: Vec<[Vec<Char2b>; 3]>,
    walk: Lines,
}

impl PolyText16 {
    pub fn make() -> Box<dyn Workload> {
        Box::new(PolyText16 {
            fonts: None,
            lines: Vec::new(),
            walk: Lines { ypos: XPOS, height: 0, total: 1 },
        })
    }
}

impl Workload for PolyText16 {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let d = &xp.d;
        let name = p.font.unwrap_or("");
        let Some(font) = d.load_query_font(name) else {
            println!("Could not load font '{name}', benchmark omitted");
            return 0;
        };
        let bname = p.bfont.unwrap_or("");
        let Some(bfont) = d.load_query_font(bname) else {
            println!("Could not load font '{bname}', benchmark omitted");
            d.free_font(font);
            return 0;
        };
        let (rows, columns, _, _) = matrix(&font);
        let (brows, bcolumns, _, _) = matrix(&bfont);
        let (total, btotal) = (rows * columns, brows * bcolumns);
        let (mut ch, mut bch) = (total, btotal);
        let mut total_lines = rows.max(brows) as i64;
        self.walk.ypos = XPOS;
        self.walk.height = (font.max_bounds_height() + 1).max(bfont.max_bounds_height() + 1);
        d.set_font(xp.fggc, font.id());
        d.set_font(xp.bggc, font.id());
        let cpl = (p.objects + 3) & !3;
        p.objects = cpl;
        total_lines = total_lines.min(reps);
        self.lines.clear();
        for _ in 0..total_lines {
            let (mut s0, mut s1, mut s2) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..cpl / 4 {
                real_char(&font, total, &mut ch);
                s0.push(char2b(&font, ch));
                real_char(&font, total, &mut ch);
                s2.push(char2b(&font, ch));
            }
            for _ in 0..cpl / 2 {
                real_char(&bfont, btotal, &mut bch);
                s1.push(char2b(&bfont, bch));
            }
            self.lines.push([s0, s1, s2]);
        }
        self.walk.total = self.lines.len().max(1);
        self.fonts = Some((font, bfont));
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let Some((font, bfont)) = &self.fonts else { return };
        let (fid, bfid) = (font.id(), bfont.id());
        let lines = &self.lines;
        let (d, w, gc) = (&xp.d, xp.w, xp.fggc);
        self.walk.each(reps, |line, y| {
            let [s0, s1, s2] = &lines[line];
            let items = [
                TextItem { chars: s0, delta: 0, font: fid },
                TextItem { chars: s1, delta: 3, font: bfid },
                TextItem { chars: s2, delta: 3, font: fid },
            ];
            d.draw_text16(w, gc, XPOS, y, &items);
        });
    }
    fn pass_cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        xp.d.clear_window(xp.w);
    }
    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if let Some((font, bfont)) = self.fonts.take() {
            xp.d.free_font(font);
            xp.d.free_font(bfont);
        }
        self.lines.clear();
    }
}

/// `InitAAText` + `DoAAText`: lines of consecutive ASCII characters through `XftDrawString8`.
pub struct AaText {
    state: Option<(XftFont, XftDraw, XftColor)>,
    lines: Vec<Vec<u8>>,
    walk: Lines,
}

impl AaText {
    pub fn make() -> Box<dyn Workload> {
        Box::new(AaText { state: None, lines: Vec::new(), walk: Lines { ypos: XPOS, height: 0, total: 1 } })
    }
}

impl Workload for AaText {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let d = &xp.d;
        let name = p.font.unwrap_or("");
        let Some(font) = d.xft_font_open(name) else {
            println!("Could not load font '{name}', benchmark omitted");
            return 0;
        };
        let draw = d.xft_draw_create(xp.w);
        let Some(color) = d.xft_color_alloc(RenderColor { red: 0, green: 0, blue: 0, alpha: 0xffff }) else {
            println!("Cannot allocate black");
            d.xft_font_close(font);
            d.xft_draw_destroy(draw);
            return 0;
        };
        self.walk.ypos = XPOS;
        self.walk.height = font.height();
        let cpl = (p.objects + 3) & !3;
        p.objects = cpl;
        let total_lines = ((0x7f - b' ' + 1) as i64).min(reps);
        self.lines = (0..total_lines)
            .map(|i| {
                let mut ch = i as u8 + b' ';
                (0..cpl)
                    .map(|_| {
                        let c = ch;
                        ch = if ch == 0x7f { b' ' } else { ch + 1 };
                        c
                    })
                    .collect()
            })
            .collect();
        self.walk.total = self.lines.len().max(1);
        self.state = Some((font, draw, color));
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let Some((font, draw, color)) = &self.state else { return };
        let lines = &self.lines;
        let d = &xp.d;
        self.walk.each(reps, |line, y| d.xft_draw_string8(*draw, color, *font, XPOS, y, &lines[line]));
    }
    fn pass_cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        xp.d.clear_window(xp.w);
    }
    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if let Some((font, draw, color)) = self.state.take() {
            xp.d.xft_draw_destroy(draw);
            xp.d.xft_font_close(font);
            xp.d.xft_color_free(color);
        }
        self.lines.clear();
    }
}
