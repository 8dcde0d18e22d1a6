// Load times as a reader meets them, for bench.mjs: each page served
// compressed (gzip or brotli) and opened with nothing cached under
// Chromium's network and CPU emulation (the DevTools protocol's
// Network.emulateNetworkConditions and Emulation.setCPUThrottlingRate),
// timing from navigation to the outline drawn before the module arrives
// and to the first live picture (a canvas with drawn pixels), and counting
// the bytes on the wire. It opens the build as published (dist/).
import { serveDist, DIST } from './lib.mjs';

/** The two network profiles: a desktop line, and Lighthouse's mobile one. */
export const PROFILES = [
  { name: 'desktop, 10 Mbps / 40 ms', mbps: 10, latencyMs: 40, cpuSlowdown: 1 },
  { name: 'slow 4G, 1.6 Mbps / 150 ms, CPU 4×', mbps: 1.6, latencyMs: 150, cpuSlowdown: 4 },
];

/**
 * The pages timed: where the live picture is drawn, and the window. The
 * explainer is opened at its first chapter's link, as a reader who follows
 * it meets the chapter: scrolled to it, 620 of its view's 680 px in sight,
 * so that its opening trip runs. At the page's top only 313 px are, under
 * the 60% a view opening with one request's trip waits for
 * (`lbsim::ui::pace::in_sight_to_run`): there it is drawn, standing still.
 */
export const PAGES = [
  { name: 'embed, 680 × 400', path: 'embed.html', view: '[data-lbsim]', width: 680, height: 400 },
  { name: 'lab, 1440 × 900', path: 'index.html', view: '[data-lbsim]', width: 1440, height: 900 },
  {
    name: "explainer's first chapter at its link, 1440 × 900",
    path: 'explain.html#one-server',
    view: '#sim-one-server',
    width: 1440,
    height: 900,
  },
];

export const ENCODING_NAMES = { gzip: 'gzip', br: 'brotli' };

/**
 * Watches, from the page's first animation frame, the view `view` for its
 * outline (an element with `data-lbsim-outline` drawn in it) and for its
 * live picture (its `.topology` canvas with a drawn pixel), and records
 * when each first showed in `window.loadTimes`. The canvas is copied down
 * to 32 × 32 to be read, so that watching costs the page little.
 */
function watchView(view) {
  window.loadTimes = {};
  const probe = document.createElement('canvas');
  probe.width = probe.height = 32;
  const drawn = (canvas) => {
    if (canvas.width === 0 || canvas.height === 0) return false;
    const context = probe.getContext('2d', { willReadFrequently: true });
    context.clearRect(0, 0, 32, 32);
    context.drawImage(canvas, 0, 0, 32, 32);
    const { data } = context.getImageData(0, 0, 32, 32);
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  };
  const poll = () => {
    const root = document.querySelector(view);
    const outline = root?.querySelector('[data-lbsim-outline]');
    if (window.loadTimes.outline === undefined && outline && outline.getBoundingClientRect().height > 0) {
      window.loadTimes.outline = performance.now();
    }
    const canvas = root?.querySelector('canvas.topology');
    if (canvas && drawn(canvas)) {
      window.loadTimes.live = performance.now();
      return;
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** One load of `page` under `profile`: { outline, live } ms and wire bytes. */
async function loadOnce(browser, url, page, profile) {
  const context = await browser.newContext({ viewport: { width: page.width, height: page.height }, deviceScaleFactor: 1 });
  await context.addInitScript(watchView, page.view);
  const tab = await context.newPage();
  const devtools = await context.newCDPSession(tab);
  await devtools.send('Network.enable');
  await devtools.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bytesPerSecond = (profile.mbps * 1e6) / 8;
  await devtools.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond / 2,
  });
  await devtools.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  let wire = 0;
  devtools.on('Network.loadingFinished', ({ encodedDataLength }) => (wire += encodedDataLength));
  await tab.goto(url + page.path);
  await tab.waitForFunction(() => window.loadTimes?.live !== undefined, null, { timeout: 60_000, polling: 100 });
  const times = await tab.evaluate(() => window.loadTimes);
  await context.close();
  return { ...times, wire };
}

const median = (values) => {
  const defined = values.filter((v) => v !== undefined).sort((a, b) => a - b);
  return defined.length < values.length ? undefined : defined[Math.floor(defined.length / 2)];
};

/**
 * Every page under both profiles and both encodings, `runs` loads each;
 * prints a Markdown table of medians (and each run's live time).
 */
export async function measureLoads(browser, { runs, pages = PAGES, profiles = PROFILES, dir = DIST, log = console.log }) {
  const ms = (x) => (x === undefined ? '—' : `${Math.round(x).toLocaleString('en-US')} ms`);
  log(`Load times, median of ${runs} loads each, nothing cached: the outline / the first live picture`);
  log(`| page | ${profiles.map((p) => p.name).join(' | ')} | on the wire |`);
  log(`|---|${profiles.map(() => '---|').join('')}---|`);
  for (const page of pages) {
    for (const encoding of Object.keys(ENCODING_NAMES)) {
      const server = await serveDist({ encoding, dir });
      try {
        const cells = [];
        let wire = 0;
        for (const profile of profiles) {
          const loads = [];
          for (let run = 0; run < runs; run++) loads.push(await loadOnce(browser, server.url, page, profile));
          wire = median(loads.map((l) => l.wire));
          const runsLive = loads.map((l) => Math.round(l.live)).join(', ');
          cells.push(`${ms(median(loads.map((l) => l.outline)))} / ${ms(median(loads.map((l) => l.live)))} (${runsLive})`);
        }
        log(`| ${page.name}, ${ENCODING_NAMES[encoding]} | ${cells.join(' | ')} | ${Math.round(wire / 1024)} KiB |`);
      } finally {
        await server.close();
      }
    }
  }
}
