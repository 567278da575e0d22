//! `dhry2reg DURATION` and `dhry2 DURATION`: Reinhold Weicker's Dhrystone 2.1 in the BYTE
//! variant UnixBench builds from `dhry_1.c` and `dhry_2.c` (docs/ORIGINAL.md, "dhry2reg"): the same
//! record type, globals, ten steps per loop, Proc_1..Proc_8 and Func_1..Func_3 with the same data
//! flow. `Run_Index` starts at 1 and is counted at the end of each loop; the figure is
//! `COUNT|Run_Index|1|lps`, i.e. completed loops + 1, as the C program prints it.
//!
//! **dhry2reg vs dhry2.** In C the two differ only by `-DREG=register`, a storage-class hint on a
//! few locals and parameters that gcc at -O3 ignores (the reference figures of the two agree
//! within noise). Rust has no such hint: the register allocator decides alone. Both names
//! therefore run the same code, and the figures differ only by run-to-run noise, as in C.
//!
//! **Translation units.** In C, Proc_6..8 and Func_1..3 live in `dhry_2.c`, compiled apart from
//! the main loop without LTO, so the main loop calls them and cannot see what they do. Here they
//! sit in [`unit2`], each `#[inline(never)]`, and the main loop reaches them through
//! [`unit2::ext`], a table of their addresses that the optimiser cannot look through: like gcc
//! across units, it must assume each call may read and write every global (the calls become
//! indirect, which the branch predictor makes as cheap as direct ones). The two strings handed
//! to Func_2 go through [`opaque_ref`] (otherwise LLVM replaces Str_1_Loc by a constant), and
//! the parameters every caller passes as the same constant (both of Proc_8's, Func_1's second)
//! through [`opaque`], so that no body is specialised on them; neither costs an instruction.
//! Inside `dhry_2.c` gcc inlines Func_1 into Func_2 and Func_3 into Proc_6 (its -O3 output has
//! no such calls); [`unit2`] lets LLVM do the same through the `_body` functions. Proc_1..5
//! belong to the main loop's unit and may be inlined there (gcc inlines Proc_2, 4 and 5; LLVM
//! also Proc_1 and 3). docs/FIDELITY.md measures what the two compilers make of it.
//!
//! **Globals in safe code.** The C globals are split by how the C code reaches them:
//! [`Globals`] holds the scalars (Ptr_Glob, Next_Ptr_Glob, Int_Glob, Bool_Glob, Ch_1_Glob,
//! Ch_2_Glob); [`Arrays`] holds Arr_1_Glob and Arr_2_Glob, which C passes to Proc_8 as
//! parameters; [`Heap`] holds the two records C gets from `malloc`. All three are passed by
//! `&mut`, so every access is a plain load or store at a fixed offset, as C's are. A
//! `Rec_Pointer` is the index of its record in the heap ([`RecPtr`]); the record copies
//! (`*P->Ptr_Comp = *Ptr_Glob`) are whole-struct copies of the same 56-byte record. Only the
//! union's `var_1` variant is ever used by the program, so the record holds that variant's
//! fields; the union's size is `var_1`'s, so the copy moves as many bytes as C's.
//!
//! **Strings** are `[u8; 31]` holding NUL-terminated text: `strcpy` of a literal is a copy of
//! its 31 bytes (gcc emits the same stores), and `strcmp` compares bytes up to the first
//! difference or NUL, several bytes at a time as glibc's does (musl's, which the static build
//! links, is a byte loop: a libc choice that Dhrystone does not mean to measure). It stays a
//! real call, as the C program's call into libc is.
//!
//! **End of the run.** The C `report()` prints the counter from the SIGALRM handler and exits.
//! Here the handler only raises a flag ([`timing::stop_on_alarm`]); the loop reads it once per
//! iteration (one relaxed load, a plain `mov`, next to a loop of about 150 instructions), ends
//! the iteration in progress, checks every global and local against the values Dhrystone 2.1
//! documents (the "should be" lines of `dhry_1.c`), and only then prints the count. A wrong
//! value is reported as an error, exit 1, with no figure. The printed count is the one the C
//! program would print at the same instant.

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::sys::hint::{opaque, opaque_ref};
use crate::timing::{self, Deadline};
use std::ffi::OsString;

