//! Small hooks for tests and benchmarks: `window.lbsim` reads the running
//! simulations and steps them deterministically, and [`summary_json`] runs a
//! scenario headless to compare with the native command line.

use super::dom;
use super::event_log::Follower;
use super::frame::FrameLoop;
use super::hash;
use super::options::Kind;
use super::page::{self, Mounted, Views};
use super::traces;
use js_sys::{Array, Float64Array, Object, Reflect, Uint32Array};
use lbsim::explain::Claim;
use lbsim::Simulation;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Installs `window.lbsim`:
/// - `simTime()`, `summary()`, `advance(ms)`, `frameCosts()`: those of the
///   page's first view (see [`view_hooks`]);
/// - `views()`: the same hooks for every view on the page, in page order
///   (then those the script API mounted), plus the rest of [`view_hooks`];
///   it first mounts the views still waiting to near the viewport, so that
///   a test finds each chapter's view at its index;
/// - `pageFrameCosts()`: wall milliseconds each animation frame since the
///   last call spent on all the page's views together;
/// - `wasmMemoryBytes()`: the size of the WebAssembly memory;
/// - `panic()`: panics, to show that a panic is reported on the page.
pub fn install(views: &Views, frames: &Rc<FrameLoop>) -> Result<(), JsValue> {
    let hooks = match views.borrow().first() {
        Some(first) => view_hooks(first, frames)?,
        None => Object::new(),
    };
    let set = |name: &str, value: JsValue| Reflect::set(&hooks, &JsValue::from_str(name), &value).map(|_| ());
    let (all, frames) = (views.clone(), frames.clone());
    let every = move || -> Result<Array, JsValue> {
        page::mount_all_waiting();
        all.borrow().iter().map(|mounted| view_hooks(mounted, &frames).map(JsValue::from)).collect()
    };
    set("views", Closure::<dyn Fn() -> Result<Array, JsValue>>::new(every).into_js_value())?;
    let memory = || {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    };
    set("wasmMemoryBytes", Closure::<dyn Fn() -> f64>::new(memory).into_js_value())?;
    let page_costs = || Float64Array::from(page::take_page_frame_costs().as_slice());
    set("pageFrameCosts", Closure::<dyn Fn() -> Float64Array>::new(page_costs).into_js_value())?;
    set(
        "panic",
        Closure::<dyn Fn()>::new(|| panic!("panic requested by window.lbsim.panic()")).into_js_value(),
    )?;
    Reflect::set(&dom::window(), &JsValue::from_str("lbsim"), &hooks)?;
    Ok(())
}

