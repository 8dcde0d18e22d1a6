//! Where things go on the topology canvas: clients in a column on the left,
//! balancers (when there are any) in the middle, servers on the right, as
//! rows (detailed view) or a grid of cells (compact view); and which
//! client or server a click at a point reaches. The web crate's topology
//! draws on it.

/// A rectangle in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    pub fn contains(&self, x: f64, y: f64) -> bool {
        (self.x..=self.x + self.w).contains(&x) && (self.y..=self.y + self.h).contains(&y)
    }
}

/// `n` equal cells filling a rectangle, column by column (or row by row).
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    area: Rect,
    rows: usize,
    cols: usize,
    by_rows: bool,
    pub cell_w: f64,
    pub cell_h: f64,
}

impl Grid {
    /// One column while cells stay at least `min_cell` high, otherwise as
    /// many columns as keep cells roughly square.
    pub fn new(n: usize, area: Rect, min_cell: f64) -> Grid {
        let n = n.max(1);
        let cols = if area.h / n as f64 >= min_cell {
            1
        } else {
            ((n as f64 * area.w / area.h).sqrt().ceil() as usize).clamp(1, n)
        };
        let rows = n.div_ceil(cols);
        Grid { area, rows, cols, by_rows: false, cell_w: area.w / cols as f64, cell_h: area.h / rows as f64 }
    }

    /// The same grid, filled row by row (a part-filled last row reads more
    /// naturally than a part-filled last column in a wide grid).
    pub fn by_rows(self) -> Grid {
        Grid { by_rows: true, ..self }
    }

    pub fn cell(&self, i: usize) -> Rect {
        let (col, row) =
            if self.by_rows { (i % self.cols, i / self.cols) } else { (i / self.rows, i % self.rows) };
        Rect {
            x: self.area.x + col as f64 * self.cell_w,
            y: self.area.y + row as f64 * self.cell_h,
            w: self.cell_w,
            h: self.cell_h,
        }
    }
}

/// The most client cells drawn; beyond it, clients share cells.
const MAX_CLIENT_CELLS: usize = 1_000;
/// Past this many servers the canvas shows the compact view.
pub const COMPACT_ABOVE: usize = 50;
/// The least size of a target a person clicks (CSS px, WCAG 2.2).
const TARGET_PX: f64 = 24.0;
/// Height of the band of tier labels at the top.
pub const LABEL_BAND: f64 = 26.0;
const MARGIN: f64 = 12.0;
/// Where the rows and the clients' column begin, under the band.
const ROWS_TOP: f64 = LABEL_BAND + 4.0;
/// Width of the column right of the rows where a client's copies of the
/// servers' loads ("14", "–") or their shares of the requests sent
/// ("10.7%") are written: 40 px at the least, and 3.3 label heights (a
/// bold "10.7%" takes 3.5, its last 0.2 in what the slots' count beside
/// it, "10/10", leaves of its room). At a presenter's 18 px the shares ran
/// into the counts, the column kept at 40 px.
const SIDE_COLUMN_W: f64 = 40.0;
const SIDE_COLUMN_EM: f64 = 3.3;

/// Up to this many servers a picture asks for the height that labels
/// every row (see [`least_height`]): more rows than this stay unnamed in
/// the frames embeds are given.
const LABELLED_ROWS_UP_TO: usize = 16;

/// The least height (CSS px) at which a picture of `servers` names each
/// row and writes its queue's length, with labels `least_label_px` high,
/// and its rows at least `least_row_h` tall where they draw more (a
/// queue's wait; see `crate::ui::waits::WaitBand::least_row_h`); 0,
/// asking nothing, past [`LABELLED_ROWS_UP_TO`] rows.
pub fn least_height(servers: usize, least_label_px: f64, least_row_h: Option<f64>) -> f64 {
    let row_h = least_labelled_row_h(least_label_px).max(least_row_h.unwrap_or(0.0));
    match servers <= LABELLED_ROWS_UP_TO {
        true => ROWS_TOP + MARGIN + servers as f64 * row_h,
        false => 0.0,
    }
}