/// C's `enum {Ident_1, Ident_2, Ident_3, Ident_4, Ident_5}`: an int-sized enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Enumeration {
    Ident1 = 0,
    Ident2 = 1,
    Ident3 = 2,
    Ident4 = 3,
    #[allow(dead_code)] // never produced by the program, only matched in Proc_6, as in C
    Ident5 = 4,
}
use Enumeration::*;

/// C's `Str_30`: `char[31]`, thirty characters and the NUL.
pub type Str30 = [u8; 31];

/// C's `Arr_1_Dim`.
pub type Arr1Dim = [i32; 50];

/// C's `Arr_2_Dim`.
pub type Arr2Dim = [[i32; 50]; 50];

/// C's `Rec_Pointer`: which of the two heap records (index into [`Heap::recs`]).
pub type RecPtr = usize;

/// C's `Rec_Type` with its union's `var_1` variant (the only one the program uses).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Record {
    pub ptr_comp: RecPtr,
    pub discr: Enumeration,
    pub enum_comp: Enumeration,
    pub int_comp: i32,
    pub str_comp: Str30,
}

/// The scalar globals of `dhry_1.c`.
#[derive(Debug)]
pub struct Globals {
    pub ptr_glob: RecPtr,
    pub next_ptr_glob: RecPtr,
    pub int_glob: i32,
    pub bool_glob: bool,
    pub ch_1_glob: u8,
    pub ch_2_glob: u8,
}

/// `Arr_1_Glob` and `Arr_2_Glob` (10 KB; boxed by the caller).
pub struct Arrays {
    pub arr_1_glob: Arr1Dim,
    pub arr_2_glob: Arr2Dim,
}

/// The two records `main` allocates with `malloc`.
pub struct Heap {
    pub recs: [Record; 2],
}

/// The locals of `main` after the last loop, for the self-check.
#[derive(Debug)]
pub struct Locals {
    pub int_1_loc: i32,
    pub int_2_loc: i32,
    pub int_3_loc: i32,
    pub enum_loc: Enumeration,
    pub str_1_loc: Str30,
    pub str_2_loc: Str30,
}

const SOME_STRING: &Str30 = b"DHRYSTONE PROGRAM, SOME STRING\0";
const STR_1ST: &Str30 = b"DHRYSTONE PROGRAM, 1'ST STRING\0";
const STR_2ND: &Str30 = b"DHRYSTONE PROGRAM, 2'ND STRING\0";
const STR_3RD: &Str30 = b"DHRYSTONE PROGRAM, 3'RD STRING\0";

/// The state after `main`'s initialisations: both records allocated, Ptr_Glob's filled in,
/// Arr_2_Glob[8][7] = 10. Next_Ptr_Glob's record is zeroed where C leaves it uninitialised; the
/// first Proc_1 overwrites it whole.
pub fn init() -> (Globals, Heap, Box<Arrays>) {
    const NEXT: RecPtr = 0;
    const GLOB: RecPtr = 1;
    let blank = Record { ptr_comp: NEXT, discr: Ident1, enum_comp: Ident1, int_comp: 0, str_comp: [0; 31] };
    let mut heap = Heap { recs: [blank; 2] };
    heap.recs[GLOB] =
        Record { ptr_comp: NEXT, discr: Ident1, enum_comp: Ident3, int_comp: 40, str_comp: *SOME_STRING };
    let globals = Globals {
        ptr_glob: GLOB,
        next_ptr_glob: NEXT,
        int_glob: 0,
        bool_glob: false,
        ch_1_glob: 0,
        ch_2_glob: 0,
    };
    let mut arrays = Box::new(Arrays { arr_1_glob: [0; 50], arr_2_glob: [[0; 50]; 50] });
    arrays.arr_2_glob[8][7] = 10;
    (globals, heap, arrays)
}

