//! The graphics applets. A default build names them and refuses (exit 2); a build with the
//! `graphics` feature (`make test-graphics`, under Xvfb with Mesa's software GL) draws every
//! 2D group and the gears, reads the pixels back through the server, and speaks the protocol.
//! The binary is `$UNIXBENCH_GRAPHICS_BIN` when set, else the one [`common::bin`] picks, and the
//! tests are those of the build it is: the test program itself is built without the feature,
//! so that `make test-graphics` runs the one the main phase built rather than building another.

use crate::common::*;
use std::path::PathBuf;
use std::process::Command;

fn gbin() -> PathBuf {
    match std::env::var_os("UNIXBENCH_GRAPHICS_BIN") {
        Some(p) => std::path::absolute(PathBuf::from(p)).unwrap(),
        None => bin(),
    }
}

fn g<I: IntoIterator<Item = &'static str>>(args: I) -> Command {
    let mut c = Command::new(gbin());
    c.args(args);
    c
}

/// Whether the binary under test was built with graphics: its applet list names them. A binary
/// named by `UNIXBENCH_GRAPHICS_BIN` must be.
fn built_with_graphics() -> bool {
    let list = stdout(&run(&mut g(["--list"])));
    let has = list.lines().any(|l| l == "ubgears");
    assert!(
        has || std::env::var_os("UNIXBENCH_GRAPHICS_BIN").is_none(),
        "UNIXBENCH_GRAPHICS_BIN names a binary built without graphics"
    );
    has
}

#[test]
fn graphics_applets_say_the_build_lacks_them() {
    if built_with_graphics() {
        return; // the tests below are this build's
    }
    for name in ["2d-rects", "2d-window", "ubgears"] {
        let o = run(&mut g([name, "3", "2"]));
        assert_usage_error(&o, "this binary was built without graphics");
    }
    let list = stdout(&run(&mut g(["--list"])));
    assert!(!list.lines().any(|l| l.starts_with("2d-") || l == "ubgears"), "{list}");
}

mod with_graphics {
    use super::*;

    const GROUPS: [&str; 10] =
        ["rects", "lines", "circle", "ellipse", "shapes", "aashapes", "polys", "text", "blit", "window"];

    /// The display the tests draw on: `make test-graphics` runs them under xvfb-run.
    fn display() -> String {
        std::env::var("DISPLAY")
            .expect("the graphics tests need an X display: run them with `make test-graphics`")
    }

    fn score_of(err: &str) -> f64 {
        let line =
            err.lines().find(|l| l.starts_with("COUNT|")).unwrap_or_else(|| panic!("no COUNT line: {err}"));
        let f: Vec<&str> = line.split('|').collect();
        assert_eq!((f.len(), f[2], f[3]), (4, "0", "score"), "{line}");
        assert!(f[1].split_once('.').is_some_and(|(_, d)| d.len() == 1), "%.1f: {line}");
        f[1].parse().unwrap()
    }

    #[test]
    fn graphics_every_2d_group_draws_into_its_window_and_reports_a_score() {
        if !super::built_with_graphics() {
            return; // a build without graphics: the test above is its
        }
        let _ = display();
        for group in GROUPS {
            let name = format!("2d-{group}");
            let o = run(Command::new(gbin()).args([name.as_str(), "--verify", "--reps", "3", "2", "1"]));
            let (out, err) = (stdout(&o), stderr(&o));
            assert_eq!(o.status.code(), Some(0), "{name}: {out}\n{err}");
            let tests: Vec<&str> = out.lines().filter(|l| l.starts_with("Test ")).collect();
            assert_eq!(tests.len(), 4, "{name}: {out}");
            for t in &tests {
                let tname = t["Test ".len()..].split(':').next().unwrap();
                // Xvfb's Render has no 4-bit alpha format: that one workload cannot run.
                let skipped = out.contains(&format!("skipped {tname}:"));
                assert!(!skipped || tname == "aa4trap300", "{tname} skipped: {out}");
                if !skipped {
                    // Two passes, then the trep line gfx-x11 reads, then the read-back check.
                    assert!(out.lines().filter(|l| l.contains(" reps @ ")).count() >= 2, "{out}");
                    assert!(out.contains(" trep @ "), "{out}");
                    let v = out
                        .lines()
                        .find(|l| l.starts_with(&format!("verify {tname}: ")))
                        .unwrap_or_else(|| panic!("{tname} not verified: {out}"));
                    let drawn: u64 = v.split_whitespace().nth(2).unwrap().parse().unwrap();
                    assert!(drawn > 0, "{v}");
                }
            }
            assert!(score_of(&err) >= 0.0);
        }
    }

