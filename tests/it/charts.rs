//! The charts of the HTML pages: a short real run's report and a compare page carry them, and
//! a real headless browser (Debian's `chromium`) lays them out at phone and at desktop width.
//! The browser test writes screenshots to target/screenshots/ for a person to look at. Without
//! chromium it says it skipped (`common::skip`: under `make test`, which installs it, a failure).

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A short real run at 1 and 2 copies, two passes each (so that each test has an interval);
/// returns the paths of its HTML report and its results JSON.
fn short_run(s: &Scratch) -> (PathBuf, PathBuf) {
    // Four passes: three kept, the fewest whose interval (a whisker) is of use.
    let mut c = ub(["run", "-q", "--json", "-i", "4", "-t", "1", "-c", "1", "-c", "2", "syscall", "pipe"]);
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

/// The charts of a page, without their legend.
fn charts_of(html: &str) -> &str {
    let charts = &html[html.find("<div class=\"charts\">").expect("the chart")..];
    &charts[..charts.find("</div>").unwrap()]
}

/// The chart of the run: syscall, pipe and the index score, each at 1 and 2 copies with its
/// whisker and, at 2 copies, the gain; and above the system table, the box with the run's
/// verdict: its kind and what is known of its noise.
#[track_caller]
fn assert_run_chart(html: &str) {
    let charts = charts_of(html);
    assert_eq!(charts.matches("<svg ").count(), 3, "{charts}");
    assert_eq!(charts.matches("<rect class=\"c0\"").count(), 3, "{charts}");
    assert_eq!(charts.matches("<rect class=\"c1\"").count(), 3, "{charts}");
    assert_eq!(charts.matches("<path class=\"ci\"").count(), 6, "{charts}");
    assert_eq!(charts.matches("%</text>").count(), 3, "a gain per 2-copy bar: {charts}");
    for name in ["Pipe Throughput", "System Call Overhead", "System Benchmarks Index Score (Partial Only)"] {
        assert!(charts.contains(&format!(">{name}</text>")), "{name}: {charts}");
    }
    assert!(!html.contains("<script"), "no script");
    // The result first: the index figures, large, under the title and before any chart or table.
    let headline = html.find("<div class=\"headline\">").expect("the index at the top");
    assert!(
        headline < html.find("<div class=\"charts\">").unwrap() && headline < html.find("<table").unwrap()
    );
    let figures = &html[headline..html[headline..].find("</div>\n\n").unwrap() + headline];
    assert_eq!(figures.matches("<span class=\"big\">").count(), 2, "1 and 2 copies: {figures}");
    assert!(
        figures.contains("</span> System Benchmarks Index Score (Partial Only), 2 copies</div>"),
        "{figures}"
    );
    let top = &html[..html.find("Test System Information").unwrap()];
    let verdict = &top[top.find("<div class=\"verdict bad\">").expect("the verdict's box")..];
    assert!(
        verdict.contains("<b>Not a standard run (short): not comparable with standard runs.</b>"),
        "{verdict}"
    );
    assert!(verdict.contains("<p>Noise not read (UB_NOISE=off)"), "{verdict}");
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
    assert_eq!(charts_of(&page).matches("<svg ").count(), 13, "{page}");
    assert_eq!(page.matches(">[2] 2 copies</text><rect ").count(), 13, "{page}");
    assert_eq!(page.matches(">[1] 1 copy</text><rect ").count(), 3, "{page}");
    assert_eq!(page.matches(">[1] 1 copy</text><text x=\"100\" y=\"31\">not run</text>").count(), 10);
    let compare = s.path().join("compare.html");
    std::fs::write(&compare, &page).unwrap();

    let Some(browser) = chromium() else {
        return skip("charts: browser test", "no chromium on PATH (make test installs it)");
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
            assert_bars_readable(boxes, &format!("{name} at {w}"));
            assert_eq!(svg.len(), svgs, "{name} at {w}: {boxes}");
            assert!(rect.len() >= svgs && path.len() >= 6, "{name} at {w}: {boxes}");
            for b in svg.iter().chain(&rect).chain(&path) {
                assert!(b[0] >= 0.0 && b[0] + b[2] <= w as f64 + 0.5, "{name} at {w}: {b:?} off the page");
            }
            assert!(rect.iter().all(|b| b[2] > 0.0 && b[3] > 5.0), "{name} at {w}: {boxes}");
            assert!(svg.iter().all(|b| b[2] > 200.0 && b[3] > 40.0), "{name} at {w}: {boxes}");
            assert!(boxes.contains("fits true"), "{name} at {w}: the page is wider than the window: {boxes}");
            assert!(boxes.contains("wide tables 0\n"), "{name} at {w}: a table runs off the page: {boxes}");
            if name == "report" {
                // The verdict's box: above the system table, within the width.
                let v = of("verdict ");
                assert!(v.len() == 1 && v[0][1] + v[0][3] <= top_table(boxes), "{name} at {w}: {boxes}");
                // The index figures on the first screen (844 pixels high on a phone, 900 here),
                // above the verdict's box.
                let h = of("headline ");
                assert!(
                    h.len() == 1 && h[0][1] + h[0][3] <= 844.0 && h[0][1] < v[0][1],
                    "{name} at {w}: {boxes}"
                );
                assert!(v[0][0] >= 0.0 && v[0][0] + v[0][2] <= w as f64, "{name} at {w}: {boxes}");
            }
            // Phone: one chart per row; desktop: several side by side.
            let side_by_side = svg.windows(2).any(|p| p[0][1] == p[1][1]);
            assert_eq!(side_by_side, w > 390, "{name} at {w}: {boxes}");
        }
    }
    eprintln!("charts: screenshots in {}", shots.display());
}

