//! Processes found by their environment: what the descendant tests of
//! agui-harness and agui-conform look for after an implementation ended
//! (shared by `#[path]`).

/// Running (not zombie) processes whose environment holds `var=value`.
pub fn running_with(var: &str, value: &str) -> Vec<u32> {
    let want = format!("{var}={value}");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let running = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(')').map(|(_, r)| r.trim_start().to_owned()))
                .is_some_and(|r| !r.starts_with('Z'));
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            running && env.split(|b| *b == 0).any(|kv| kv == want.as_bytes())
        })
        .collect()
}