/// The screen height a presenter view's picture sizes its labels for (see
/// `crate::ui::fit::least_label_px`, a fortieth of it), on a screen
/// `width` × `height` CSS px: its height, as a room sees a projector; but
/// on a screen held upright, narrower than 3:4, no taller than 4/3 of its
/// width. On a 390 × 844 phone a fortieth of the height, 21 px, left each
/// row's queue a count and a tick; landscape screens and projectors
/// (1280 × 720, 1920 × 1080, 1024 × 768) keep their height.
pub fn room_screen_height(width: f64, height: f64) -> f64 {
    height.min(width * 4.0 / 3.0)
}

/// The least height of a server's row that holds labels `label_px` high.
pub fn least_labelled_row_h(label_px: f64) -> f64 {
    (label_px + 2.0).max(14.0)
}

/// What the column right of the rows writes, if anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    None,
    /// Each row's share of the requests sent lately (see `servers`).
    Shares,
    /// A client's copies of the servers' loads (see `learned`): the rows
    /// then draw their queues to the slots' scale, and take more of a
    /// narrow picture's width for it.
    Copies,
    /// Nothing, beside a twin's picture that writes copies: the rows are
    /// as wide as the twin's and to its scale, their column's room before
    /// them (where requests arrive) rather than left empty after them,
    /// where chapter 6's random picture drew a blank column as wide as
    /// power of two's "client 0 heard".
    BesideCopies,
}

pub struct Layout {
    pub clients: Grid,
    pub clients_per_cell: usize,
    pub balancers: Option<Grid>,
    pub servers: Grid,
    /// Left edge of the server area, where requests arrive.
    pub servers_x: f64,
    pub compact: bool,
    /// The whole drawing's width.
    pub width: f64,
    /// Where the column right of the rows is (left and right edges), when
    /// it has something to write: a client's copies of the servers' loads
    /// where clients keep copies, else each row's share of the requests
    /// sent lately where a server is slowed.
    pub side_column: Option<(f64, f64)>,
    /// Whether a queued request takes a slot's width on every row (see
    /// `lbsim::ui::row_scale`): where a client's copies are drawn.
    pub queues_to_scale: bool,
    /// The pitch (CSS px) every row draws its queue at, finer than the
    /// rows' own, where the run's longest queue so far outgrows a lane
    /// (see `lbsim::ui::marks::shared_queue_pitch`); `None` where each
    /// row keeps its own. Rows drawn to scale keep theirs.
    pub queue_pitch: Option<f64>,
    /// The least size of its labels (CSS px): larger in the presenter
    /// view (see `lbsim::ui::fit::least_label_px`). The rows' room for
    /// their labels, and the column right of them, follow it.
    pub least_label_px: f64,
    /// Where requests reach the servers' rows (x, CSS px), short of their
    /// labels, once the rows are drawn (see [`Layout::arriving_at`]).
    arrival_x: Option<f64>,
}