/// The measured loop of `main`: runs until `d` expires, counting in `d` from 1 (Run_Index).
pub fn run<D: Deadline>(d: &mut D, g: &mut Globals, h: &mut Heap, a: &mut Arrays) -> Locals {
    let str_1_loc: Str30 = *STR_1ST;
    let mut str_2_loc: Str30;
    let mut int_1_loc: i32;
    let mut int_2_loc: i32;
    let mut int_3_loc: i32 = 0;
    let mut enum_loc: Enumeration;
    d.set_count(1);
    loop {
        proc_5(g);
        proc_4(g);
        // Ch_1_Glob == 'A', Ch_2_Glob == 'B', Bool_Glob == true
        int_1_loc = 2;
        int_2_loc = 3;
        str_2_loc = *STR_2ND;
        enum_loc = Ident2;
        g.bool_glob = !(unit2::ext().func_2)(g, opaque_ref(&str_1_loc), opaque_ref(&str_2_loc));
        // Bool_Glob == 1
        while int_1_loc < int_2_loc {
            // loop body executed once
            int_3_loc = 5 * int_1_loc - int_2_loc;
            // Int_3_Loc == 7
            (unit2::ext().proc_7)(int_1_loc, int_2_loc, &mut int_3_loc);
            // Int_3_Loc == 7
            int_1_loc += 1;
        }
        // Int_1_Loc == 3, Int_2_Loc == 3, Int_3_Loc == 7
        (unit2::ext().proc_8)(g, &mut a.arr_1_glob, &mut a.arr_2_glob, int_1_loc, int_3_loc);
        // Int_Glob == 5
        proc_1(g, h, g.ptr_glob);
        let mut ch_index = b'A';
        while ch_index <= g.ch_2_glob {
            // loop body executed twice
            if enum_loc == (unit2::ext().func_1)(g, ch_index, b'C') {
                // then, not executed
                (unit2::ext().proc_6)(g, Ident1, &mut enum_loc);
                str_2_loc = *STR_3RD;
                int_2_loc = d.count() as i32;
                g.int_glob = d.count() as i32;
            }
            ch_index = ch_index.wrapping_add(1);
        }
        // Int_1_Loc == 3, Int_2_Loc == 3, Int_3_Loc == 7
        int_2_loc = int_2_loc.wrapping_mul(int_1_loc);
        int_1_loc = int_2_loc / int_3_loc;
        int_2_loc = 7i32.wrapping_mul(int_2_loc.wrapping_sub(int_3_loc)).wrapping_sub(int_1_loc);
        // Int_1_Loc == 1, Int_2_Loc == 13, Int_3_Loc == 7
        proc_2(g, &mut int_1_loc);
        // Int_1_Loc == 5
        d.tick();
        if d.expired() {
            break;
        }
    }
    Locals { int_1_loc, int_2_loc, int_3_loc, enum_loc, str_1_loc, str_2_loc }
}

fn proc_1(g: &mut Globals, h: &mut Heap, ptr_val_par: RecPtr) {
    let next_record = h.recs[ptr_val_par].ptr_comp;
    // == Ptr_Glob_Next
    h.recs[h.recs[ptr_val_par].ptr_comp] = h.recs[g.ptr_glob];
    h.recs[ptr_val_par].int_comp = 5;
    h.recs[next_record].int_comp = h.recs[ptr_val_par].int_comp;
    h.recs[next_record].ptr_comp = h.recs[ptr_val_par].ptr_comp;
    proc_3(g, h, next_record);
    // Ptr_Val_Par->Ptr_Comp->Ptr_Comp == Ptr_Glob->Ptr_Comp
    if h.recs[next_record].discr == Ident1 {
        // then, executed
        h.recs[next_record].int_comp = 6;
        let e = h.recs[ptr_val_par].enum_comp;
        (unit2::ext().proc_6)(g, e, &mut h.recs[next_record].enum_comp);
        h.recs[next_record].ptr_comp = h.recs[g.ptr_glob].ptr_comp;
        let v = h.recs[next_record].int_comp;
        (unit2::ext().proc_7)(v, 10, &mut h.recs[next_record].int_comp);
    } else {
        // not executed
        h.recs[ptr_val_par] = h.recs[h.recs[ptr_val_par].ptr_comp];
    }
}

