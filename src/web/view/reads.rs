//! What the page and its tests read of a view: its elements, its
//! simulations and what its last frame drew.

use super::super::json;
use super::*;

impl View {
    /// How many requests the last frame drew in flight.
    pub fn requests_drawn(&self) -> usize {
        self.snapshot.requests.len()
    }

    /// The requests the last frame drew travelling a hop (neither queued
    /// nor in service), as JSON.
    pub fn hops_json(&self) -> String {
        let travelling = |r: &&lbsim::engine::RequestView| {
            !matches!(r.hop, lbsim::engine::Hop::Queued | lbsim::engine::Hop::InService)
        };
        let drawn: Vec<_> = self.snapshot.requests.iter().filter(travelling).collect();
        json::text(&drawn).unwrap_or_default()
    }

    pub fn root(&self) -> &HtmlElement {
        &self.root
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn owns_hash(&self) -> bool {
        self.owns_hash
    }

    pub fn sim_time_ms(&self) -> f64 {
        self.sim.now().as_ms()
    }

    pub fn summary_json(&self) -> String {
        json::text(&self.sim.summary()).unwrap_or_default()
    }

    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    pub fn twin(&self) -> Option<&Simulation> {
        self.twin.as_ref()
    }

    /// Each chart's name and the names of the lines it drew last, as a
    /// JSON object.
    pub fn chart_lines_json(&self) -> String {
        let lines: std::collections::BTreeMap<_, _> = self.parts.canvases.lines().into_iter().collect();
        json::text(&lines).unwrap_or_default()
    }

    /// The sentences under the view, as last shown.
    pub fn readback(&self) -> String {
        self.parts.narration.readback()
    }

    /// The frame costs recorded since the last call.
    pub fn take_frame_costs(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.frame_costs)
    }

    /// The client followed, if any (a click or the hook's `follow`).
    pub fn followed(&self) -> Option<u32> {
        self.followed
    }

    /// The clients of the requests the last frame drew followed.
    pub fn followed_requests(&self) -> Vec<u32> {
        self.snapshot.requests.iter().filter(|r| Some(r.client) == self.followed).map(|r| r.client).collect()
    }