impl Layout {
    /// With a `column`, the rows leave room on their right for it.
    pub fn new(
        (width, height): (f64, f64),
        (clients, balancers, servers): (usize, usize, usize),
        column: Column,
        least_label_px: f64,
    ) -> Layout {
        let (top, bottom) = (ROWS_TOP, height - MARGIN);
        let tall = bottom - top;
        let client_w = (width * 0.06).clamp(18.0, 48.0);
        let clients_per_cell = clients.div_ceil(MAX_CLIENT_CELLS).max(1);
        let client_area = Rect { x: MARGIN, y: top, w: client_w, h: tall };
        let client_cells = Grid::new(clients.div_ceil(clients_per_cell), client_area, 6.0);
        let balancer_w = (width * 0.07).clamp(24.0, 64.0);
        let balancers = (balancers > 0).then(|| {
            let area = Rect { x: width * 0.40 - balancer_w / 2.0, y: top, w: balancer_w, h: tall };
            Grid::new(balancers, area, 10.0)
        });
        let to_scale = matches!(column, Column::Copies | Column::BesideCopies);
        // Narrow screens give the servers a larger share of the width. A
        // lone server's row starts at a quarter of the width, leaving its
        // queue a long lane: at 45%, chapter 1's lone server had a lane of
        // six cells, three of which count 0 to 3, so queues of 13, 43 and
        // 51 were drawn alike. Ten rows keep the room between clients and
        // servers for a decision's badges ("saw 1 queued, least of 10"
        // found none with the rows at 30%, nor chapter 5's "saw 8/10" on a
        // phone at 25%).
        let servers_x = width
            * match (balancers.is_some(), width >= 600.0) {
                (true, true) => 0.55,
                (true, false) => 0.5,
                (false, _) if servers == 1 => 0.25,
                (false, true) => 0.45,
                (false, false) if to_scale => 0.25,
                (false, false) => 0.35,
            };
        let compact = servers > COMPACT_ABOVE;
        let column_w = match column != Column::None && !compact {
            true => SIDE_COLUMN_W.max(SIDE_COLUMN_EM * least_label_px),
            false => 0.0,
        };
        let (servers_x, side_column) = match column {
            Column::BesideCopies => (servers_x + column_w, None),
            _ => (servers_x, (column_w > 0.0).then_some((width - MARGIN - column_w, width - MARGIN))),
        };
        let area = Rect {
            x: servers_x,
            y: top,
            w: width - MARGIN - servers_x - side_column.map_or(0.0, |_| column_w),
            h: tall,
        };
        let servers = if compact {
            Grid::new(servers, area, f64::INFINITY).by_rows()
        } else {
            Grid::new(servers, area, 0.0)
        };
        Layout {
            clients: client_cells,
            clients_per_cell,
            balancers,
            servers,
            servers_x,
            compact,
            width,
            side_column,
            queues_to_scale: to_scale && !compact,
            queue_pitch: None,
            least_label_px,
            arrival_x: None,
        }
    }

    /// The first client of the cell nearest `(x, y)`, if one is within
    /// half of [`TARGET_PX`] of it: a cell can be a few pixels high, and a
    /// target for a finger or a pointer must be 24 × 24 px (WCAG 2.2).
    pub fn client_at(&self, x: f64, y: f64, clients: usize) -> Option<u32> {
        let cells = clients.div_ceil(self.clients_per_cell);
        let reach = |cell: Rect| ((cell.w.max(TARGET_PX) / 2.0), (cell.h.max(TARGET_PX) / 2.0));
        let near = |i: &usize| {
            let cell = self.clients.cell(*i);
            let ((cx, cy), (rx, ry)) = (cell.centre(), reach(cell));
            ((x - cx).abs() <= rx && (y - cy).abs() <= ry).then_some((x - cx).hypot(y - cy))
        };
        let cell = (0..cells).filter_map(|i| near(&i).map(|d| (i, d))).min_by(|a, b| a.1.total_cmp(&b.1))?.0;
        Some((cell * self.clients_per_cell) as u32)
    }

    /// The server whose row (or cell) is at `(x, y)`, if one is there.
    pub fn server_at(&self, x: f64, y: f64, servers: usize) -> Option<usize> {
        (0..servers).find(|&i| self.server_reach(i).contains(x, y))
    }

    /// Where a click reaches server `i`: its cell, and in the detailed view
    /// its whole row, from where the space requests cross begins to the
    /// column right of it. A lone server's name, and a server's state word,
    /// are written left of its cell: in chapter 1, told to click the
    /// server, a reader clicked its name and nothing happened. Rows stack
    /// in one column, so no row reaches into another; the reach stops short
    /// of the balancers' column, which takes no click.
    fn server_reach(&self, i: usize) -> Rect {
        let cell = self.servers.cell(i);
        if self.compact {
            return cell;
        }
        let balancers_right = self.balancers.map_or(0.0, |grid| grid.area.x + grid.area.w);
        let x = self.crossing_from().max(balancers_right + MARGIN).min(cell.x);
        Rect { x, w: self.width - MARGIN - x, ..cell }
    }