fn proc_2(g: &Globals, int_par_ref: &mut i32) {
    let mut int_loc = int_par_ref.wrapping_add(10);
    // C: `Enum_Loc = 0`, which is Ident_1, so the do-while runs once whatever Ch_1_Glob holds.
    let mut enum_loc = Ident1;
    loop {
        if g.ch_1_glob == b'A' {
            // then, executed
            int_loc = int_loc.wrapping_sub(1);
            *int_par_ref = int_loc.wrapping_sub(g.int_glob);
            enum_loc = Ident1;
        }
        if enum_loc == Ident1 {
            break;
        }
    }
}

/// `Proc_3(&Next_Record->Ptr_Comp)`: the only pointer C passes is the `Ptr_Comp` field of a
/// record, so the record's index stands for it. C tests `Ptr_Glob != Null` first; an index
/// cannot be null, and the test is always true in C.
fn proc_3(g: &mut Globals, h: &mut Heap, ptr_ref_par: RecPtr) {
    h.recs[ptr_ref_par].ptr_comp = h.recs[g.ptr_glob].ptr_comp;
    let int_glob = g.int_glob;
    (unit2::ext().proc_7)(10, int_glob, &mut h.recs[g.ptr_glob].int_comp);
}

fn proc_4(g: &mut Globals) {
    let bool_loc = g.ch_1_glob == b'A';
    g.bool_glob |= bool_loc;
    g.ch_2_glob = b'B';
}

fn proc_5(g: &mut Globals) {
    g.ch_1_glob = b'A';
    g.bool_glob = false;
}

/// What `dhry_2.c` holds: called out of line from the main loop, inlined within itself.
pub mod unit2 {
    use super::*;

    /// The entry points the main loop calls, reached through [`ext`] as through a linker: the
    /// caller sees the addresses, not the code.
    pub struct Table {
        pub proc_6: fn(&Globals, Enumeration, &mut Enumeration),
        pub proc_7: fn(i32, i32, &mut i32),
        pub proc_8: fn(&mut Globals, &mut Arr1Dim, &mut Arr2Dim, i32, i32),
        pub func_1: fn(&mut Globals, u8, u8) -> Enumeration,
        pub func_2: fn(&mut Globals, &Str30, &Str30) -> bool,
    }

    static TABLE: Table = Table { proc_6, proc_7, proc_8, func_1, func_2 };

