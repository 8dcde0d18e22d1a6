// Runs node:test files in the order given, CONCURRENCY at once, reporting
// as `node --test` does; exits 1 if a test failed. `node --test` itself
// sorts its files by name, so that a long file may start last, one
// Chromium running it while the other has nothing left to run
// (scripts/browser-test.sh starts the slowest first).
//   node scripts/run-in-order.mjs CONCURRENCY FILE...
// Each failure (a todo's aside) is also written, a line for the test and a
// few for its error, to the file named by LBSIM_FAILURES if it is set:
// scripts/browser-test.sh prints them last, where a long log's tail shows.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
const failures = process.env.LBSIM_FAILURES;
const stream = run({ files, concurrency: Number(concurrency) });
stream.on('test:fail', ({ name, file, todo, details }) => {
  if (todo) return;
  process.exitCode = 1;
  if (!failures) return;
  const error = details?.error?.cause ?? details?.error;
  const message = String(error?.message ?? error ?? 'no message')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, 6)
    .map((line) => `    ${line}`)
    .join('\n');
  const where = file ? relative(process.cwd(), file) : 'unknown file';
  appendFileSync(failures, `- ${where}: ${name}\n${message}\n`);
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
