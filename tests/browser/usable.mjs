// Whether a view is usable as a reader meets it, judged in the page: every
// visible control takes a click at its centre, no two runs of text from
// different elements overprint, and nothing leaves the view's box.

/**
 * Checks every `.lbsim-view` on the page (or the one `root` selects) and
 * resolves to a list of problems, each a sentence naming the element; an
 * empty list means the view is usable. Controls below the fold are scrolled
 * to first, as a reader would.
 */
export function layoutProblems(page, root = '.lbsim-view') {
  return page.evaluate(async (rootSelector) => {
    const problems = [];
    const name = (el) => {
      const label = el.getAttribute('aria-label') || el.id || el.textContent.trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${label}"`;
    };
    const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
      && !el.closest('.visually-hidden, [hidden], [inert]');
    const box = (r) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    // What of a text's (or a part's) box shows: text cut short on
    // purpose, with an ellipsis (a title too long for its picture), is
    // hidden past its box, as is what a box that scrolls holds past its
    // edges (compare mode's settings), a scroll away; what is hidden can
    // neither overprint nor leave the view. Any other clipping still
    // counts as text lost.
    const clipped = (owner, rect, view) => {
      let [left, top, right, bottom] = [rect.left, rect.top, rect.right, rect.bottom];
      for (let el = owner; el && el !== view; el = el.parentElement) {
        const style = getComputedStyle(el);
        const ellipsis = style.textOverflow === 'ellipsis' && style.overflowX !== 'visible';
        const scrolls = /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`);
        if (!ellipsis && !scrolls) continue;
        const r = el.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, r.left), Math.max(top, r.top), Math.min(right, r.right), Math.min(bottom, r.bottom)];
      }
      return { left, top, right, bottom, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
    };
    const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
      * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    for (const view of document.querySelectorAll(rootSelector)) {
      if (!shown(view)) continue;
      const controls = [...view.querySelectorAll('button, input, select, textarea, a[href], summary, [role="button"], [role="slider"]')]
        .filter((el) => shown(el) && el.type !== 'hidden');
      for (const control of controls) {
        control.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        await new Promise(requestAnimationFrame);
        const r = control.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) continue;
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
          problems.push(`${name(control)} lies outside the window at ${box(r)}`);
          continue;
        }
        const hit = document.elementFromPoint(x, y);
        const label = control.labels?.[0];
        if (!hit || !(control.contains(hit) || label?.contains(hit))) {
          problems.push(`a click at the centre of ${name(control)} reaches ${hit ? name(hit) : 'nothing'}`);
        }
      }
      view.scrollIntoView({ block: 'start', behavior: 'instant' });
      await new Promise(requestAnimationFrame);
      const frame = view.getBoundingClientRect();
      const runs = [];
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const owner = node.parentElement;
        if (!node.textContent.trim() || !owner || !shown(owner)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const drawn of range.getClientRects()) {
          const rect = clipped(owner, drawn, view);
          if (rect.width < 1 || rect.height < 1) continue;
          runs.push({ owner, rect, text: node.textContent.trim().slice(0, 24) });
          const out = Math.max(frame.left - rect.left, rect.right - frame.right, frame.top - rect.top, rect.bottom - frame.bottom);
          if (out > 1 && !owner.closest('[role="dialog"], dialog')) {
            problems.push(`text "${node.textContent.trim().slice(0, 24)}" leaves the view by ${Math.round(out)} px`);
          }
        }
      }
      for (let i = 0; i < runs.length; i += 1) {
        for (let j = i + 1; j < runs.length; j += 1) {
          const [a, b] = [runs[i], runs[j]];
          if (a.owner === b.owner) continue;
          const area = overlap(a.rect, b.rect);
          if (area > 4 && area > 0.05 * Math.min(a.rect.width * a.rect.height, b.rect.width * b.rect.height)) {
            problems.push(`text "${a.text}" (${name(a.owner)}) overprints "${b.text}" (${name(b.owner)})`);
          }
        }
      }
      for (const part of view.querySelectorAll('canvas, button, input, select, figure')) {
        if (!shown(part) || part.closest('[role="dialog"], dialog')) continue;
        const r = clipped(part, part.getBoundingClientRect(), view);
        if (r.width < 1 || r.height < 1) continue;
        const out = Math.max(frame.left - r.left, r.right - frame.right, frame.top - r.top, r.bottom - frame.bottom);
        if (out > 1) problems.push(`${name(part)} leaves the view's box by ${Math.round(out)} px`);
      }
    }
    return [...new Set(problems)];
  }, root);
}
