// The lab's trace reader (src/bin/trace_worker.rs), run off the page's
// thread. A message {file, columns, classes} gets one back: {ok: true,
// name, rows, report, summary, hash, bytes, binS, rates}, or {ok: false,
// message}. The rows and rates are
// transferred, not copied.
importScripts('lbsim-trace.js');
const ready = wasm_bindgen({ module_or_path: 'lbsim-trace_bg.wasm' });

onmessage = async (event) => {
  const { file, columns, classes } = event.data;
  try {
    await ready;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const read = wasm_bindgen.read_trace(bytes, file.name, columns, classes);
    const reply = {
      ok: true,
      name: file.name,
      rows: read.rows,
      report: read.report,
      summary: read.summary_json,
      hash: read.hash,
      bytes: read.bytes,
      binS: read.rate_bin_s,
      rates: read.rates,
    };
    read.free();
    postMessage(reply, [reply.rows.buffer, reply.rates.buffer]);
  } catch (error) {
    postMessage({ ok: false, message: String(error) });
  }
};
