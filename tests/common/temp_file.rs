//! A file of its own in the temporary folder, for the tests of traces.

/// A file of its own in the temporary folder, removed when dropped.
pub struct TempFile(std::path::PathBuf);

impl TempFile {
    pub fn new(name: &str, text: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("lbsim-trace-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
