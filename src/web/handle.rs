//! The page's one handle: everything a page keeps beside its views (the
//! mounted page itself, its frame costs for the benchmarks, the address of
//! the last file saved, the traces read), in one place rather than a
//! global in each module. Each part has a cell of its own, so that one is
//! borrowed without the others: a view's frame reads the traces while the
//! page ticks it.

use super::page::Page;
use super::traces::Store;
use std::cell::RefCell;

#[derive(Default)]
struct Handle {
    page: RefCell<Option<Page>>,
    frame_costs: RefCell<Vec<f64>>,
    saved: RefCell<Option<String>>,
    traces: RefCell<Store>,
}

thread_local! {
    static HANDLE: Handle = Handle::default();
}

/// The mounted page, if it is (`None` before mounting and once destroyed).
pub fn page<R>(f: impl FnOnce(&RefCell<Option<Page>>) -> R) -> R {
    HANDLE.with(|handle| f(&handle.page))
}

/// Wall milliseconds each animation frame spent on all views together.
pub fn frame_costs<R>(f: impl FnOnce(&mut Vec<f64>) -> R) -> R {
    HANDLE.with(|handle| f(&mut handle.frame_costs.borrow_mut()))
}

/// The address of the last file saved, released when the next is.
pub fn saved<R>(f: impl FnOnce(&mut Option<String>) -> R) -> R {
    HANDLE.with(|handle| f(&mut handle.saved.borrow_mut()))
}

/// The traces the page has read, or is reading.
pub fn traces<R>(f: impl FnOnce(&Store) -> R) -> R {
    HANDLE.with(|handle| f(&handle.traces.borrow()))
}

pub fn traces_mut<R>(f: impl FnOnce(&mut Store) -> R) -> R {
    HANDLE.with(|handle| f(&mut handle.traces.borrow_mut()))
}
