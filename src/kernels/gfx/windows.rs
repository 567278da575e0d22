//! Window management (x11perf's `do_windows.c` popup and `do_movewin.c`): `popup`, `move`,
//! `movetree`, `resize`, each over 25 child windows (`-subs 25`).

use super::harness::{Parms, Workload, Xp, CHILDSIZE, CHILDSPACE, HEIGHT, MAXCOLS, WIDTH};
use crate::sys::x11::Window;

/// `InitPopups`/`DoPopUps`: map and unmap an override-redirect window over a group of
/// children (x11perf built without CHILDROOT: the popup is a child of the perf window).
#[derive(Default)]
pub struct Popup {
    popup: Window,
}

impl Popup {
    pub fn make() -> Box<dyn Workload> {
        Box::new(Popup::default())
    }
}

impl Workload for Popup {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let d = &xp.d;
        let isolate =
            d.create_simple_window(xp.w, 0, 0, WIDTH as u32, HEIGHT as u32, 0, xp.background, xp.background);
        // ComputeSizes + CreateChildGroup.
        let children = p.objects;
        let rows = (children + MAXCOLS - 1) / MAXCOLS;
        let columns = if rows > 1 { MAXCOLS } else { children };
        let (pw, ph) = ((CHILDSIZE + CHILDSPACE) * columns, (CHILDSIZE + CHILDSPACE) * rows);
        for j in 0..children {
            d.create_simple_window(
                isolate,
                (CHILDSIZE + CHILDSPACE) * (j / rows) + CHILDSPACE / 2,
                (CHILDSIZE + CHILDSPACE) * (j % rows) + CHILDSPACE / 2,
                CHILDSIZE as u32,
                CHILDSIZE as u32,
                0,
                xp.background,
                xp.foreground,
            );
        }
        if p.special != 0 {
            d.map_subwindows(isolate);
        }
        d.map_window(isolate);
        self.popup =
            d.create_simple_window(xp.w, 0, 0, pw as u32, ph as u32, 0, xp.foreground, xp.foreground);
        d.set_override_redirect(self.popup, true);
        reps
    }
    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        for _ in 0..reps {
            xp.d.map_window(self.popup);
            xp.d.unmap_window(self.popup);
        }
    }
    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        xp.d.destroy_subwindows(xp.w);
    }
}

/// What a move test does with its children.
#[derive(Clone, Copy, PartialEq)]
enum Motion {
    /// `DoMoveWindows`: move every child.
    Move,
    /// `DoResizeWindows`: resize every child by +-1.
    Resize,
    /// `InitMoveTree`/`DoMoveTree`: move the parent of all children.
    Tree,
}

/// `InitMoveWindows`/`InitMoveTree` and their procs.
pub struct MoveWin {
    motion: Motion,
    children: Vec<Window>,
    positions: Vec<(i32, i32)>,
    cover: Window,
    offset: (i32, i32),
    max: (i32, i32),
    delta1: i32,
}

impl MoveWin {
    fn boxed(motion: Motion) -> Box<dyn Workload> {
        Box::new(MoveWin {
            motion,
            children: Vec::new(),
            positions: Vec::new(),
            cover: 0,
            offset: (0, 0),
            max: (0, 0),
            delta1: 1,
        })
    }
    pub fn moves() -> Box<dyn Workload> {
        MoveWin::boxed(Motion::Move)
    }
    pub fn resizes() -> Box<dyn Workload> {
        MoveWin::boxed(Motion::Resize)
    }
    pub fn tree() -> Box<dyn Workload> {
        MoveWin::boxed(Motion::Tree)
    }
}

impl Workload for MoveWin {
    fn init(&mut self, xp: &mut Xp, p: &mut Parms, reps: i64) -> i64 {
        let d = &xp.d;
        let rows = (p.objects + MAXCOLS - 1) / MAXCOLS;
        self.offset = (0, 0);
        self.delta1 = 1;
        self.max = (
            (CHILDSIZE + CHILDSPACE) * if rows > 1 { MAXCOLS } else { p.objects },
            rows * (CHILDSIZE + CHILDSPACE),
        );
        let parent = if self.motion == Motion::Tree {
            self.cover = d.create_simple_window(
                xp.w,
                0,
                0,
                self.max.0 as u32,
                self.max.1 as u32,
                0,
                xp.background,
                xp.background,
            );
            self.cover
        } else {
            xp.w
        };
        self.children.clear();
        self.positions.clear();
        for i in 0..p.objects {
            let pos = (
                (CHILDSIZE + CHILDSPACE) * (i / rows) + CHILDSPACE / 2,
                (CHILDSIZE + CHILDSPACE) * (i % rows) + CHILDSPACE / 2,
            );
            self.positions.push(pos);
            let w = d.create_simple_window(
                parent,
                pos.0,
                pos.1,
                CHILDSIZE as u32,
                CHILDSIZE as u32,
                0,
                xp.foreground,
                xp.foreground,
            );
            self.children.push(w);
        }
        if self.motion == Motion::Tree {
            d.map_subwindows(self.cover);
            d.map_window(self.cover);
        } else if p.special != 0 {
            d.map_subwindows(xp.w);
        }
        reps
    }

    fn run(&mut self, xp: &mut Xp, _p: &Parms, reps: i64) {
        let d = &xp.d;
        for _ in 0..reps {
            match self.motion {
                Motion::Move | Motion::Tree => {
                    self.offset.0 += 1;
                    self.offset.1 += 3;
                    if self.offset.1 + self.max.1 > HEIGHT {
                        self.offset.1 = 0;
                    }
                    if self.offset.0 + self.max.0 > WIDTH {
                        self.offset.0 = 0;
                    }
                    if self.motion == Motion::Tree {
                        d.move_window(self.cover, self.offset.0, self.offset.1);
                    } else {
                        for (w, pos) in self.children.iter().zip(&self.positions) {
                            d.move_window(*w, pos.0 + self.offset.0, pos.1 + self.offset.1);
                        }
                    }
                }
                Motion::Resize => {
                    self.delta1 = -self.delta1;
                    let mut delta2 = self.delta1;
                    for w in &self.children {
                        delta2 = -delta2;
                        d.resize_window(*w, (CHILDSIZE + delta2) as u32, (CHILDSIZE - delta2) as u32);
                    }
                }
            }
        }
    }

    fn cleanup(&mut self, xp: &mut Xp, _p: &Parms) {
        if self.motion == Motion::Tree {
            xp.d.destroy_window(self.cover);
        }
        self.children.clear();
        self.positions.clear();
    }
}