/// The narrowest a bar may be, in CSS pixels, where its value is at least [`BAR_SHARE`] of its
/// axis: such a bar reads at a glance, at phone width too.
const MIN_BAR_PX: f64 = 15.0;
const BAR_SHARE: f64 = 0.1;

/// The probe's `bar` lines (chart, bar's width, axis's width, value, axis's end as its last tick
/// says it): no bar of a visible share is a sliver, and in each chart the longest bar is over
/// half the axis (no whisker set the scale).
#[track_caller]
fn assert_bars_readable(boxes: &str, what: &str) {
    let tick = |t: &str| -> f64 {
        let (n, m) = match t.chars().last() {
            Some('k') => (&t[..t.len() - 1], 1e3),
            Some('M') => (&t[..t.len() - 1], 1e6),
            Some('G') => (&t[..t.len() - 1], 1e9),
            _ => (t, 1.0),
        };
        n.parse::<f64>().unwrap() * m
    };
    let mut longest = std::collections::BTreeMap::new();
    for l in boxes.lines().filter_map(|l| l.strip_prefix("bar ")) {
        let f: Vec<&str> = l.split(' ').collect();
        let (width, axis, value, end) = (
            f[1].parse::<f64>().unwrap(),
            f[2].parse::<f64>().unwrap(),
            f[3].parse::<f64>().unwrap(),
            tick(f[4]),
        );
        let share = value / end;
        assert!(share <= 1.0 + 1e-9 && axis > 100.0, "{what}: {l}");
        if share >= BAR_SHARE {
            assert!(width >= MIN_BAR_PX, "{what}: a bar of {share:.2} of its axis is {width} px: {l}");
        }
        let m = longest.entry(f[0].to_string()).or_insert(0.0f64);
        *m = m.max(share);
    }
    assert!(!longest.is_empty(), "{what}: no bars: {boxes}");
    assert!(
        longest.values().all(|&s| s > 0.5),
        "{what}: a chart's longest bar under half its axis: {longest:?}"
    );
}

/// The top of the first table (the system table), from the probe's lines.
fn top_table(boxes: &str) -> f64 {
    boxes.lines().find_map(|l| l.strip_prefix("table ")).and_then(|y| y.parse().ok()).expect("a table")
}

/// A frame WIDTH pixels wide showing PAGE, and a script that writes what it laid out (boxes as
/// x y width height, CSS pixels): each chart element's box, each bar's width beside its axis's
/// width, value and end, the verdict box's box, the first table's top, the count of tables wider
/// than the frame or scrolling inside, and whether the page scrolls sideways.
const PROBE: &str = "<html><body style=\"margin: 0\"><script>
function probe(f) {
  const d = f.contentDocument;
  const box = e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(v => v.toFixed(1)).join(' '); };
  let out = '';
  for (const e of d.querySelectorAll('.charts svg, .charts rect, .charts path.ci')) {
    out += e.tagName + ' ' + box(e) + '\\n';
  }
  d.querySelectorAll('.charts svg').forEach((s, i) => {
    const ticks = s.querySelectorAll('.tick');
    const axis = s.querySelector('.axis .line').getBoundingClientRect().width.toFixed(1);
    for (const g of s.querySelectorAll('g.bar')) {
      const r = g.querySelector('rect');
      if (!r) continue;
      const value = g.querySelector('.v').textContent.split(' ')[0];
      out += 'bar ' + i + ' ' + r.getBoundingClientRect().width.toFixed(1) + ' ' + axis + ' ' + value + ' ' + ticks[ticks.length - 1].textContent + '\\n';
    }
  });
  const v = d.querySelector('.verdict');
  if (v) out += 'verdict ' + box(v) + '\\n';
  const h = d.querySelector('.headline');
  if (h) out += 'headline ' + box(h) + '\\n';
  out += 'table ' + d.querySelector('table').getBoundingClientRect().y.toFixed(1) + '\\n';
  let wide = 0;
  for (const t of d.querySelectorAll('table')) {
    if (t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > WIDTH + 0.5) wide++;
  }
  out += 'wide tables ' + wide + '\\n';
  out += 'fits ' + (d.scrollingElement.scrollWidth <= WIDTH) + ' ' + d.scrollingElement.scrollWidth;
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
