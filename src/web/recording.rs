//! A view taken where iframes and scripts are not allowed: a poster (one
//! PNG of the picture and the charts under the view's sentence, the
//! sentence also kept in the file as its description) and a short clip
//! (WebM, recorded with `MediaRecorder` from a canvas the view redraws each
//! frame while it records). Both are named after the view and its seed.

use super::dom;
use super::take_away::save_url;
use super::theme::Palette;
use js_sys::{Array, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Blob, BlobEvent, BlobPropertyBag, CanvasRenderingContext2d, HtmlCanvasElement, MediaRecorder,
    MediaRecorderOptions, RecordingState, Url,
};

/// How long a clip runs (wall seconds) and at how many frames a second.
pub const CLIP_SECONDS: f64 = 6.0;
const CLIP_FPS: f64 = 30.0;
/// A clip's file holds frames once it is past this many bytes: the WebM
/// header alone is about 110. On a busy machine Chromium's encoder gave
/// nothing for 6 s of a large canvas (2,124 × 2,741 px at load 26) and the
/// clip saved was its header alone, a file no player opens.
const HEADER_BYTES: f64 = 1_000.0;
/// How long (wall seconds) a clip may record past [`CLIP_SECONDS`]
/// waiting for its encoder's first frames, before it gives up.
const WAIT_SECONDS: f64 = 20.0;
/// How often (wall ms) the recorder hands over what it has encoded.
const SLICE_MS: i32 = 500;
/// The poster's and the clip's width (CSS px); their height follows.
const WIDTH: f64 = 1200.0;
const MARGIN: f64 = 24.0;
const LINE: f64 = 26.0;

/// What a poster or a clip shows: the view's name and sentence, and its
/// canvases (the topology first).
pub struct Scene<'a> {
    pub title: String,
    pub sentence: String,
    pub canvases: &'a [HtmlCanvasElement],
    pub palette: &'a Palette,
}

/// What a poster drew, for tests: its title and sentence's lines, and
/// each picture's box (x, y, w, h) and its canvas's size in pixels.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Drawn {
    pub title: String,
    pub lines: Vec<String>,
    pub pictures: Vec<([f64; 4], [u32; 2])>,
}

/// The box (x, y, w, h, in the poster's pixels) each of `scene`'s
/// canvases goes to, so that its charts can be drawn at that size: a
/// chart drawn for the page and stretched to its box was blurred (the
/// percentile chart some 2× wide), beside the sharp text.
pub fn boxes(scene: &Scene) -> Result<Vec<[f64; 4]>, JsValue> {
    let canvas: HtmlCanvasElement = dom::create("canvas", "")?;
    let context: CanvasRenderingContext2d = canvas.get_context("2d")?.ok_or("no 2D context")?.dyn_into()?;
    Ok(layout(scene, &context, Sizing::Poster).boxes)
}

/// Saves a poster of `scene` as `file`: a PNG whose text chunk holds the
/// sentence too, so a post that shows the picture can also quote it.
/// Returns what it drew.
pub fn save_poster(scene: &Scene, file: &str) -> Result<Drawn, JsValue> {
    let (canvas, context) = compose(scene, Sizing::Poster)?;
    let Layout { lines, boxes, .. } = layout(scene, &context, Sizing::Poster);
    let shown = scene.canvases.iter().filter(|c| c.width() > 0 && c.height() > 0);
    let pictures = boxes.into_iter().zip(shown.map(|c| [c.width(), c.height()])).collect();
    let drawn = Drawn { title: scene.title.clone(), lines, pictures };
    let url = canvas.to_data_url()?;
    let base64 = url.split_once(',').map_or("", |(_, data)| data);
    let binary = dom::window().atob(base64)?;
    let png: Vec<u8> = binary.chars().map(|c| c as u32 as u8).collect();
    let described = with_text_chunk(&png, "Description", &format!("{}: {}", scene.title, scene.sentence));
    save_bytes(file, &described, "image/png").map(|()| drawn)
}

/// A clip being recorded: the canvas it draws into (by its context), the recorder, when it
/// stops, and whether it has been saved (the recorder's callbacks, kept
/// here, must outlive its last event).
pub struct Clip {
    context: CanvasRenderingContext2d,
    recorder: MediaRecorder,
    ends_ms: f64,
    /// Bytes the recorder has handed over so far.
    bytes: Rc<Cell<f64>>,
    saved: Rc<Cell<bool>>,
    _on_data: Closure<dyn FnMut(BlobEvent)>,
    _on_stop: Closure<dyn FnMut()>,
}

/// Where a clip is.
pub enum Progress {
    /// Recording, with so many whole seconds left.
    Recording(u32),
    /// Its time is up: waiting for the encoder's frames, or for its file
    /// to be put together.
    Saving,
    Saved,
    /// Stopped without a frame after waiting [`WAIT_SECONDS`]: no file.
    Empty,
}

