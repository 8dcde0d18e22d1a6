// Every preset (lbsim's own scenarios and the proxies' by name) runs in the
// lab as the command line runs it: chosen from the lab's preset menu and
// advanced a few simulated seconds, each has the trace hash `lbsim run`
// gives for the same span (a warm-up leaves the events, and so the hash,
// unchanged, so the command line runs the span without one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { browser, server, useBrowser, openApp, summary, CLI } from './lib.mjs';

useBrowser();

test('every preset in the lab\'s menu runs as `lbsim run` runs it', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'autoplay=0' });
  const presets = await page.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value).filter(Boolean));
  const listed = execFileSync(CLI, ['presets'], { encoding: 'utf8' }).split('\n')
    .filter((line) => /^  \S/.test(line)).map((line) => line.trim());
  assert.deepEqual([...presets].sort(), [...listed].sort());
  assert.ok(presets.length >= 35, `only ${presets.length} presets offered`);
  for (const preset of presets) {
    await page.selectOption('#preset', preset);
    if ((await page.textContent('#play')).trim() === 'Pause') await page.click('#play');
    const started = await page.evaluate(() => window.lbsim.simTime());
    const until = Math.ceil((started + 1000) / 1000) * 1000;
    await page.evaluate((ms) => window.lbsim.advance(ms), until - started);
    assert.equal(await page.evaluate(() => window.lbsim.simTime()), until, `${preset}: advanced to ${until} ms`);
    const args = ['run', preset, '--warmup', '0', '--duration', String(until / 1000), '--json'];
    const native = JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
    assert.match(native.summary.trace_hash, /^[0-9a-f]{16}$/);
    assert.equal((await summary(page)).trace_hash, native.summary.trace_hash, `${preset}: the lab's run is not the command line's`);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});