    /// Where the last frame drew the followed client's requests: each
    /// one's hop, centre (CSS px) and, in service, the share of its
    /// service done, as JSON (for tests).
    pub fn followed_marks_json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Mark {
            hop: lbsim::engine::Hop,
            at: [f64; 2],
            served: Option<f64>,
        }
        let marks = self.followed.map_or_else(Vec::new, |client| {
            let places = self.sim.queue_places(client);
            self.parts.canvases.followed_marks(&self.snapshot, (client, &places))
        });
        let marks: Vec<Mark> = marks.into_iter().map(|(hop, at, served)| Mark { hop, at, served }).collect();
        json::text(&marks).unwrap_or_default()
    }

    /// Each server's speed, as the last frame drew it.
    pub fn server_speeds(&self) -> Vec<f64> {
        self.snapshot.servers.iter().map(|s| s.speed).collect()
    }

    /// Each server as the last frame drew it: its state, how many
    /// choosers hold it ejected, its datacenter, where its row is (x, y,
    /// w, h in CSS pixels), and what the column of the shown client's
    /// copies writes beside it and where its mark stands, as JSON (for
    /// tests).
    pub fn servers_json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Drawn {
            state: &'static str,
            ejected: u32,
            datacenter: u8,
            cell: [f64; 4],
            /// Where its name is written, left and right edges (CSS px).
            name: Option<[f64; 2]>,
            busy: u32,
            slots: u32,
            queued: u32,
            /// Its queue over the last two seconds, which its wait reads.
            queued_lately: f64,
            /// How far left of its box its queue is drawn (CSS px).
            queue_px: f64,
            /// Where its box of slots is drawn (x, y, w, h), where one is.
            slots_box: Option<[f64; 4]>,
            heard: Option<String>,
            /// Where the mark of client 0's copy of its load stands.
            copy_mark: Option<[f64; 4]>,
            answered: u64,
            sent_lately: u64,
            /// What its row writes for its queue's wait ("144 ms").
            wait: Option<String>,
        }
        let learned = self.sim.learned_loads(self.followed.unwrap_or(0));
        let heard = |i: usize| {
            let copy = learned.iter().find(|copy| copy.server as usize == i);
            lbsim::ui::marks::heard_label(copy).map(|(text, _)| text)
        };
        let cells = self.parts.canvases.server_cells(&self.snapshot);
        let queues = self.parts.canvases.queue_lengths(&self.snapshot, None);
        let marks = self.parts.canvases.copy_marks(&self.snapshot, &learned);
        let names = self.parts.canvases.name_spans(&self.snapshot);
        let mut boxes = self.parts.canvases.slot_boxes(&self.snapshot).into_iter();
        let mut waits = self.parts.canvases.wait_labels(&self.snapshot).into_iter();
        let drawn: Vec<Drawn> = self
            .snapshot
            .servers
            .iter()
            .zip(cells.into_iter().zip(names).zip(queues).zip(marks))
            .enumerate()
            .map(|(i, (s, (((cell, name), queue_px), copy_mark)))| Drawn {
                state: s.state.name(),
                ejected: s.ejected,
                datacenter: s.datacenter,
                cell,
                name,
                busy: s.busy,
                slots: s.slots,
                queued: s.queued,
                queued_lately: s.queued_lately,
                queue_px,
                slots_box: boxes.next().flatten(),
                heard: heard(i),
                copy_mark,
                answered: s.answered,
                sent_lately: s.sent_lately,
                wait: waits.next().flatten(),
            })
            .collect();
        json::text(&drawn).unwrap_or_default()
    }

    /// Where the picture last headed the column beside its rows (x, y, w,
    /// h in CSS pixels), as JSON; null where it did not (for tests).
    pub fn heading_json(&self) -> Option<String> {
        json::text(&self.parts.canvases.heading()?).ok()
    }

    /// Where each cell of the clients' column was last drawn (x, y, w, h
    /// in CSS pixels), as JSON (for tests).
    pub fn clients_json(&self) -> String {
        json::text(&self.parts.canvases.client_cells(&self.snapshot)).unwrap_or_default()
    }

    /// The twin's picture's queues as last drawn: each server's length
    /// and how far left of its box it is drawn (CSS px), as JSON; null
    /// without a twin (for tests).
    pub fn twin_queues_json(&self) -> Option<String> {
        let queues = self.parts.twin_pane.as_ref()?.queues(&self.parts.canvases);
        json::text(&queues).ok()
    }

    /// The servers the picture marks as having bounced a request: each
    /// one's count, how strongly its cross is drawn and where, and the
    /// plate under its count and cross, as JSON;
    /// the `twin`'s picture's, or null where there is none (for tests).
    pub fn bounce_marks_json(&self, twin: bool) -> Option<String> {
        #[derive(serde::Serialize)]
        struct Drawn {
            server: usize,
            bounced: u64,
            strength: f64,
            rect: [f64; 4],
            /// The plate under its count and cross.
            plate: [f64; 4],
        }
        let (marks, rects) = match twin {
            false => {
                let marks = self.parts.bounces.shown();
                let rects = self.parts.canvases.bounce_marks(&self.snapshot, &marks, None);
                (marks, rects)
            }
            true => self.parts.twin_pane.as_ref()?.bounce_marks(&self.parts.canvases),
        };
        let drawn: Vec<Drawn> = marks
            .iter()
            .zip(rects)
            .map(|(m, (rect, plate))| Drawn {
                server: m.server,
                bounced: m.bounced,
                strength: m.strength,
                rect,
                plate,
            })
            .collect();
        json::text(&drawn).ok()
    }

    /// The decision shown on the topology, its sentence and where its
    /// winner was ringed, as JSON (for tests).
    pub fn decision_json(&self) -> Option<String> {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Shown<'a> {
            decision: &'a lbsim::engine::Decision,
            caption: String,
            winner_ring: Option<[f64; 4]>,
            /// Each badge's server and its wordings, longest first (the
            /// picture writes the longest that fits).
            badges: Vec<(u32, Vec<String>)>,
            /// Whether they are past: the rows (or the copies) no longer
            /// write what the chooser saw, so each says "saw".
            badges_past: bool,
            /// How strongly its lines, rings and badges were drawn.
            ring_ink: f64,
        }
        let caption = &self.parts.decision;
        let decision = caption.shown()?;
        let copies = match self.snapshot.copies_kept {
            true => self.sim.learned_loads(self.followed.unwrap_or(0)),
            false => Vec::new(),
        };
        let shown = Shown {
            decision,
            caption: caption.text(),
            winner_ring: caption.winner_ring,
            badges: lbsim::ui::marks::badges(decision, (&self.snapshot.servers, &copies)),
            badges_past: lbsim::ui::marks::badges_past(decision, (&self.snapshot.servers, &copies)),
            ring_ink: caption.ink_drawn,
        };
        json::text(&shown).ok()
    }

    /// What the last poster drew, as JSON (for tests).
    pub fn poster_json(&self) -> Option<String> {
        json::text(self.parts.take_away.poster_drawn.as_ref()?).ok()
    }
}
