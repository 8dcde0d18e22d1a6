// Runs node:test files in the order given, CONCURRENCY at once, reporting
// as `node --test` does; exits 1 if a test failed. `node --test` itself
// sorts its files by name, so that a long file may start last, one
// Chromium running it while the other has nothing left to run
// (scripts/browser-test.sh starts the slowest first).
//   node scripts/run-in-order.mjs CONCURRENCY FILE...
// Each failure (a todo's aside) is also written, a line for the test and a
// few for its error, to the file named by LBSIM_FAILURES if it is set:
// scripts/browser-test.sh prints them last, where a long log's tail shows.
// A file still running after 15 minutes (LBSIM_FILE_MINUTES) is stopped
// and failed, naming the tests it was in: a wait that never ends (a page
// that stopped answering) fails that file, not the whole run at CI's limit.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const FILE_MINUTES = Number(process.env.LBSIM_FILE_MINUTES ?? 15);
const [concurrency, ...files] = process.argv.slice(2);
const failures = process.env.LBSIM_FAILURES;
const stream = run({ files, concurrency: Number(concurrency), timeout: FILE_MINUTES * 60_000 });
// The tests each file has begun and not yet ended, by their nesting.
const running = new Map();
const inFlight = (file) => running.get(file) ?? running.set(file, []).get(file);
stream.on('test:dequeue', ({ name, file, nesting }) => {
  if (file && name !== file) inFlight(file)[nesting] = name;
});
const ended = ({ name, file, nesting }) => {
  const names = file ? inFlight(file) : [];
  if (names[nesting] === name) names.length = nesting;
};
stream.on('test:pass', ended);
stream.on('test:fail', (event) => {
  const { name, file, todo, details } = event;
  const hung = details?.error?.failureType === 'testTimeoutFailure' && name === file;
  const within = hung ? inFlight(file).filter(Boolean).join(' › ') : '';
  ended(event);
  if (todo) return;
  process.exitCode = 1;
  if (hung) console.log(`# ${relative(process.cwd(), file)} was stopped after ${FILE_MINUTES} minutes in: ${within || 'no test yet'}`);
  if (!failures) return;
  const error = details?.error?.cause ?? details?.error;
  const message = String(error?.message ?? error ?? 'no message')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, 6)
    .map((line) => `    ${line}`)
    .join('\n');
  const where = file ? relative(process.cwd(), file) : 'unknown file';
  const what = hung ? `stopped after ${FILE_MINUTES} minutes in: ${within || 'no test yet'}` : name;
  appendFileSync(failures, `- ${where}: ${what}\n${message}\n`);
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
