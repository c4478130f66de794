//! The real program in a real terminal (tmux), where tmux exists.

/// Writes past the test harness's output capture, so a skip is seen in every run.
fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn terminal_end_to_end_in_tmux() {
    let tmux = std::process::Command::new("tmux").arg("-V").output();
    if !tmux.is_ok_and(|o| o.status.success()) {
        note("SKIPPED terminal_end_to_end_in_tmux: tmux is not installed");
        return;
    }
    let exe = env!("CARGO_BIN_EXE_gametree");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tui_e2e.sh");
    let output = std::process::Command::new("bash")
        .arg(&script)
        .arg(format!("{exe} play tictactoe"))
        .arg(format!("{exe} play --load"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("PASS"), "{stdout}");
}
