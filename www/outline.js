// The outline each view shows before the module arrives: the scenario its
// link (or data-lbsim-settings) describes, drawn plainly (clients, the
// balancers, the servers with their slots, the caption) in the box the live
// view will take, so that nothing moves when the live picture replaces it
// (the view empties its root as it mounts). If the module cannot start (a
// browser without WebAssembly, a blocked file), the outline stays and says
// so. A plain script, run once the page is parsed (`defer`), so it draws
// while the module is still on the wire. Unset fields take the default
// scenario's values (src/scenario: 20 clients, 10 servers of 10 slots, no
// balancer tier); tests/browser/outline.test.mjs checks they agree.
(() => {
  const DEFAULTS = { clients: 20, balancers: 0, servers: 10, slots: 10 };
  const SVG = 'http://www.w3.org/2000/svg';
  const FAILED =
    'The simulation could not start: this browser may not run WebAssembly, or a file it needs was blocked. Reloading the page may help.';

  /** A whole number from the settings, or the default for `key`. */
  const count = (settings, key) => {
    const value = Number.parseInt(settings.get(key) ?? '', 10);
    return Number.isFinite(value) && value >= 0 ? value : DEFAULTS[key];
  };

  const svg = (parent, tag, attributes) => {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    parent.append(element);
    return element;
  };

  /** A column of `total` marks at `x`, as many as fit, and "+N" for the rest. */
  const column = (picture, { x, top, bottom, total, name, draw }) => {
    svg(picture, 'text', { x, y: top - 6, 'text-anchor': 'middle', class: 'outline-name' }).textContent = name;
    const step = Math.max(draw.height + 3, (bottom - top) / Math.max(total, 1));
    const shown = Math.min(total, Math.floor((bottom - top) / step));
    for (let i = 0; i < shown; i++) draw.mark(x, top + i * step + (step - draw.height) / 2);
    if (shown < total) {
      svg(picture, 'text', { x, y: bottom + 14, 'text-anchor': 'middle', class: 'outline-name' }).textContent = `+${total - shown}`;
    }
  };

  /** The scenario drawn in a `width` × `height` picture. */
  const picture = (settings, width, height) => {
    const image = document.createElementNS(SVG, 'svg');
    image.setAttribute('viewBox', `0 0 ${width} ${height}`);
    image.setAttribute('aria-hidden', 'true');
    const [top, bottom] = [24, height - 20];
    const slots = Math.min(count(settings, 'slots'), 20);
    const rowWidth = Math.min(width * 0.3, slots * 9);
    column(image, {
      x: width * 0.06, top, bottom, total: count(settings, 'clients'), name: 'clients',
      draw: { height: 6, mark: (x, y) => svg(image, 'circle', { cx: x, cy: y + 3, r: 3, class: 'outline-client' }) },
    });
    const balancers = count(settings, 'balancers');
    if (balancers > 0) {
      column(image, {
        x: width * 0.3, top, bottom, total: balancers, name: 'balancers',
        draw: { height: 10, mark: (x, y) => svg(image, 'rect', { x: x - 5, y, width: 10, height: 10, class: 'outline-balancer' }) },
      });
    }
    column(image, {
      x: width * 0.55, top, bottom, total: count(settings, 'servers'), name: 'servers',
      draw: {
        height: Math.min(14, Math.max(6, (bottom - top) / 12)),
        mark: (x, y) => {
          const cell = rowWidth / Math.max(slots, 1);
          const rowHeight = Math.min(14, Math.max(6, (bottom - top) / 12));
          for (let s = 0; s < slots; s++) {
            svg(image, 'rect', { x: x - rowWidth / 2 + s * cell, y, width: cell - 1, height: rowHeight, class: 'outline-slot' });
          }
        },
      },
    });
    return image;
  };

  /** Draws the outline in `root`, a view's element, for its settings. */
  const outline = (root) => {
    const kind = root.dataset.lbsim;
    if (kind !== 'embed' && kind !== 'lab') return;
    const settings = new URLSearchParams((root.dataset.lbsimSettings ?? location.hash).replace(/^#/, ''));
    root.classList.add('lbsim-view', `lbsim-${kind}`);
    const height = Number.parseInt(settings.get('height') ?? '', 10);
    if (height > 0) root.style.height = `${height}px`;
    if (['light', 'dark'].includes(settings.get('theme'))) root.dataset.theme = settings.get('theme');
    const box = document.createElement('div');
    box.className = 'lbsim-outline';
    box.dataset.lbsimOutline = '';
    const caption = settings.get('caption');
    if (caption) {
      const title = document.createElement('p');
      title.className = 'caption';
      title.textContent = caption;
      box.append(title);
    }
    const status = document.createElement('p');
    status.className = 'outline-status';
    status.setAttribute('role', 'status');
    status.textContent = 'Starting the simulation…';
    box.append(status);
    root.append(box);
    const { width: boxWidth, height: boxHeight } = box.getBoundingClientRect();
    // A view with a twin (versus=) draws two pictures side by side.
    const pictures = settings.has('versus') ? 2 : 1;
    const row = document.createElement('div');
    row.className = 'outline-pictures';
    for (let i = 0; i < pictures; i++) {
      row.append(picture(settings, Math.max(boxWidth / pictures, 200), Math.max(boxHeight - 60, 120)));
    }
    box.insertBefore(row, status);
  };

  /** Says, in every outline still showing, that the module did not start,
   *  and shows the prose each chapter holds back for its verdict: no view
   *  will come to give it. */
  const failed = () => {
    for (const status of document.querySelectorAll('[data-lbsim-outline] .outline-status')) {
      status.textContent = FAILED;
      status.closest('[data-lbsim-outline]').classList.add('failed');
    }
    for (const chapter of document.querySelectorAll('.chapter')) chapter.classList.add('revealed');
  };

  /** Wall ms a jump's target is held after the page last changed height. */
  const HOLD_MS = 1500;

  /**
   * Keeps a jump to a section (a contents link, or a link from elsewhere)
   * on target: the views above it mount as they near the window and, on a
   * phone, grow past their outline's height, which pushed the target a
   * screen or more down after the browser had scrolled to it. Until the
   * page has kept its height for HOLD_MS, or the reader scrolls or
   * touches, the target is scrolled back to the top whenever it changes.
   */
  const holdTarget = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
    let timer;
    const release = () => {
      clearTimeout(timer);
      watcher.disconnect();
      for (const input of inputs) removeEventListener(input, release);
    };
    const watcher = new ResizeObserver(() => {
      target.scrollIntoView({ block: 'start', behavior: 'instant' });
      clearTimeout(timer);
      timer = setTimeout(release, HOLD_MS);
    });
    watcher.observe(document.body);
    for (const input of inputs) addEventListener(input, release, { passive: true });
  };
  addEventListener('hashchange', holdTarget);
  holdTarget();

  /**
   * Keeps what the reader sees where it is while the views above it
   * settle: they mount as they near the window, and grow or shrink from
   * their outline's height to their own. The browser's scroll anchoring
   * missed these changes after a scroll by script (chapter 4's heading
   * landed 721 px above the window, chapter 3's view having shrunk 750 px
   * above it). On every scroll (a script, a key, the scrollbar, a jump),
   * the first element at least partly in sight is noted with where it
   * stands; whenever a section changes size, the page is scrolled by as
   * much as that element moved, before the browser paints. A scroll not
   * yet noted (the browser's own jump to a link's target, which
   * holdTarget keeps) is left alone. A new window size moves everything
   * by itself: the element is noted afresh where the browser left it, not
   * held. Held through one, a full-page screenshot (the window made 1 × 1
   * px, then as tall as the page) scrolled chapter 10 out of sight, 15,843
   * px above the window, and its run never began (connections.test).
   */
  const keepInPlace = () => {
    // The explainer's chapters only: the lab and an embed lay themselves out.
    if (!document.querySelector('main.essay')) return;
    const candidates = [...document.querySelectorAll('body > :not(main), main > :not(section), main > section > *')];
    let anchor = null;
    const note = () => {
      for (const element of candidates) {
        const { top, bottom, height } = element.getBoundingClientRect();
        if (height > 0 && bottom > 0) {
          anchor = { element, top, scrolled: scrollY };
          return;
        }
      }
      anchor = null;
    };
    const keep = () => {
      if (!anchor || anchor.scrolled !== scrollY) return;
      const moved = anchor.element.getBoundingClientRect().top - anchor.top;
      if (Math.abs(moved) < 1) return;
      scrollBy({ top: moved, behavior: 'instant' });
      anchor.scrolled = scrollY;
    };
    const watcher = new ResizeObserver(keep);
    for (const section of document.querySelectorAll('main > section')) watcher.observe(section);
    addEventListener('scroll', note, { passive: true });
    addEventListener('resize', note);
    note();
  };
  keepInPlace();

  document.querySelectorAll('[data-lbsim]').forEach(outline);
  if (typeof WebAssembly !== 'object') failed();
  // Before any view has mounted, an error is the module's: it failed to
  // load, to compile or to start.
  addEventListener('error', failed, true);
  addEventListener('unhandledrejection', failed);
})();
