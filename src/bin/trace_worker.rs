//! The lab's trace reader, a module of its own that a web worker runs
//! (`www/trace-worker.js`): the page stays responsive while a large file is
//! read, and the CSV and timestamp crates the reading needs (about 100 KB
//! gzipped) stay out of the module every page and embed loads. It reads
//! the file with the code `lbsim trace` uses and hands the lab the rows,
//! encoded (see `lbsim::trace::replay::encode`), with the same report.

#[cfg(target_arch = "wasm32")]
mod worker {
    use lbsim::trace::replay::encode;
    use lbsim::trace::{Columns, Report, TraceOptions};
    use wasm_bindgen::prelude::*;

    /// A trace read through.
    #[wasm_bindgen]
    pub struct TraceRead {
        rows: Vec<u8>,
        report: String,
        summary_json: String,
        hash: String,
        bytes: f64,
        rate_bin_s: f64,
        rates: Vec<f64>,
    }

    #[wasm_bindgen]
    impl TraceRead {
        /// The rows, encoded.
        #[wasm_bindgen(getter)]
        pub fn rows(&self) -> Vec<u8> {
            self.rows.clone()
        }

        /// What `lbsim trace` prints of it.
        #[wasm_bindgen(getter)]
        pub fn report(&self) -> String {
            self.report.clone()
        }

        /// What `lbsim trace --json` gives as its `summary`.
        #[wasm_bindgen(getter)]
        pub fn summary_json(&self) -> String {
            self.summary_json.clone()
        }

        /// The FNV-1a hash of its bytes, 16 hexadecimal digits.
        #[wasm_bindgen(getter)]
        pub fn hash(&self) -> String {
            self.hash.clone()
        }

        #[wasm_bindgen(getter)]
        pub fn bytes(&self) -> f64 {
            self.bytes
        }

        /// The width of the rate's bins, in seconds of the trace.
        #[wasm_bindgen(getter)]
        pub fn rate_bin_s(&self) -> f64 {
            self.rate_bin_s
        }

        /// Arrivals a second in each bin.
        #[wasm_bindgen(getter)]
        pub fn rates(&self) -> Vec<f64> {
            self.rates.clone()
        }
    }

    /// Reads the trace `bytes` of file `name`, its columns mapped as
    /// `--trace-columns` maps them (empty: the usual names) and its
    /// classes named in the order of the scenario's (comma-separated);
    /// fails with the message `lbsim trace` would give.
    #[wasm_bindgen]
    pub fn read_trace(bytes: &[u8], name: &str, columns: &str, classes: &str) -> Result<TraceRead, String> {
        let columns = match columns.trim() {
            "" => Columns::default(),
            text => Columns::parse(text).map_err(|e| format!("trace columns: {}", e.message))?,
        };
        // Empty, the classes are any (one class) or the scenario's indices.
        let classes = match classes.trim() {
            "" => Vec::new(),
            named => TraceOptions::classes_from(named, "Classes")?,
        };
        let options = TraceOptions { columns, classes: classes.clone(), ..TraceOptions::default() };
        let mut rows = Vec::new();
        let report = Report::read(name, bytes, options, |row| rows.push(row.recorded(&classes)))?;
        let rate = &report.summary.rate_over_time;
        Ok(TraceRead {
            rows: encode(&rows),
            report: report.text(None),
            summary_json: serde_json::to_string(&report.summary).map_err(|e| e.to_string())?,
            hash: report.hash_text(),
            bytes: report.bytes as f64,
            rate_bin_s: rate.bin_s,
            rates: rate.per_s.clone(),
        })
    }
}

fn main() {}
