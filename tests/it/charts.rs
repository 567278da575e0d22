//! The charts of the HTML pages: a short real run's report and a compare page carry them, and
//! a real headless browser (Debian's `chromium`) lays them out at phone and at desktop width.
//! The browser test writes screenshots to target/screenshots/ for a person to look at. Without
//! chromium it says it skipped, unless UNIXBENCH_NEED_CHROMIUM is set (as `make test` sets it,
//! having installed chromium), when a missing browser is a failure.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A short real run at 1 and 2 copies, two passes each (so that each test has an interval);
/// returns the paths of its HTML report and its results JSON.
fn short_run(s: &Scratch) -> (PathBuf, PathBuf) {
    let mut c = ub(["run", "-q", "--json", "-i", "2", "-t", "1", "-c", "1", "-c", "2", "syscall", "pipe"]);
    // The chart, not the noise, is tested here: a busy test machine would mark the bars
    // disturbed (tests/it/noise.rs tests that).
    c.env("UB_NOISE", "off");
    let o = run(c.current_dir(s.path()));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let mut html = None;
    let mut json = None;
    for e in std::fs::read_dir(s.path().join("results")).unwrap() {
        let p = e.unwrap().path();
        match p.extension().and_then(|x| x.to_str()) {
            Some("html") => html = Some(p),
            Some("json") => json = Some(p),
            _ => {}
        }
    }
    (html.expect("an HTML report"), json.expect("a results JSON"))
}

fn compare_page(files: &[&Path]) -> String {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    let mut c = ub(["compare", "--format", "html"]);
    c.args(files).arg(fixtures.join("c-unixbench.txt"));
    let o = run(&mut c);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    stdout(&o)
}

/// The chart of the run: syscall, pipe and the index score, each at 1 and 2 copies with its
/// whisker and, at 2 copies, the gain.
#[track_caller]
fn assert_run_chart(html: &str) {
    let charts = &html[html.find("<div class=\"charts\">").expect("the chart")..];
    let charts = &charts[..charts.find("</div>").unwrap()];
    assert_eq!(charts.matches("<svg ").count(), 3, "{charts}");
    assert_eq!(charts.matches("<rect class=\"c0\"").count(), 3, "{charts}");
    assert_eq!(charts.matches("<rect class=\"c1\"").count(), 3, "{charts}");
    assert_eq!(charts.matches("<path class=\"ci\"").count(), 6, "{charts}");
    assert_eq!(charts.matches("%</text>").count(), 3, "a gain per 2-copy bar: {charts}");
    for name in ["Pipe Throughput", "System Call Overhead", "System Benchmarks Index Score (Partial Only)"] {
        assert!(charts.contains(&format!(">{name}</text>")), "{name}: {charts}");
    }
    assert!(!html.contains("<script"), "no script");
}

