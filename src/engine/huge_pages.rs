//! Big tables read at random, backed by huge pages where the system gives
//! them only on request (Linux with transparent huge pages set to `madvise`,
//! as on Debian).
//!
//! A table of tens of megabytes read at random places misses the processor's
//! cache of address translations on almost every read when it lies on 4 KB
//! pages; on 2 MB pages a few dozen translations cover it. This changes
//! nothing but speed, and nothing at all elsewhere than on Linux.

/// Below this size a table gains nothing from huge pages.
const WORTH_IT: usize = 4 << 20;

/// A vector of `len` copies of `value` whose memory is advised to be backed
/// by huge pages before it is first written, so that it starts out on them.
pub fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut table = Vec::with_capacity(len);
    let bytes = len * std::mem::size_of::<T>();
    if bytes >= WORTH_IT {
        advise(table.as_ptr() as usize, bytes);
    }
    table.resize(len, value);
    table
}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
fn advise(start: usize, bytes: usize) {
    if let Some((first, end)) = whole_huge_pages(start, bytes) {
        // SAFETY: the range lies inside an allocation the caller owns (see
        // `whole_huge_pages`), and MADV_HUGEPAGE is advice about how to back
        // memory: it changes neither the memory's contents nor whether it
        // may be accessed. A refusal (no transparent huge pages) leaves
        // everything as it was.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// The huge pages lying wholly inside `bytes` bytes from address `start`,
/// as the range of addresses `first..end`, if there is one.
#[cfg(target_os = "linux")]
fn whole_huge_pages(start: usize, bytes: usize) -> Option<(usize, usize)> {
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    (end > first).then_some((first, end))
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _bytes: usize) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn advice_covers_only_whole_huge_pages_inside_the_table() {
        const MB: usize = 1 << 20;
        // From 1 MB, 6 MB long: the pages at 2 MB and 4 MB; 6–7 MB is a part.
        assert_eq!(whole_huge_pages(MB, 6 * MB), Some((2 * MB, 6 * MB)));
        // Aligned at both ends: every page.
        assert_eq!(whole_huge_pages(4 * MB, 4 * MB), Some((4 * MB, 8 * MB)));
        // 2 MB from 1 MB crosses a boundary but holds no whole page.
        assert_eq!(whole_huge_pages(MB, 2 * MB), None);
        assert_eq!(whole_huge_pages(2 * MB + 1, 2 * MB), None);
    }
}
