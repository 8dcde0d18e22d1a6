// A server's labels have room the request dots do not cross: requests stop
// short of the names written at the rows' entrances (and of a state's
// word such as "slow", placed among them), so that a reader reads "2"
// rather than a dot over it. On a phone a dot printed over server 2's name
// in chapter 2, and "slow" sat among the dots in chapter 3. Read by
// pixels: over 8 s of each chapter, no pixel of the band the names are
// written in takes a request's or a response's colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact } from './lib.mjs';

useBrowser();

/**
 * Watches chapter `id`'s picture for `ms` wall ms and counts, each frame,
 * the pixels in the servers' names' band (from the leftmost name's left
 * edge to the rightmost's right, over the rows) in a dot's colours.
 */
const dotsOverNames = (page, id, ms) => page.evaluate(async ([id, ms]) => {
  const root = document.getElementById(`sim-${id}`);
  const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  while (!window.lbsim.views()[index] || window.lbsim.views()[index].frameCosts().length === 0) await frame();
  const view = window.lbsim.views()[index];
  const canvas = root.querySelector('.topology');
  const colour = (name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    root.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+/g).map(Number);
    probe.remove();
    return rgb;
  };
  const dots = [colour('--c-request'), colour('--c-response')];
  const like = (data, i) => dots.some((c) => c.every((v, k) => Math.abs(data[i + k] - v) <= 30));
  let worst = { pixels: 0, at: 0, band: [] };
  for (const start = performance.now(); performance.now() - start < ms; await frame()) {
    const rows = JSON.parse(view.servers()).filter((s) => s.name);
    if (rows.length === 0) continue;
    const left = Math.min(...rows.map((s) => s.name[0]));
    const right = Math.max(...rows.map((s) => s.name[1]));
    const top = Math.min(...rows.map((s) => s.cell[1]));
    const bottom = Math.max(...rows.map((s) => s.cell[1] + s.cell[3]));
    const scale = canvas.width / canvas.clientWidth;
    const band = [left, top, right - left, bottom - top].map((v) => Math.round(v * scale));
    const { data } = canvas.getContext('2d').getImageData(...band);
    let pixels = 0;
    for (let i = 0; i < data.length; i += 4) pixels += like(data, i);
    if (pixels > worst.pixels) worst = { pixels, at: Math.round(performance.now() - start), band: [left, top, right, bottom].map(Math.round) };
  }
  return worst;
}, [id, ms]);

for (const [width, height] of [[390, 844], [1440, 900]]) {
  for (const [id, name] of [['spike', 'chapter 2'], ['continuous', 'chapter 3']]) {
    test(`at ${width} × ${height} no request dot crosses ${name}'s server names`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      const worst = await dotsOverNames(page, id, 8000);
      await page.locator(`#sim-${id} .topology`).screenshot({ path: artifact(`labels-${id}-${width}.png`) });
      assert.equal(worst.pixels, 0, `${worst.pixels} pixels in a dot's colours over the names' band ${worst.band.join(', ')} (left, top, right, bottom) at ${worst.at} ms`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
