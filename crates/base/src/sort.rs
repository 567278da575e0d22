//! The one sort of the program: a stable insertion sort for the short lists the driver, the
//! reports and `compare` order (a test's passes, a run's tests, a CPU's flags; at most a few
//! hundred items). std's `sort_by` instantiates its whole driftsort (several KB) for every
//! element type and comparator; this is a few dozen bytes per use, which keeps the static binary
//! small. Equal items keep their order, as Perl's mergesort does in `Run`.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably: an item moves left only past items that compare greater.
/// Quadratic, which does not matter at the lengths it is used for.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && cmp(&v[j - 1], &v[j]) == Ordering::Greater {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `v` by the key `key` gives, stably.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_equal_items_in_order() {
        let mut v = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e'), (0, 'f')];
        sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, [(0, 'f'), (1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
    }

    #[test]
    fn agrees_with_std_stable_sort() {
        let mut rng = oorandom::Rand32::new(7);
        for len in 0..60 {
            let v: Vec<(u32, usize)> = (0..len).map(|i| (rng.rand_range(0..8), i)).collect();
            let (mut ours, mut std) = (v.clone(), v);
            sort_by_key(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std);
        }
    }

    #[test]
    fn empty_and_single() {
        let mut e: [u8; 0] = [];
        sort_by(&mut e, u8::cmp);
        let mut one = [5];
        sort_by(&mut one, u8::cmp);
        assert_eq!(one, [5]);
    }
}
