//! lmbench's transfer and copy buffers come from `valloc` and are touched before use: they
//! start on a page boundary (bw_pipe's reader deliberately 128 bytes past one), and every page
//! is backed. Both matter to the figures. A plain Vec starts wherever the allocator puts it
//! (musl: 16 bytes into a page): a 512-byte block of bw_mem then straddles nine cache lines,
//! and the kernel's copies into and out of a socket ran 10% slower (AF_UNIX bandwidth 0.89
//! of bw_unix's, 0.98 once aligned). An untouched allocation would read the shared zero page.

use crate::sys;

/// `len` elements starting `skew` bytes past a page boundary, every one written as 1 (not 0:
/// a zeroed Vec may come from calloc, untouched).
pub struct PageBuf<T> {
    v: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + From<u8>> PageBuf<T> {
    pub fn new(len: usize, skew: usize) -> std::io::Result<PageBuf<T>> {
        let size = std::mem::size_of::<T>();
        let page = sys::mem::page_size();
        assert!(page % size == 0 && skew % size == 0, "element size must divide the page and the skew");
        let v = sys::mem::try_vec(len + (page + skew) / size, T::from(1))?;
        let start = (page_offset(v.as_ptr() as usize, page) + skew) / size;
        Ok(PageBuf { v, start, len })
    }

    pub fn get(&self) -> &[T] {
        &self.v[self.start..self.start + self.len]
    }

    pub fn get_mut(&mut self) -> &mut [T] {
        &mut self.v[self.start..self.start + self.len]
    }
}

/// Bytes from `addr` to the next multiple of `page` (0 when already on one).
fn page_offset(addr: usize, page: usize) -> usize {
    (page - addr % page) % page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_to_the_next_page() {
        assert_eq!(page_offset(8192, 4096), 0);
        assert_eq!(page_offset(4096 + 16, 4096), 4096 - 16);
    }

    #[test]
    fn buffers_start_on_a_page_or_skewed_from_one() {
        let page = sys::mem::page_size();
        let b = PageBuf::<i32>::new(1 << 14, 0).unwrap();
        assert_eq!(b.get().as_ptr() as usize % page, 0);
        assert_eq!(b.get().len(), 1 << 14);
        assert!(b.get().iter().all(|&w| w == 1));
        let mut s = PageBuf::<u8>::new(4096, 128).unwrap();
        assert_eq!(s.get_mut().as_ptr() as usize % page, 128);
        assert_eq!(s.get().len(), 4096);
    }
}
