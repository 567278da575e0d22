//! Pure helpers on the twins' ELF images, shared by the build script (which links and squeezes
//! them) and the applets (which unsqueeze them and match loaders). No dependencies, so the
//! build script can include this file as it is.

/// PT_INTERP of a little-endian ELF64 image: the program interpreter (dynamic loader) it asks
/// for, or None for a static image or anything that is not such an ELF.
pub fn interpreter(elf: &[u8]) -> Option<String> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(elf.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(elf.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(elf.get(o..o + 8)?.try_into().ok()?) as usize);
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (phoff, phentsize, phnum) = (u64_at(0x20)?, u16_at(0x36)? as usize, u16_at(0x38)? as usize);
    let ph = (0..phnum).map(|i| phoff + i * phentsize).find(|&ph| u32_at(ph) == Some(3))?;
    let (off, len) = (u64_at(ph + 8)?, u64_at(ph + 32)?);
    let s = elf.get(off..off.checked_add(len)?)?;
    Some(String::from_utf8_lossy(s.strip_suffix(b"\0").unwrap_or(s)).into_owned())
}

/// Runs of zeros shorter than this stay in the literals.
#[cfg_attr(not(test), allow(dead_code))] // the build script's half, and the tests'
const MIN_RUN: usize = 8;

/// Squeezes out runs of zeros, which (page padding between an ELF's segments) make up most of a
/// small image's file: the output is a sequence of (literal length, literal bytes, zero-run
/// length), each length a LEB128 number.
#[cfg_attr(not(test), allow(dead_code))]
pub fn squeeze(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let lit = i;
        while i < data.len() && !data[i..].iter().take(MIN_RUN).all(|&b| b == 0) {
            i += 1;
        }
        let zeros = i;
        while i < data.len() && data[i] == 0 {
            i += 1;
        }
        put_leb(&mut out, zeros - lit);
        out.extend_from_slice(&data[lit..zeros]);
        put_leb(&mut out, i - zeros);
    }
    out
}

/// Undoes [`squeeze`]; None if `data` is not a well-formed squeezed image.
pub fn unsqueeze(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let lit = get_leb(data, &mut i)?;
        out.extend_from_slice(data.get(i..i.checked_add(lit)?)?);
        i += lit;
        let zeros = get_leb(data, &mut i)?;
        out.resize(out.len().checked_add(zeros)?, 0);
    }
    Some(out)
}

#[cfg_attr(not(test), allow(dead_code))]
fn put_leb(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn get_leb(data: &[u8], i: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    for shift in (0..usize::BITS).step_by(7) {
        let b = *data.get(*i)?;
        *i += 1;
        n |= ((b & 0x7f) as usize).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_round_trips() {
        let mut img = b"\x7fELF".to_vec();
        img.extend([0; 4000]);
        img.extend([1, 0, 0, 2, 3]);
        img.extend([0; 7]);
        img.extend([9; 300]);
        img.extend([0; 20]);
        for data in [&img[..], &[], &[0], &[0; 9], &[5; 200]] {
            let s = squeeze(data);
            assert_eq!(unsqueeze(&s).as_deref(), Some(data), "{data:?}");
        }
        assert!(squeeze(&img).len() < 400);
        assert_eq!(unsqueeze(&[5, 1]), None, "a literal longer than the data");
        assert_eq!(unsqueeze(&[0x80]), None, "a truncated length");
    }

    #[test]
    fn reads_the_interpreter_of_an_elf64() {
        // A minimal ELF64 header with one program header, PT_INTERP at offset 0x78.
        let mut elf = vec![0u8; 0x78];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes());
        elf[0x36..0x38].copy_from_slice(&0x38u16.to_le_bytes());
        elf[0x38..0x3a].copy_from_slice(&1u16.to_le_bytes());
        elf[0x40..0x44].copy_from_slice(&3u32.to_le_bytes());
        elf[0x48..0x50].copy_from_slice(&0x78u64.to_le_bytes());
        elf[0x60..0x68].copy_from_slice(&11u64.to_le_bytes());
        elf.extend(b"/lib/ld.so\0");
        assert_eq!(interpreter(&elf).as_deref(), Some("/lib/ld.so"));
        elf[0x40] = 1; // PT_LOAD: a static image has no interpreter
        assert_eq!(interpreter(&elf), None);
        assert_eq!(interpreter(b"#!/bin/sh\n"), None);
        elf[0x40] = 3;
        elf[0x60] = 200; // runs past the end
        assert_eq!(interpreter(&elf), None);
    }
}