    /// The labels' font size in CSS pixels: larger on a wide (projected)
    /// picture, never below the least.
    pub fn label_px(&self) -> f64 {
        (self.width / 45.0).clamp(12.0, 20.0).max(self.least_label_px)
    }

    /// The small labels' font size (a server's slots in use, a long
    /// queue's length, a datacenter's name): the least.
    pub fn small_px(&self) -> f64 {
        self.least_label_px
    }

    /// Where the space requests cross to the servers begins: some way
    /// left of the servers, clear of the clients' column. A server's
    /// state word may reach into it when its row's lane is full, before
    /// the server's name ("slow server", where a lone server's name
    /// already reaches some 24 px left of its row).
    pub fn crossing_from(&self) -> f64 {
        const REACH: f64 = 96.0;
        (self.servers_x - REACH).max(self.clients_right() + MARGIN)
    }

    /// The right edge of the clients' column.
    fn clients_right(&self) -> f64 {
        self.clients.cell(0).x + self.clients.cell_w * self.clients.cols as f64
    }

    /// The right edge of the columns left of the servers: the clients',
    /// and the balancers' where there are any. Nothing written for a row
    /// may reach left of it.
    pub fn tiers_right(&self) -> f64 {
        let balancers_right = self.balancers.map_or(0.0, |grid| grid.area.x + grid.area.w);
        self.clients_right().max(balancers_right)
    }

    /// Where a request leaves or reaches client `i`.
    pub fn client_anchor(&self, i: usize) -> (f64, f64) {
        let cell = self.clients.cell(i / self.clients_per_cell);
        (cell.x + cell.w * 0.75, cell.y + cell.h / 2.0)
    }

    pub fn balancer_anchor(&self, i: usize) -> (f64, f64) {
        self.balancers.map_or((0.0, 0.0), |grid| grid.cell(i).centre())
    }

    /// The same layout with requests reaching the rows at `x` (CSS px),
    /// left of every label written at their entrances.
    pub fn arriving_at(self, x: f64) -> Layout {
        Layout { arrival_x: Some(x), ..self }
    }

    /// Where a request travels to or from server `i`: in the detailed view
    /// short of the labels written at the rows' entrances (names, a
    /// state's word), in a band no request crosses, since paths to one
    /// row pass by its neighbours' (a dot printed over server 2's name in
    /// chapter 2 on a phone, and "slow" sat among them in chapter 3); a
    /// row's entrance until the rows are drawn.
    pub fn arrival(&self, i: usize) -> (f64, f64) {
        let (x, y) = self.server_anchor(i);
        match (self.compact, self.arrival_x) {
            (false, Some(arrival)) => (arrival.min(x), y),
            _ => (x, y),
        }
    }