    /// The functions of this unit as another unit sees them: called, never looked into. Without
    /// it, LTO lets the optimiser learn that Proc_7 writes only through its pointer, Func_1 only
    /// into its `&mut`, and so on, and keep values in registers across the calls, where gcc,
    /// compiling `dhry_1.c` alone, must assume each call reads and writes every global.
    #[inline(always)]
    pub fn ext() -> &'static Table {
        opaque_ref(&TABLE)
    }

    #[inline(never)]
    pub fn proc_6(g: &Globals, enum_val_par: Enumeration, enum_ref_par: &mut Enumeration) {
        *enum_ref_par = enum_val_par;
        if !func_3_body(enum_val_par) {
            // then, not executed
            *enum_ref_par = Ident4;
        }
        match enum_val_par {
            Ident1 => *enum_ref_par = Ident1,
            Ident2 => *enum_ref_par = if g.int_glob > 100 { Ident1 } else { Ident4 },
            Ident3 => *enum_ref_par = Ident2, // executed
            Ident4 => {}
            Ident5 => *enum_ref_par = Ident3,
        }
    }

    #[inline(never)]
    pub fn proc_7(int_1_par_val: i32, int_2_par_val: i32, int_par_ref: &mut i32) {
        let int_loc = int_1_par_val.wrapping_add(2);
        *int_par_ref = int_2_par_val.wrapping_add(int_loc);
    }

    #[inline(never)]
    pub fn proc_8(
        g: &mut Globals,
        arr_1_par_ref: &mut Arr1Dim,
        arr_2_par_ref: &mut Arr2Dim,
        int_1_par_val: i32,
        int_2_par_val: i32,
    ) {
        let int_1_par_val = opaque(int_1_par_val as i64) as i32;
        let int_2_par_val = opaque(int_2_par_val as i64) as i32;
        let int_loc = int_1_par_val + 5;
        let l = int_loc as usize;
        arr_1_par_ref[l] = int_2_par_val;
        arr_1_par_ref[l + 1] = arr_1_par_ref[l];
        arr_1_par_ref[l + 30] = int_loc;
        // C: for (Int_Index = Int_Loc; Int_Index <= Int_Loc+1; ++Int_Index), two stores.
        arr_2_par_ref[l][l..l + 2].fill(int_loc);
        arr_2_par_ref[l][l - 1] = arr_2_par_ref[l][l - 1].wrapping_add(1);
        arr_2_par_ref[l + 20][l] = arr_1_par_ref[l];
        g.int_glob = 5;
    }

    #[inline(never)]
    pub fn func_1(g: &mut Globals, ch_1_par_val: u8, ch_2_par_val: u8) -> Enumeration {
        let ch_2_par_val = opaque(ch_2_par_val as i64) as u8;
        func_1_body(g, ch_1_par_val, ch_2_par_val)
    }

    #[inline(always)]
    fn func_1_body(g: &mut Globals, ch_1_par_val: u8, ch_2_par_val: u8) -> Enumeration {
        let ch_1_loc = ch_1_par_val;
        let ch_2_loc = ch_1_loc;
        if ch_2_loc != ch_2_par_val {
            // then, executed
            Ident1
        } else {
            // not executed
            g.ch_1_glob = ch_1_loc;
            Ident2
        }
    }

    #[inline(never)]
    pub fn func_2(g: &mut Globals, str_1_par_ref: &Str30, str_2_par_ref: &Str30) -> bool {
        let mut ch_loc = b'A';
        let mut int_loc: i32 = 2;
        while int_loc <= 2 {
            // loop body executed once
            let i = int_loc as usize;
            if func_1_body(g, str_1_par_ref[i], str_2_par_ref[i + 1]) == Ident1 {
                // then, executed
                ch_loc = b'A';
                int_loc += 1;
            }
        }
        if (b'W'..b'Z').contains(&ch_loc) {
            // then, not executed
            int_loc = 7;
        }
        if ch_loc == b'R' {
            // then, not executed
            true
        } else if strcmp(str_1_par_ref, str_2_par_ref) > 0 {
            // then, not executed
            int_loc += 7;
            g.int_glob = int_loc;
            true
        } else {
            // executed
            false
        }
    }

    #[inline(always)]
    fn func_3_body(enum_par_val: Enumeration) -> bool {
        let enum_loc = enum_par_val;
        enum_loc == Ident3
    }

    /// `strcmp(3)` on two NUL-terminated strings in 31-byte arrays: the difference of the first
    /// differing bytes (as unsigned char), or 0 when the strings end together. Eight bytes per
    /// step: the lowest byte that differs or is NUL in `s1` ends the comparison. The last step
    /// overlaps the previous one (bytes 23..31). Out of line: in C it is a call into libc.
    #[inline(never)]
    pub fn strcmp(s1: &Str30, s2: &Str30) -> i32 {
        const LOW: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        for off in [0usize, 8, 16, 23] {
            let a = u64::from_le_bytes(s1[off..off + 8].try_into().unwrap());
            let b = u64::from_le_bytes(s2[off..off + 8].try_into().unwrap());
            // Marks the lowest NUL byte of `a` exactly (higher marks may be spurious).
            let nul = a.wrapping_sub(LOW) & !a & HIGH;
            let stop = (a ^ b) | nul;
            if stop != 0 {
                let i = off + (stop.trailing_zeros() / 8) as usize;
                return s1[i] as i32 - s2[i] as i32;
            }
        }
        0
    }
}