impl Clip {
    /// Starts recording `scene` into a WebM file called `file`.
    pub fn start(scene: &Scene, file: &str, now_ms: f64) -> Result<Clip, JsValue> {
        let (canvas, context) = compose(scene, Sizing::Clip)?;
        let stream = canvas.capture_stream_with_frame_request_rate(CLIP_FPS)?;
        let options = MediaRecorderOptions::new();
        options.set_mime_type("video/webm");
        let recorder = MediaRecorder::new_with_media_stream_and_media_recorder_options(&stream, &options)?;
        let parts = Rc::new(RefCell::new(Vec::<Blob>::new()));
        let kept = parts.clone();
        let bytes = Rc::new(Cell::new(0.0));
        let counted = bytes.clone();
        let on_data = Closure::<dyn FnMut(BlobEvent)>::new(move |event: BlobEvent| {
            if let Some(blob) = event.data() {
                counted.set(counted.get() + blob.size());
                kept.borrow_mut().push(blob);
            }
        });
        let file = file.to_string();
        let saved = Rc::new(Cell::new(false));
        let done = saved.clone();
        let held = bytes.clone();
        let on_stop = Closure::<dyn FnMut()>::new(move || {
            done.set(true);
            if held.get() <= HEADER_BYTES {
                return;
            }
            let blobs: Array = parts.borrow().iter().collect();
            let kind = BlobPropertyBag::new();
            kind.set_type("video/webm");
            let saved = Blob::new_with_blob_sequence_and_options(&blobs, &kind)
                .and_then(|blob| save_blob(&file, &blob));
            if let Err(error) = saved {
                web_sys::console::error_1(&error);
            }
        });
        recorder.set_ondataavailable(Some(on_data.as_ref().unchecked_ref()));
        recorder.set_onstop(Some(on_stop.as_ref().unchecked_ref()));
        recorder.start_with_time_slice(SLICE_MS)?;
        Ok(Clip {
            context,
            recorder,
            ends_ms: now_ms + CLIP_SECONDS * 1000.0,
            bytes,
            saved,
            _on_data: on_data,
            _on_stop: on_stop,
        })
    }

    /// Draws the scene's next frame into the clip, or stops it when its
    /// time is up; says where it is.
    /// Past its time, it records on until its encoder has handed over a
    /// frame, or [`WAIT_SECONDS`] more have passed.
    pub fn frame(&mut self, scene: &Scene, now_ms: f64) -> Progress {
        let framed = self.bytes.get() > HEADER_BYTES;
        if self.saved.get() {
            return if framed { Progress::Saved } else { Progress::Empty };
        }
        let recording = self.recorder.state() == RecordingState::Recording;
        if now_ms >= self.ends_ms && (framed || now_ms >= self.ends_ms + WAIT_SECONDS * 1000.0) {
            if recording {
                let _ = self.recorder.stop();
            }
            return Progress::Saving;
        }
        if recording {
            draw(scene, &self.context, Sizing::Clip);
        }
        match now_ms < self.ends_ms {
            true => Progress::Recording(((self.ends_ms - now_ms) / 1000.0).ceil() as u32),
            false => Progress::Saving,
        }
    }
}

/// How a scene is sized. A poster is [`WIDTH`] wide, each picture scaled
/// to its box (the poster draws its charts afresh at those sizes). A clip
/// draws each picture at its own pixels, one to one, and its words at the
/// pictures' density: stretched to 1,200 px, a clip smeared the pictures'
/// text, and the recorder can draw no chart afresh each frame.
#[derive(Clone, Copy, PartialEq)]
enum Sizing {
    Poster,
    Clip,
}

/// A canvas holding the scene, as large as it needs, and its context.
fn compose(scene: &Scene, sizing: Sizing) -> Result<(HtmlCanvasElement, CanvasRenderingContext2d), JsValue> {
    let canvas: HtmlCanvasElement = dom::create("canvas", "")?;
    let context: CanvasRenderingContext2d = canvas.get_context("2d")?.ok_or("no 2D context")?.dyn_into()?;
    let Layout { width, height, .. } = layout(scene, &context, sizing);
    // Resizing resets the context's state, which `draw` sets afresh.
    canvas.set_width(width.ceil() as u32);
    canvas.set_height(height.ceil() as u32);
    draw(scene, &context, sizing);
    Ok((canvas, context))
}

/// Where each part of a scene goes.
struct Layout {
    lines: Vec<String>,
    /// Each picture's box (x, y, w, h), the whole size, and how many
    /// pixels a CSS pixel of the words and margins takes.
    boxes: Vec<[f64; 4]>,
    width: f64,
    height: f64,
    scale: f64,
}

