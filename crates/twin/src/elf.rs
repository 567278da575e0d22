//! The program interpreter an ELF image asks for, read by the build script (which checks the
//! twins it links) and the applets (which match loaders). No dependencies, so the build script
//! can include this file as it is.

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

#[cfg(test)]
mod tests {
    use super::*;

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