/// Compares the final state with what Dhrystone 2.1 documents after `runs` loops (the
/// "should be" lines of `dhry_1.c`). Returns the first wrong value.
pub fn verify(runs: u64, g: &Globals, h: &Heap, a: &Arrays, l: &Locals) -> std::result::Result<(), String> {
    fn text(s: &Str30) -> String {
        let end = s.iter().position(|&c| c == 0).unwrap_or(s.len());
        String::from_utf8_lossy(&s[..end]).into_owned()
    }
    let glob = &h.recs[g.ptr_glob];
    let next = &h.recs[g.next_ptr_glob];
    let arr_2_should = (runs as i32).wrapping_add(10);
    let ints: [(&str, i64, i64); 16] = [
        ("Int_Glob", g.int_glob as i64, 5),
        ("Bool_Glob", g.bool_glob as i64, 1),
        ("Ch_1_Glob", g.ch_1_glob as i64, b'A' as i64),
        ("Ch_2_Glob", g.ch_2_glob as i64, b'B' as i64),
        ("Arr_1_Glob[8]", a.arr_1_glob[8] as i64, 7),
        ("Arr_2_Glob[8][7]", a.arr_2_glob[8][7] as i64, arr_2_should as i64),
        ("Ptr_Glob->Discr", glob.discr as i64, 0),
        ("Ptr_Glob->Enum_Comp", glob.enum_comp as i64, 2),
        ("Ptr_Glob->Int_Comp", glob.int_comp as i64, 17),
        ("Next_Ptr_Glob->Discr", next.discr as i64, 0),
        ("Next_Ptr_Glob->Enum_Comp", next.enum_comp as i64, 1),
        ("Next_Ptr_Glob->Int_Comp", next.int_comp as i64, 18),
        ("Int_1_Loc", l.int_1_loc as i64, 5),
        ("Int_2_Loc", l.int_2_loc as i64, 13),
        ("Int_3_Loc", l.int_3_loc as i64, 7),
        ("Enum_Loc", l.enum_loc as i64, 1),
    ];
    for (name, is, should) in ints {
        if is != should {
            return Err(format!("{name} is {is}, should be {should}"));
        }
    }
    if next.ptr_comp != glob.ptr_comp {
        return Err("Next_Ptr_Glob->Ptr_Comp differs from Ptr_Glob->Ptr_Comp".into());
    }
    let strs = [
        ("Ptr_Glob->Str_Comp", &glob.str_comp, SOME_STRING),
        ("Next_Ptr_Glob->Str_Comp", &next.str_comp, SOME_STRING),
        ("Str_1_Loc", &l.str_1_loc, STR_1ST),
        ("Str_2_Loc", &l.str_2_loc, STR_2ND),
    ];
    for (name, is, should) in strs {
        if is != should {
            return Err(format!("{name} is \"{}\", should be \"{}\"", text(is), text(should)));
        }
    }
    Ok(())
}

