//! The page's traces: files someone chose or dropped on the lab, read by
//! the trace worker (`www/trace-worker.js`, a module of its own), and the
//! rows of the latest reading, kept so that a view built again (its
//! options changed) replays the same trace without asking. Only the
//! latest is kept: a reading holds every row, and a file read before can
//! be read again without a new choice.
//! One reading is under way at a time; its reply is collected by the
//! view's next frame.

use super::handle;
use lbsim::engine::Replay;
use lbsim::trace::offered::Gist;
use lbsim::trace::replay::{decode, in_memory, Recorded};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, MessageEvent, Worker};

/// The largest file the lab reads: the worker holds it whole, and the page
/// its rows (26 bytes each). Longer traces are for the command line.
pub const LAB_MAX_BYTES: f64 = 100e6;

/// A trace read, and how it was read.
pub struct LabTrace {
    pub name: String,
    pub bytes: u64,
    pub hash: String,
    pub columns: String,
    pub classes: String,
    pub rows: Rc<[Recorded]>,
    /// What `lbsim trace` prints of it, and its summary as JSON.
    pub report: String,
    pub summary_json: String,
    /// Arrivals a second in bins of so many seconds.
    pub rate_bin_s: f64,
    pub rates: Vec<f64>,
    /// What its load depends on, from its summary.
    pub gist: Gist,
}

impl LabTrace {
    /// Its rows as arrivals, played at `speed`, looped or not.
    pub fn replay(&self, speed: f64, looped: bool) -> Replay {
        in_memory(Rc::clone(&self.rows), speed, looped)
    }
}

/// What a reading under way was asked for.
struct Asked {
    file: File,
    columns: String,
    classes: String,
}

/// The worker, and its message handler, kept alive with it.
type Reader = (Worker, Closure<dyn FnMut(MessageEvent)>);

#[derive(Default)]
pub struct Store {
    worker: Option<Reader>,
    /// Files read so far, by their hash, so that a reading with other
    /// columns or classes needs no new choice.
    files: Vec<(String, File)>,
    read: Option<Rc<LabTrace>>,
    /// The file of the latest reading, if it failed: other columns or
    /// classes may read it.
    failed: Option<File>,
    asked: Option<Asked>,
    reply: Option<Result<Rc<LabTrace>, String>>,
}

/// The reading of the file with `hash`, its columns and classes as given,
/// if the page has it.
pub fn find(hash: &str, columns: &str, classes: &str) -> Option<Rc<LabTrace>> {
    handle::traces(|store| {
        store.read.clone().filter(|t| t.hash == hash && t.columns == columns && t.classes == classes)
    })
}

/// Whether the page holds the file with `hash` (read with other options).
pub fn has_file(hash: &str) -> Option<File> {
    handle::traces(|store| store.files.iter().find(|(h, _)| h == hash).map(|(_, f)| f.clone()))
}

/// The file whose reading failed last, if the latest reading did.
pub fn failed_file() -> Option<File> {
    handle::traces(|store| store.failed.clone())
}

/// Starts reading `file`; its reply comes to [`take_reply`].
pub fn read(file: File, columns: &str, classes: &str) -> Result<(), String> {
    if file.size() > LAB_MAX_BYTES {
        return Err(format!(
            "{} is {} bytes; the lab reads traces of at most {} bytes (about 4 million rows): replay longer ones with the command line (lbsim run … --trace FILE)",
            file.name(),
            file.size(),
            LAB_MAX_BYTES
        ));
    }
    handle::traces_mut(|store| {
        if store.asked.is_some() {
            return Err("a trace is being read already: wait for it".to_string());
        }
        let worker = match &store.worker {
            Some((worker, _)) => worker.clone(),
            None => {
                let worker = Worker::new("trace-worker.js").map_err(|e| format!("no trace worker: {e:?}"))?;
                let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
                    handle::traces_mut(|store| store.replied(&event.data()));
                });
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                store.worker = Some((worker.clone(), on_message));
                worker
            }
        };
        let message = js_sys::Object::new();
        for (key, value) in
            [("file", JsValue::from(file.clone())), ("columns", columns.into()), ("classes", classes.into())]
        {
            let _ = js_sys::Reflect::set(&message, &key.into(), &value);
        }
        worker.post_message(&message).map_err(|e| format!("cannot reach the trace worker: {e:?}"))?;
        store.asked = Some(Asked { file, columns: columns.to_string(), classes: classes.to_string() });
        Ok(())
    })
}

/// Whether a reading is under way.
pub fn reading() -> bool {
    handle::traces(|store| store.asked.is_some())
}

/// The last reading's outcome, once it is in.
pub fn take_reply() -> Option<Result<Rc<LabTrace>, String>> {
    handle::traces_mut(|store| store.reply.take())
}

/// What the load of a trace depends on, from its summary's JSON (the
/// worker's, so never refused; an empty gist gives no load).
fn gist(summary: &str) -> Gist {
    let parsed = js_sys::JSON::parse(summary).ok();
    parsed.and_then(|value| serde_wasm_bindgen::from_value(value).ok()).unwrap_or_default()
}

impl Store {
    fn replied(&mut self, data: &JsValue) {
        let Some(asked) = self.asked.take() else { return };
        let field = |key: &str| js_sys::Reflect::get(data, &key.into()).unwrap_or(JsValue::UNDEFINED);
        let text = |key: &str| field(key).as_string().unwrap_or_default();
        if field("ok").as_bool() != Some(true) {
            self.failed = Some(asked.file);
            self.reply = Some(Err(text("message")));
            return;
        }
        self.failed = None;
        let rows = js_sys::Uint8Array::new(&field("rows")).to_vec();
        let Some(rows) = decode(&rows) else {
            self.reply = Some(Err("the trace worker sent rows the lab cannot read".to_string()));
            return;
        };
        let trace = Rc::new(LabTrace {
            name: text("name"),
            bytes: field("bytes").as_f64().unwrap_or_default() as u64,
            hash: text("hash"),
            columns: asked.columns,
            classes: asked.classes,
            rows: rows.into(),
            report: text("report"),
            summary_json: text("summary"),
            rate_bin_s: field("binS").as_f64().unwrap_or(1.0),
            rates: js_sys::Float64Array::new(&field("rates")).to_vec(),
            gist: gist(&text("summary")),
        });
        if !self.files.iter().any(|(hash, _)| *hash == trace.hash) {
            self.files.push((trace.hash.clone(), asked.file));
        }
        self.read = Some(Rc::clone(&trace));
        self.reply = Some(Ok(trace));
    }
}