#[test]
fn the_report_and_a_compare_page_carry_the_chart_and_lay_it_out() {
    let s = Scratch::new("charts");
    let (html, json) = short_run(&s);
    let report = std::fs::read_to_string(&html).unwrap();
    assert_run_chart(&report);
    assert!(report.contains("<h3>Index at each copy count</h3>"));
    let page = compare_page(&[&json]);
    // This run ([1]) and the C report ([2]), at 1 and 2 copies: the C report ran every index
    // test, so each of its twelve and the index score has both bars.
    assert_eq!(page.matches("<svg ").count(), 13, "{page}");
    assert_eq!(page.matches(">[2] 2 copies</text><rect ").count(), 13, "{page}");
    assert_eq!(page.matches(">[1] 1 copy</text><rect ").count(), 3, "{page}");
    assert_eq!(page.matches(">[1] 1 copy</text><text x=\"104\" y=\"31\">not run</text>").count(), 10);
    let compare = s.path().join("compare.html");
    std::fs::write(&compare, &page).unwrap();

    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("UNIXBENCH_NEED_CHROMIUM").is_none(),
            "UNIXBENCH_NEED_CHROMIUM is set but no chromium is on PATH (make test-deps installs it)"
        );
        return eprintln!("charts: browser test skipped: no chromium on PATH (make test installs it)");
    };
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, file, svgs) in [("report", &html, 3), ("compare", &compare, 13)] {
        // The page as a person opens it, at phone and at desktop width.
        for (w, h) in [(390, 844), (1280, 900)] {
            let png = shots.join(format!("{name}-{w}x{h}.png"));
            let _ = std::fs::remove_file(&png);
            browse(
                &browser,
                &s,
                &[&format!("--window-size={w},{h}"), &format!("--screenshot={}", png.display())],
                file,
            );
            let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
            assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 1000, "{}", png.display());
        }
        // The page in a frame of the width, with a probe outside it that writes each chart
        // element's laid-out box into the DOM (the page itself has no script; headless windows
        // are at least 500 pixels wide, a frame can be narrower): every bar has a length, and no
        // chart runs off a phone's width.
        for w in [390, 1280] {
            let probe = s.path().join(format!("{name}-probe-{w}.html"));
            std::fs::write(
                &probe,
                PROBE.replace("WIDTH", &w.to_string()).replace("PAGE", &file.display().to_string()),
            )
            .unwrap();
            let dom = browse(
                &browser,
                &s,
                &["--dump-dom", "--allow-file-access-from-files", "--window-size=1400,1000"],
                &probe,
            );
            let found = dom.split("<pre id=\"boxes\">").nth(1).and_then(|t| t.split("</pre>").next());
            let boxes = found.unwrap_or_else(|| panic!("{name} at {w}: no boxes: {dom}"));
            let of = |tag: &str| -> Vec<[f64; 4]> {
                boxes
                    .lines()
                    .filter_map(|l| l.strip_prefix(tag))
                    .map(|l| {
                        let n: Vec<f64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
                        [n[0], n[1], n[2], n[3]]
                    })
                    .collect()
            };
            let (svg, rect, path) = (of("svg "), of("rect "), of("path "));
            assert_eq!(svg.len(), svgs, "{name} at {w}: {boxes}");
            assert!(rect.len() >= svgs && path.len() >= 6, "{name} at {w}: {boxes}");
            for b in svg.iter().chain(&rect).chain(&path) {
                assert!(b[0] >= 0.0 && b[0] + b[2] <= w as f64 + 0.5, "{name} at {w}: {b:?} off the page");
            }
            assert!(rect.iter().all(|b| b[2] > 0.0 && b[3] > 5.0), "{name} at {w}: {boxes}");
            assert!(svg.iter().all(|b| b[2] > 200.0 && b[3] > 40.0), "{name} at {w}: {boxes}");
            assert!(boxes.contains("fits true"), "{name} at {w}: the page is wider than the window: {boxes}");
            // Phone: one chart per row; desktop: several side by side.
            let side_by_side = svg.windows(2).any(|p| p[0][1] == p[1][1]);
            assert_eq!(side_by_side, w > 390, "{name} at {w}: {boxes}");
        }
    }
    eprintln!("charts: screenshots in {}", shots.display());
}

/// A frame WIDTH pixels wide showing PAGE, and a script that writes the box (x y width height,
/// CSS pixels) of each chart element in it, and whether the page fits the frame's width.
const PROBE: &str = "<html><body style=\"margin: 0\"><script>
function probe(f) {
  const d = f.contentDocument;
  let out = '';
  for (const e of d.querySelectorAll('.charts svg, .charts rect, .charts path')) {
    const r = e.getBoundingClientRect();
    out += e.tagName + ' ' + [r.x, r.y, r.width, r.height].map(v => v.toFixed(1)).join(' ') + '\\n';
  }
  out += 'fits ' + (d.documentElement.scrollWidth <= d.documentElement.clientWidth);
  const p = document.createElement('pre');
  p.id = 'boxes';
  p.textContent = out;
  document.body.appendChild(p);
}
</script><iframe src=\"file://PAGE\" style=\"border: 0; width: WIDTHpx; height: 900px\" onload=\"probe(this)\"></iframe>
</body></html>";

/// chromium on PATH, if any.
fn chromium() -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("chromium")).find(|p| p.is_file())
}

/// Runs headless chromium on `page` with `args`, a profile of its own in the scratch directory
/// (tests run in parallel), and returns its stdout. At most a minute.
fn browse(browser: &Path, s: &Scratch, args: &[&str], page: &Path) -> String {
    let profile = Scratch::new("chromium-profile");
    let out = s.path().join("chromium.out");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {args:?} took more than a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium {args:?}: {status}");
    std::fs::read_to_string(&out).unwrap()
}