/// Entry for both `dhry2reg` and `dhry2`.
pub fn main(argv: Vec<OsString>) -> Result {
    let duration = args::duration_only(&argv)?;
    let (mut g, mut h, mut a) = init();
    timing::stop_on_alarm(duration);
    let locals = run(&mut timing::Alarm, &mut g, &mut h, &mut a);
    let run_index = timing::count();
    verify(run_index - 1, &g, &h, &a, &locals)
        .map_err(|e| Error::failed(format!("self-check failed: {e}")))?;
    protocol::emit(&protocol::count(run_index, 1, "lps"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::unit2::strcmp;
    use super::*;
    use crate::timing::Loops;

    fn s30(s: &str) -> Str30 {
        let mut b = [0u8; 31];
        b[..s.len()].copy_from_slice(s.as_bytes());
        b
    }

    #[test]
    fn final_values_are_the_documented_ones() {
        for runs in [1u64, 2, 3, 1000, 54321] {
            let (mut g, mut h, mut a) = init();
            let mut d = Loops { n: 0, until: runs + 1 };
            let l = run(&mut d, &mut g, &mut h, &mut a);
            assert_eq!(d.n, runs + 1, "Run_Index counts from 1");
            verify(runs, &g, &h, &a, &l).unwrap();
            assert_eq!(a.arr_2_glob[8][7], runs as i32 + 10);
            assert_eq!(h.recs[g.ptr_glob].ptr_comp, g.next_ptr_glob);
            assert_eq!(h.recs[g.next_ptr_glob].ptr_comp, g.next_ptr_glob);
            // A wrong count is caught.
            assert!(verify(runs + 1, &g, &h, &a, &l).unwrap_err().contains("Arr_2_Glob[8][7]"));
        }
    }

    #[test]
    fn verify_names_the_wrong_value() {
        let (mut g, mut h, mut a) = init();
        let l = run(&mut Loops { n: 0, until: 3 }, &mut g, &mut h, &mut a);
        g.int_glob = 4;
        assert_eq!(verify(2, &g, &h, &a, &l).unwrap_err(), "Int_Glob is 4, should be 5");
        g.int_glob = 5;
        h.recs[g.next_ptr_glob].str_comp[0] = b'X';
        assert!(verify(2, &g, &h, &a, &l).unwrap_err().starts_with("Next_Ptr_Glob->Str_Comp is \"XHRY"));
    }

    #[test]
    fn strcmp_matches_c() {
        let c = |a: &str, b: &str| strcmp(&s30(a), &s30(b)).signum();
        assert_eq!(c("DHRYSTONE PROGRAM, 1'ST STRING", "DHRYSTONE PROGRAM, 2'ND STRING"), -1);
        assert_eq!(c("DHRYSTONE PROGRAM, 3'RD STRING", "DHRYSTONE PROGRAM, 2'ND STRING"), 1);
        assert_eq!(c("DHRYSTONE PROGRAM, 2'ND STRING", "DHRYSTONE PROGRAM, 2'ND STRING"), 0);
        assert_eq!(c("", ""), 0);
        assert_eq!(c("abc", "abcd"), -1);
        assert_eq!(c("abcd", "abc"), 1);
        assert_eq!(c("abcdefghij", "abcdefghiJ"), 1);
        // Bytes after the NUL do not count.
        let mut x = s30("abc");
        x[5] = b'z';
        assert_eq!(strcmp(&x, &s30("abc")), 0);
        // Unsigned bytes, as C's strcmp compares them.
        let mut hi = s30("a");
        hi[0] = 0xe9;
        assert!(strcmp(&hi, &s30("z")) > 0);
        // Every split position across the word boundaries.
        for i in 0..30 {
            let a = s30(&"x".repeat(30));
            let mut b = a;
            b[i] = b'y';
            assert_eq!(strcmp(&a, &b), b'x' as i32 - b'y' as i32, "at {i}");
            let mut short = a;
            short[i] = 0;
            assert_eq!(strcmp(&short, &a), -(b'x' as i32), "NUL at {i}");
        }
    }

    #[test]
    fn bad_arguments_are_usage_errors() {
        for bad in [vec!["dhry2reg"], vec!["dhry2reg", "0"], vec!["dhry2reg", "x"], vec!["dhry2reg", "-3"]] {
            let e = main(bad.iter().map(OsString::from).collect()).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
            assert!(e.to_string().contains("duration"), "{bad:?}: {e}");
        }
    }
}