/// One view's hooks:
/// - `simTime()`: simulated milliseconds so far;
/// - `summary()`: the running simulation's summary, as JSON;
/// - `advance(ms)`: advances the simulation by `ms` simulated milliseconds;
/// - `frameCosts()`: wall milliseconds each frame since the last call spent
///   simulating and drawing;
/// - `versusSummary()`: the versus twin's summary as JSON, or null;
/// - `claim(text)`: an explainer claim checked against both summaries, as
///   JSON (`claim`, `left`, `right`, `holds`); a bad claim throws;
/// - `readback()`: the sentences under the view, as last shown;
/// - `requestsDrawn()`: how many requests in flight the last frame drew;
/// - `hops()`: the requests the last frame drew travelling a hop (each's
///   client, hop, ends and progress), as JSON;
/// - `follow(client)`: follows a client (or none, with null), as a click does;
/// - `followed()`: the client followed, or undefined;
/// - `followedRequests()`: the client of each request the last frame drew
///   as followed;
/// - `followedMarks()`: where the last frame drew each of the followed
///   client's requests: its hop, centre and, in service, the share of its
///   service done, as JSON;
/// - `serverSpeeds()`: each server's speed as the last frame drew it;
/// - `servers()`: each server's state, the choosers holding it ejected and
///   where its row is drawn, as the last frame drew them, as JSON;
/// - `clients()`: where each cell of the clients' column is drawn, as the
///   last frame drew it, as JSON (`[x, y, w, h]`, CSS px);
/// - `bounceMarks()`, `twinBounceMarks()`: each server the picture (the
///   versus twin's, null without one) marks as having bounced a request,
///   its count, how strongly its cross is drawn and where, as JSON;
/// - `twinQueues()`: each of the versus twin's servers' queue length and
///   how far left of its box its picture draws it, as JSON (`[queued,
///   px]`), or null without one;
/// - `capacity()`: the lab's capacity search outcomes once done, as JSON;
/// - `onScreen()`: whether the view is in sight (and so gets frames);
/// - `openingOver()`: whether the view's opening (`first=one`), if it has
///   one, has been shown;
/// - `keyServers(count)`: under a placement scheme, the server of each of
///   keys `0..count` before any load, as the first chooser places them;
/// - `decision()`: the decision the topology shows, with its sentence and
///   where its winner was ringed, as JSON, or undefined;
/// - `chartLines()`: each chart's name and the names of the lines it drew
///   last ("p99", or in compare mode "A p99" and "B p99"), as JSON;
/// - `poster()`: what the last poster drew (its title, its sentence's
///   lines, each picture's box and canvas size), as JSON, or undefined;
/// - `trace()`: the lab's trace box: the trace the link names, whether it
///   is replayed or awaited, its rows, summary and report, the box's
///   status line and whether the rate strip shows, as JSON.
fn view_hooks(mounted: &Mounted, frames: &Rc<FrameLoop>) -> Result<Object, JsValue> {
    let hooks = Object::new();
    let set = |name: &str, value: JsValue| Reflect::set(&hooks, &JsValue::from_str(name), &value).map(|_| ());
    let view = &mounted.view;
    let reader = view.clone();
    set("simTime", Closure::<dyn Fn() -> f64>::new(move || reader.borrow().sim_time_ms()).into_js_value())?;
    let reader = view.clone();
    set(
        "summary",
        Closure::<dyn Fn() -> String>::new(move || reader.borrow().summary_json()).into_js_value(),
    )?;
    let (stepper, requester) = (view.clone(), frames.clone());
    let advance = move |ms: f64| {
        stepper.borrow_mut().advance(ms);
        requester.request();
    };
    set("advance", Closure::<dyn Fn(f64)>::new(advance).into_js_value())?;
    let reader = view.clone();
    let costs = move || Float64Array::from(reader.borrow_mut().take_frame_costs().as_slice());
    set("frameCosts", Closure::<dyn Fn() -> Float64Array>::new(costs).into_js_value())?;
    let reader = view.clone();
    let versus =
        move || reader.borrow().twin().map(|twin| super::json::text(&twin.summary()).unwrap_or_default());
    set("versusSummary", Closure::<dyn Fn() -> Option<String>>::new(versus).into_js_value())?;
    let reader = view.clone();
    let claim = move |text: String| -> Result<String, JsValue> {
        let view = reader.borrow();
        let claim = Claim::parse(&text).map_err(|e| js_sys::Error::new(&e.to_string()))?;
        let versus = view.twin().map(Simulation::summary);
        let verdict = claim
            .check(&view.sim().summary(), versus.as_ref())
            .map_err(|e| js_sys::Error::new(&e.to_string()))?;
        Ok(super::json::text(&verdict).unwrap_or_default())
    };
    set("claim", Closure::<dyn Fn(String) -> Result<String, JsValue>>::new(claim).into_js_value())?;
    let reader = view.clone();
    set("readback", Closure::<dyn Fn() -> String>::new(move || reader.borrow().readback()).into_js_value())?;
    let reader = view.clone();
    set(
        "requestsDrawn",
        Closure::<dyn Fn() -> usize>::new(move || reader.borrow().requests_drawn()).into_js_value(),
    )?;
    let reader = view.clone();
    set("hops", Closure::<dyn Fn() -> String>::new(move || reader.borrow().hops_json()).into_js_value())?;
    let (follower, requester) = (view.clone(), frames.clone());
    let follow = move |client: Option<u32>| {
        follower.borrow_mut().follow(client, Follower::Reader);
        requester.request();
    };
    set("follow", Closure::<dyn Fn(Option<u32>)>::new(follow).into_js_value())?;
    let reader = view.clone();
    let client = move || reader.borrow().followed();
    set("followed", Closure::<dyn Fn() -> Option<u32>>::new(client).into_js_value())?;
    let reader = view.clone();
    let followed = move || Uint32Array::from(reader.borrow().followed_requests().as_slice());
    set("followedRequests", Closure::<dyn Fn() -> Uint32Array>::new(followed).into_js_value())?;
    let reader = view.clone();
    let marks = move || reader.borrow().followed_marks_json();
    set("followedMarks", Closure::<dyn Fn() -> String>::new(marks).into_js_value())?;
    let reader = view.clone();
    let speeds = move || Float64Array::from(reader.borrow().server_speeds().as_slice());
    set("serverSpeeds", Closure::<dyn Fn() -> Float64Array>::new(speeds).into_js_value())?;
    let reader = view.clone();
    set(
        "servers",
        Closure::<dyn Fn() -> String>::new(move || reader.borrow().servers_json()).into_js_value(),
    )?;
    let reader = view.clone();
    set(
        "clients",
        Closure::<dyn Fn() -> String>::new(move || reader.borrow().clients_json()).into_js_value(),
    )?;
    let reader = view.clone();
    let bounce_marks = move || reader.borrow().bounce_marks_json(false);
    set("bounceMarks", Closure::<dyn Fn() -> Option<String>>::new(bounce_marks).into_js_value())?;
    let reader = view.clone();
    let twin_marks = move || reader.borrow().bounce_marks_json(true);
    set("twinBounceMarks", Closure::<dyn Fn() -> Option<String>>::new(twin_marks).into_js_value())?;
    let reader = view.clone();
    let twin_queues = move || reader.borrow().twin_queues_json();
    set("twinQueues", Closure::<dyn Fn() -> Option<String>>::new(twin_queues).into_js_value())?;
    let reader = view.clone();
    set(
        "capacity",
        Closure::<dyn Fn() -> String>::new(move || reader.borrow().capacity_json()).into_js_value(),
    )?;
    let reader = view.clone();
    set("onScreen", Closure::<dyn Fn() -> bool>::new(move || reader.borrow().on_screen()).into_js_value())?;
    let reader = view.clone();
    let opening_over = move || reader.borrow().opening_over();
    set("openingOver", Closure::<dyn Fn() -> bool>::new(opening_over).into_js_value())?;
    let reader = view.clone();
    let key_servers = move |count: u32| {
        let view = reader.borrow();
        let servers: Vec<u32> =
            (0..u64::from(count)).map_while(|k| view.sim().server_for_key(0, k)).collect();
        Uint32Array::from(servers.as_slice())
    };
    set("keyServers", Closure::<dyn Fn(u32) -> Uint32Array>::new(key_servers).into_js_value())?;
    let reader = view.clone();
    let decision = move || reader.borrow().decision_json();
    set("decision", Closure::<dyn Fn() -> Option<String>>::new(decision).into_js_value())?;
    let reader = view.clone();
    let heading = move || reader.borrow().heading_json();
    set("heading", Closure::<dyn Fn() -> Option<String>>::new(heading).into_js_value())?;
    let reader = view.clone();
    let lines = move || reader.borrow().chart_lines_json();
    set("chartLines", Closure::<dyn Fn() -> String>::new(lines).into_js_value())?;
    let reader = view.clone();
    set("trace", Closure::<dyn Fn() -> String>::new(move || reader.borrow().trace_json()).into_js_value())?;
    let reader = view.clone();
    let poster = move || reader.borrow().poster_json();
    set("poster", Closure::<dyn Fn() -> Option<String>>::new(poster).into_js_value())?;
    Ok(hooks)
}

/// Runs the scenario a URL hash describes to its `duration_s` and returns
/// its summary as JSON, exactly as `lbsim run default --set ... --json`
/// computes it. Any entry that cannot be used is an error. A hash naming a
/// trace replays it, as `--trace FILE` does, if the page has read it.
#[wasm_bindgen]
pub fn summary_json(hash: &str) -> Result<String, JsValue> {
    let parsed = hash::parse(hash, Kind::Embed);
    if let Some(notice) = parsed.notices.first() {
        return Err(JsValue::from_str(&notice.message));
    }
    let (scenario, options) = (&parsed.params.scenario, &parsed.options);
    let made = match &options.trace {
        Some(need) => {
            let classes = options.trace_classes_for(scenario.class_shares.len());
            let trace = traces::find(&need.hash, &options.trace_columns, &classes).ok_or_else(|| {
                JsValue::from_str(&format!("the page has not read the trace {}", need.text()))
            })?;
            Simulation::replaying(scenario, trace.replay(options.trace_speed, options.trace_loop))
        }
        None => Simulation::new(scenario),
    };
    let mut sim = made.map_err(|e| JsValue::from_str(&e.to_string()))?;
    sim.run();
    super::json::text(&sim.summary())
}
