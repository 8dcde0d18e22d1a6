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
fn advise(start: usize, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside an allocation the caller owns, and
        // MADV_HUGEPAGE is advice about how to back memory: it changes
        // neither the memory's contents nor whether it may be accessed. A
        // refusal (no transparent huge pages) leaves everything as it was.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_tables_hold_their_values() {
        for len in [0, 3, WORTH_IT / 8 * 3 + 5] {
            let table = filled(len, 7u64);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|&v| v == 7));
        }
    }
}
