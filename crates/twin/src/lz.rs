//! The packer of what the binary embeds, shared by the build scripts (twin's, which packs the
//! twins' images, and driver's, which packs the host tests' data files) and the code that
//! unpacks them. No dependencies, so a build script can include this file as it is.

/// The longest match [`pack`] emits, and the shortest worth a 3-byte token.
const MAX_MATCH: usize = 131;
const MIN_MATCH: usize = 4;

/// A small LZ77 coder for what the binary embeds: the twins' ELF images (a few pages each,
/// mostly padding, symbol tables and code that the four share) and the host tests' data files. The output is a sequence of tokens: a byte
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
}