    /// Where a request reaches server `i`: its row's entrance, or its cell.
    pub fn server_anchor(&self, i: usize) -> (f64, f64) {
        let cell = self.servers.cell(i);
        if self.compact {
            cell.centre()
        } else {
            (cell.x, cell.y + cell.h / 2.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_reads_a_projector_by_its_height_and_a_phone_held_upright_by_its_width() {
        for (width, height, px) in [(1280.0, 720.0, 18.0), (1920.0, 1080.0, 27.0), (1024.0, 768.0, 19.2)] {
            assert_eq!(least_label_px(true, room_screen_height(width, height)), px, "{width} × {height}");
        }
        assert_eq!(least_label_px(true, room_screen_height(390.0, 844.0)), 13.0, "was 21.1 px");
    }
    use crate::ui::fit::least_label_px;

    /// The labels' least size outside the presenter view.
    fn least() -> f64 {
        least_label_px(false, 0.0)
    }

    /// Layouts of a phone's and a desktop's picture, with and without
    /// balancers, few clients and many (sharing cells), few servers and a
    /// compact grid of them.
    fn layouts() -> Vec<(Layout, (usize, usize))> {
        let mut layouts = Vec::new();
        for size in [(358.0, 300.0), (800.0, 400.0), (1200.0, 520.0)] {
            for (clients, balancers, servers) in [(20, 0, 10), (1_000, 2, 5), (5_000, 0, 200), (3, 4, 1)] {
                let layout = Layout::new(size, (clients, balancers, servers), Column::None, least());
                layouts.push((layout, (clients, servers)));
            }
        }
        layouts
    }

    #[test]
    fn a_click_at_the_centre_of_each_client_and_server_reaches_it() {
        for (layout, (clients, servers)) in layouts() {
            let cells = clients.div_ceil(layout.clients_per_cell);
            for cell in 0..cells {
                let (x, y) = layout.clients.cell(cell).centre();
                // A cell shared by several clients is the first's.
                let first = (cell * layout.clients_per_cell) as u32;
                assert_eq!(layout.client_at(x, y, clients), Some(first), "{clients} clients, cell {cell}");
            }
            for server in 0..servers {
                let (x, y) = layout.servers.cell(server).centre();
                assert_eq!(layout.server_at(x, y, servers), Some(server), "{servers} servers");
            }
        }
    }

    #[test]
    fn a_client_a_few_pixels_high_takes_a_click_twelve_pixels_away() {
        let layout = Layout::new((800.0, 400.0), (1_000, 0, 10), Column::None, least());
        let cell = layout.clients.cell(0);
        assert!(cell.w < TARGET_PX && cell.h < TARGET_PX, "a small cell: {cell:?}");
        let (x, y) = cell.centre();
        assert_eq!(layout.client_at(x - 11.0, y, 1_000), Some(0));
        assert_eq!(layout.client_at(x - 13.0, y, 1_000), None, "past half the 24 px target");
    }

    #[test]
    fn a_servers_row_takes_a_click_left_of_its_cell_but_not_in_the_balancers_column() {
        let layout = Layout::new((1_000.0, 500.0), (20, 2, 5), Column::None, least());
        let row = layout.servers.cell(1);
        let y = row.centre().1;
        // Where its name and state word are written, left of its cell.
        assert_eq!(layout.server_at(row.x - 40.0, y, 5), Some(1));
        let balancers = layout.balancers.expect("two balancers").area;
        assert_eq!(layout.server_at(balancers.x + balancers.w + 1.0, y, 5), None);
        // Rows stack: none reaches into its neighbour's.
        assert_eq!(layout.server_at(row.x, row.y + 1.0, 5), Some(1));
        assert_eq!(layout.server_at(row.x, row.y - 1.0, 5), Some(0));
    }

    #[test]
    fn past_fifty_servers_the_picture_is_a_compact_grid_with_no_side_column() {
        let rows = Layout::new((800.0, 400.0), (20, 0, COMPACT_ABOVE), Column::Copies, least());
        assert!(!rows.compact && rows.queues_to_scale);
        assert_eq!(rows.side_column, Some((800.0 - MARGIN - SIDE_COLUMN_W, 800.0 - MARGIN)));
        assert!(rows.servers.area.x + rows.servers.area.w <= 800.0 - MARGIN - SIDE_COLUMN_W + 1e-9);
        let grid = Layout::new((800.0, 400.0), (20, 0, COMPACT_ABOVE + 1), Column::Copies, least());
        assert!(grid.compact && !grid.queues_to_scale);
        assert_eq!(grid.side_column, None);
        // Beside a twin's copies, the rows keep the column's room before
        // them rather than after.
        let beside = Layout::new((800.0, 400.0), (20, 0, 10), Column::BesideCopies, least());
        assert_eq!(beside.side_column, None);
        assert_eq!(beside.servers_x, rows.servers_x + SIDE_COLUMN_W);
    }

    #[test]
    fn a_narrow_picture_gives_the_servers_a_larger_share_of_its_width() {
        let share = |width: f64| {
            let layout = Layout::new((width, 400.0), (20, 0, 10), Column::None, least());
            (width - layout.servers_x) / width
        };
        assert!(share(358.0) > share(800.0), "{} against {}", share(358.0), share(800.0));
    }
}