    #[test]
    fn graphics_a_calibrated_group_scores_rate_over_reference() {
        if !super::built_with_graphics() {
            return; // a build without graphics: the test above is its
        }
        let _ = display();
        let o = run(&mut g(["2d-window", "2", "1"]));
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
        let refs =
            [("popup", 660_000.0), ("move", 120_000.0), ("movetree", 877_000.0), ("resize", 136_000.0)];
        let mut sum = 0.0;
        for (t, reference) in refs {
            let line = out.lines().find(|l| l.starts_with(&format!("Test {t}: "))).expect(t);
            let (rate, score) = line.split_once(": ").unwrap().1.split_once(" --> ").unwrap();
            let (rate, score): (f64, f64) = (rate.parse().unwrap(), score.parse().unwrap());
            assert!(rate > 0.0, "{line}");
            assert!((score - rate / reference * 1000.0).abs() < 0.06, "{line}");
            sum += score;
            assert!(t != "move" || out.contains(": Move window (25 kids)"), "{out}");
        }
        assert!((score_of(&err) - sum / 4.0).abs() < 0.2, "{err}");
    }

    #[test]
    fn graphics_ubgears_draws_the_three_gears_and_reports_fps() {
        if !super::built_with_graphics() {
            return; // a build without graphics: the test above is its
        }
        let _ = display();
        let o = run(&mut g(["ubgears", "-time", "1", "-v", "--verify"]));
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
        assert!(out.contains("GL_RENDERER   = "), "{out}");
        assert!(out.lines().any(|l| l.starts_with("verify ubgears: ")), "{out}");
        assert!(out.lines().any(|l| l.ends_with(" FPS") && l.contains(" frames in ")), "{out}");
        assert!(out.contains("Start timing!"), "{out}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{err}");
        let frames: u64 =
            lines[0].strip_prefix("COUNT|").unwrap().strip_suffix("|1|fps").unwrap().parse().unwrap();
        assert!(frames > 0);
        let t: f64 = lines[1].strip_prefix("TIME|").unwrap().parse().unwrap();
        assert!((1.0..3.0).contains(&t), "{err}");
    }

    #[test]
    fn graphics_without_a_display_the_applets_skip_with_status_3() {
        if !super::built_with_graphics() {
            return; // a build without graphics: the test above is its
        }
        for name in ["2d-rects", "ubgears"] {
            let o = run(g([name]).env_remove("DISPLAY"));
            assert_eq!(o.status.code(), Some(3), "{name}");
            assert_eq!(stdout(&o), "");
            assert_eq!(stderr(&o), format!("{name}: skipped: no X display (DISPLAY is unset)\n"));
            let o = run(g([name]).env("DISPLAY", ":4093"));
            assert_eq!(o.status.code(), Some(3), "{name}");
            assert!(
                stderr(&o).contains("skipped: no X display (cannot open display ':4093')"),
                "{}",
                stderr(&o)
            );
        }
    }

    #[test]
    fn graphics_bad_arguments_are_refused() {
        if !super::built_with_graphics() {
            return; // a build without graphics: the test above is its
        }
        assert_usage_error(&run(&mut g(["2d-rects", "0"])), "repeat count");
        assert_usage_error(&run(&mut g(["2d-blit", "3", "x"])), "seconds");
        assert_usage_error(&run(&mut g(["ubgears", "-time"])), "-time");
        assert_usage_error(&run(&mut g(["ubgears", "-bogus"])), "unsupported option");
    }
}