fn layout(scene: &Scene, context: &CanvasRenderingContext2d, sizing: Sizing) -> Layout {
    // The topology on the left, the charts stacked on its right.
    let (picture, charts) = scene.canvases.split_first().map_or((None, &[][..]), |(p, c)| (Some(p), c));
    let picture = picture.filter(|p| p.width() > 0);
    let shown: Vec<&HtmlCanvasElement> = charts.iter().filter(|c| c.width() > 0 && c.height() > 0).collect();
    let size = |c: &HtmlCanvasElement| (f64::from(c.width()), f64::from(c.height()));
    let scale = match sizing {
        Sizing::Poster => 1.0,
        Sizing::Clip => picture.map_or(1.0, |p| size(p).0 / f64::from(p.client_width().max(1))).max(1.0),
    };
    let (margin, line, gap) = (MARGIN * scale, LINE * scale, 16.0 * scale);
    let (width, left) = match sizing {
        Sizing::Poster => {
            let inner = WIDTH - 2.0 * MARGIN;
            (WIDTH, if shown.is_empty() { inner } else { inner * 0.6 })
        }
        Sizing::Clip => {
            let left = picture.map_or(0.0, |p| size(p).0);
            let widest = shown.iter().map(|c| size(c).0 + gap).fold(0.0, f64::max);
            (2.0 * margin + left + widest, left)
        }
    };
    context.set_font(&font(18.0 * scale, false));
    let lines = wrap(context, &scene.sentence, width - 2.0 * margin);
    let top = margin + line * 1.4 + line * lines.len() as f64 + 12.0 * scale;
    let mut boxes = Vec::new();
    let mut bottom = top;
    if let Some(picture) = picture {
        let (w, h) = size(picture);
        boxes.push([margin, top, left, left * h / w]);
        bottom = top + left * h / w;
    }
    let (x, column) = (margin + left + gap, width - margin - left - gap);
    let mut y = top;
    for chart in shown {
        let (w, h) = size(chart);
        let boxed = if sizing == Sizing::Clip { w } else { column };
        boxes.push([x, y, boxed, boxed * h / w]);
        y += boxed * h / w + 12.0 * scale;
    }
    Layout { lines, boxes, width, height: bottom.max(y) + margin + line, scale }
}

fn draw(scene: &Scene, context: &CanvasRenderingContext2d, sizing: Sizing) {
    let Layout { lines, boxes, width, height, scale } = layout(scene, context, sizing);
    let (margin, line) = (MARGIN * scale, LINE * scale);
    context.set_fill_style_str(&scene.palette.panel.css());
    context.fill_rect(0.0, 0.0, width, height);
    context.set_fill_style_str(&scene.palette.ink.css());
    context.set_font(&font(22.0 * scale, true));
    let _ = context.fill_text(&scene.title, margin, margin + 20.0 * scale);
    context.set_font(&font(18.0 * scale, false));
    for (i, text) in lines.iter().enumerate() {
        let _ = context.fill_text(text, margin, margin + line * 1.4 + line * (i as f64 + 0.8));
    }
    let shown = scene.canvases.iter().filter(|c| c.width() > 0 && c.height() > 0);
    for (canvas, [x, y, w, h]) in shown.zip(boxes) {
        let _ = context.draw_image_with_html_canvas_element_and_dw_and_dh(canvas, x, y, w, h);
    }
    context.set_fill_style_str(&scene.palette.muted.css());
    context.set_font(&font(14.0 * scale, false));
    let _ = context.fill_text("lbsim · a live load-balancing simulation", margin, height - margin * 0.6);
}

fn font(px: f64, bold: bool) -> String {
    format!("{}{px}px system-ui, sans-serif", if bold { "bold " } else { "" })
}

/// `text` in lines no wider than `width` in the context's font.
fn wrap(context: &CanvasRenderingContext2d, text: &str, width: f64) -> Vec<String> {
    let fits = |line: &str| context.measure_text(line).map_or(true, |m| m.width() <= width);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if fits(&longer) || line.is_empty() {
            line = longer;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `png` with a tEXt chunk (`keyword`, `text` in Latin-1) after its header.
fn with_text_chunk(png: &[u8], keyword: &str, text: &str) -> Vec<u8> {
    // The signature (8 bytes) and the IHDR chunk (4 + 4 + 13 + 4 bytes).
    const HEADER_END: usize = 33;
    if png.len() < HEADER_END {
        return png.to_vec();
    }
    let mut data: Vec<u8> = keyword.bytes().collect();
    data.push(0);
    data.extend(text.chars().map(|c| if (c as u32) < 256 { c as u8 } else { b'?' }));
    let mut chunk = Vec::with_capacity(data.len() + 12);
    chunk.extend((data.len() as u32).to_be_bytes());
    chunk.extend(b"tEXt");
    chunk.extend(&data);
    chunk.extend(crc32(&chunk[4..]).to_be_bytes());
    [&png[..HEADER_END], &chunk, &png[HEADER_END..]].concat()
}

/// The CRC-32 PNG chunks carry (ISO 3309, as the PNG specification gives it).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn save_bytes(file: &str, bytes: &[u8], kind: &str) -> Result<(), JsValue> {
    let array = Uint8Array::from(bytes);
    let parts: Array = std::iter::once(array).collect();
    let options = BlobPropertyBag::new();
    options.set_type(kind);
    save_blob(file, &Blob::new_with_u8_array_sequence_and_options(&parts, &options)?)
}

fn save_blob(file: &str, blob: &Blob) -> Result<(), JsValue> {
    let url = Url::create_object_url_with_blob(blob)?;
    save_url(file, &url)?;
    match super::handle::saved(|saved| saved.replace(url)) {
        Some(previous) => Url::revoke_object_url(&previous),
        None => Ok(()),
    }
}
