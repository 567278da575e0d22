//! Pure helpers on the twins' ELF images, shared by the build script (which links and packs
//! them) and the applets (which unpack them and match loaders). No dependencies, so the
//! build script can include this file as it is.

/// PT_INTERP of an ELF image of either class (32- or 64-bit) and either byte order: the
/// program interpreter (dynamic loader) it asks for, or None for a static image or anything that
/// is not an ELF. The twins of armv7 are ELF32 and a big-endian host's /bin/sh is big-endian,
/// so nothing here assumes the build machine's layout.
pub fn interpreter(elf: &[u8]) -> Option<String> {
    let wide = match elf.get(..6)? {
        [0x7f, b'E', b'L', b'F', 2, 1 | 2] => true,
        [0x7f, b'E', b'L', b'F', 1, 1 | 2] => false,
        _ => return None,
    };
    let big = elf[5] == 2;
    // An unsigned field of `n` bytes at `o`, in the image's byte order.
    let field = |o: usize, n: usize| -> Option<usize> {
        let b = elf.get(o..o.checked_add(n)?)?;
        let v = if big {
            b.iter().fold(0u64, |v, &x| v << 8 | u64::from(x))
        } else {
            b.iter().rev().fold(0u64, |v, &x| v << 8 | u64::from(x))
        };
        usize::try_from(v).ok()
    };
    // e_phoff, e_phentsize, e_phnum; then p_offset and p_filesz within a program header.
    let (phoff, phentsize, phnum) = if wide {
        (field(0x20, 8)?, field(0x36, 2)?, field(0x38, 2)?)
    } else {
        (field(0x1c, 4)?, field(0x2a, 2)?, field(0x2c, 2)?)
    };
    let ph = (0..phnum)
        .filter_map(|i| phoff.checked_add(i.checked_mul(phentsize)?))
        .find(|&ph| field(ph, 4) == Some(3))?;
    let (off, len) =
        if wide { (field(ph + 8, 8)?, field(ph + 32, 8)?) } else { (field(ph + 4, 4)?, field(ph + 16, 4)?) };
    let s = elf.get(off..off.checked_add(len)?)?;
    Some(String::from_utf8_lossy(s.strip_suffix(b"\0").unwrap_or(s)).into_owned())
}

/// The longest match [`pack`] emits, and the shortest worth a 3-byte token.
const MAX_MATCH: usize = 131;
const MIN_MATCH: usize = 4;

/// A small LZ77 coder for the embedded images: ELF files of a few pages, mostly padding, symbol
/// tables and code that the four images share. The output is a sequence of tokens: a byte
/// `0xxxxxxx` is followed by x+1 literal bytes; a byte `1xxxxxxx` and a 16-bit little-endian
/// distance d copy x+4 bytes from d bytes back in the output (overlapping, so a run of zeros is
/// one short match repeated). Greedy, with a hash of 4-byte prefixes; the build runs it once.
#[cfg_attr(not(test), allow(dead_code))] // the build script's half, and the tests'
pub fn pack(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut literals: Vec<u8> = Vec::new();
    let mut last: std::collections::HashMap<[u8; 4], Vec<usize>> = std::collections::HashMap::new();
    let flush = |out: &mut Vec<u8>, lit: &mut Vec<u8>| {
        for chunk in lit.chunks(128) {
            out.push((chunk.len() - 1) as u8);
            out.extend_from_slice(chunk);
        }
        lit.clear();
    };
    let mut i = 0;
    while i < data.len() {
        let mut best = (0, 0);
        if let Some(key) = data.get(i..i + MIN_MATCH) {
            let key: [u8; 4] = key.try_into().unwrap();
            for &j in last.get(&key).map(|v| v.as_slice()).unwrap_or(&[]).iter().rev().take(32) {
                if i - j > u16::MAX as usize {
                    break;
                }
                let len =
                    (0..MAX_MATCH.min(data.len() - i)).take_while(|&k| data[j + k] == data[i + k]).count();
                if len > best.0 {
                    best = (len, i - j);
                }
            }
        }
        let step = if best.0 >= MIN_MATCH {
            flush(&mut out, &mut literals);
            out.push(0x80 | (best.0 - MIN_MATCH) as u8);
            out.extend_from_slice(&(best.1 as u16).to_le_bytes());
            best.0
        } else {
            literals.push(data[i]);
            1
        };
        for k in i..i + step {
            if let Some(key) = data.get(k..k + MIN_MATCH) {
                last.entry(key.try_into().unwrap()).or_default().push(k);
            }
        }
        i += step;
    }
    flush(&mut out, &mut literals);
    out
}

/// Undoes [`pack`]; None if `data` is not well formed.
pub fn unpack(data: &[u8]) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(data.len() * 4);
    let mut i = 0;
    while i < data.len() {
        let c = data[i] as usize;
        i += 1;
        if c & 0x80 == 0 {
            out.extend_from_slice(data.get(i..i + c + 1)?);
            i += c + 1;
        } else {
            let d = u16::from_le_bytes(data.get(i..i + 2)?.try_into().ok()?) as usize;
            i += 2;
            let from = out.len().checked_sub(d).filter(|_| d > 0)?;
            for k in 0..(c & 0x7f) + MIN_MATCH {
                out.push(out[from + k]);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        let mut img = b"\x7fELF".to_vec();
        img.extend([0; 4000]);
        img.extend([1, 0, 0, 2, 3]);
        img.extend((0..300).map(|i| (i * 7 % 251) as u8));
        img.extend([0; 20]);
        img.extend((0..300).map(|i| (i * 7 % 251) as u8));
        let noise: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        for data in [&img[..], &[], &[0], &[0; 9], &[5; 200], &noise] {
            let p = pack(data);
            assert_eq!(unpack(&p).as_deref(), Some(data), "{data:?}");
        }
        assert!(pack(&img).len() < 400, "{}", pack(&img).len());
        assert!(pack(&noise).len() < 1000 + 1000 / 128 + 2);
        assert_eq!(unpack(&[5, 1]), None, "a literal run longer than the data");
        assert_eq!(unpack(&[0x80, 1]), None, "a truncated distance");
        assert_eq!(unpack(&[0, 7, 0x80, 2, 0]), None, "a distance before the start");
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

    #[test]
    fn reads_the_interpreter_of_an_elf32_of_either_byte_order() {
        // An ELF32 header (0x34 bytes) with one program header (0x20), PT_INTERP at 0x54.
        for big in [false, true] {
            let put = |elf: &mut Vec<u8>, o: usize, v: u32, n: usize| {
                let b = if big { v.to_be_bytes() } else { v.to_le_bytes() };
                let b = if big { &b[4 - n..] } else { &b[..n] };
                elf[o..o + n].copy_from_slice(b);
            };
            let mut elf = vec![0u8; 0x54];
            elf[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 1, if big { 2 } else { 1 }]);
            put(&mut elf, 0x1c, 0x34, 4);
            put(&mut elf, 0x2a, 0x20, 2);
            put(&mut elf, 0x2c, 1, 2);
            put(&mut elf, 0x34, 3, 4);
            put(&mut elf, 0x38, 0x54, 4);
            put(&mut elf, 0x44, 25, 4);
            elf.extend(b"/lib/ld-linux-armhf.so.3\0");
            assert_eq!(interpreter(&elf).as_deref(), Some("/lib/ld-linux-armhf.so.3"), "big {big}");
            // Read in the other byte order, the offsets are nonsense: no interpreter.
            elf[5] = if big { 1 } else { 2 };
            assert_eq!(interpreter(&elf), None, "big {big}, read as the other order");
        }
    }
}
