#!/usr/bin/env python3
"""End-to-end test of the live coaching page in a real browser (Chromium + Selenium, a video as the camera).

    python3 Tests/browser/test_live_page.py --server-binary .build/debug/ptcoach [--screenshot /tmp/ptcoach-live.png]

It converts ../shared/data/videos/calimiro/squat_17.mp4 into a Y4M fake camera, starts `ptcoach serve` on a free
loopback port with a throw-away data directory, opens the page in headless Chromium, coaches one pass of the video
as a squat set, ends the set and checks: the skeleton was drawn, the summary counts the labelled repetitions
(labels.csv, ±1), a cue was spoken. Then "Try it with a sample video" must play and get answers. Finally the
server must stop on SIGTERM with status 0. One line per check; exit status 1 when a check failed, 2 when the
test could not run (a tool missing).

Needs: apt-get install -y chromium chromium-driver ffmpeg; pip install selenium
(docs: ../shared/docs/browser-testing.md). The videos are not ours to redistribute: the Y4M is made in a temporary
folder and deleted afterwards.
"""

import argparse
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# Still frames padded around the video: the fake camera starts when the page opens it, a moment before the first
# frame is sent, and loops the file. The padding absorbs that moment and the end of the pass (the person stands).
PAD_START, PAD_END = 1.5, 1.0

failures = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failures.append(name)
    return ok


def die(message, status=2):
    print(f"ERROR {message}", file=sys.stderr, flush=True)
    sys.exit(status)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


def labelled_reps(labels_csv, video):
    """The labelled repetition count of `video` (matched by its last two path components)."""
    key = "/".join(video.parts[-2:])
    with open(labels_csv, newline="") as f:
        for row in csv.DictReader(f):
            if row["file"].endswith(key):
                return int(row["reps_labelled"])
    die(f"{video.name} is not in {labels_csv}")


def video_seconds(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
                         check=True, capture_output=True, text=True).stdout
    return float(out.strip())


def make_camera(video, y4m, scale="640:360"):
    """The video as a yuv420p Y4M (640x360 unless `scale` says), with still frames before and after it."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(video), "-an", "-vf",
                    f"scale={scale},tpad=start_duration={PAD_START}:start_mode=clone:"
                    f"stop_duration={PAD_END}:stop_mode=clone",
                    "-pix_fmt", "yuv420p", str(y4m)], check=True)


class Server:
    def __init__(self, binary, data_dir, log_path, samples=None, extra=()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log_path, "wb")
        self.log_path = log_path
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-directory", str(data_dir)]
            + (["--samples", str(samples)] if samples else []) + list(extra),
            stdout=self.log, stderr=subprocess.STDOUT)

    def wait_healthy(self, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return f"the server exited with status {self.proc.returncode}"
            try:
                health = get_json(f"{self.url}/health", timeout=2)
                if health.get("status") == "ok":
                    return None
            except OSError:
                pass
            time.sleep(0.3)
        return f"no /health answer in {timeout} s"

    def stop(self, timeout=20):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode

    def tail(self, lines=30):
        self.log.flush()
        text = Path(self.log_path).read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


def launch_browser(y4m):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu",
                "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={y4m}",
                "--autoplay-policy=no-user-gesture-required", "--window-size=1280,900"]:
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def hook(driver):
    return driver.execute_script("return window.ptcoach && window.ptcoach.state")


def wait_for(driver, condition, timeout, step=0.1):
    """Polls `condition(hook)` until it is true; returns the last hook (or None on timeout)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = hook(driver)
        if state and condition(state):
            return state
        time.sleep(step)
    return None


def open_page(driver, url):
    from selenium.webdriver.common.by import By
    driver.get(url + "/")
    # The library is loaded when the picker has more than "Recognise automatically".
    deadline = time.time() + 15
    while time.time() < deadline:
        if len(driver.find_elements(By.CSS_SELECTOR, "#exercise option")) > 1:
            break
        time.sleep(0.1)
    # Record what the page says (the test observes speak(); headless Chromium has no voices).
    driver.execute_script("""
        window.__spoken = [];
        const speak = speechSynthesis.speak.bind(speechSynthesis);
        speechSynthesis.speak = (u) => { window.__spoken.push(u.text); speak(u); };""")


def screenshot_page(driver, path):
    """A screenshot of the whole page (the window grown to its height)."""
    size = driver.get_window_size()
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], max(size["height"], height + 120))
    time.sleep(0.3)
    driver.save_screenshot(str(path))
    driver.set_window_size(size["width"], size["height"])


def error_text(driver):
    return driver.execute_script("const e = document.getElementById('error'); return e.hidden ? '' : e.textContent")


def camera_set(driver, server, args, pass_seconds, expected_reps):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(driver, server.url)
    Select(driver.find_element(By.ID, "exercise")).select_by_value(args.exercise)
    driver.find_element(By.ID, "start-camera").click()
    started = time.time()
    first = wait_for(driver, lambda s: s["framesAnswered"] > 0, 30)
    if not check("camera set starts", first is not None,
                 f"first answer after {time.time() - started:.1f} s" if first else f"no frame answered in 30 s; {error_text(driver)}"):
        return
    # The stream's currentTime counts from when the camera delivered its first frame: one pass of the file.
    camera_time = lambda: driver.execute_script("return document.getElementById('video').currentTime")
    shot_at = PAD_START + (pass_seconds - PAD_START - PAD_END) * 0.55
    shot_taken = False
    # End in the still frames after the video (before the camera loops back to the start).
    while camera_time() < pass_seconds - PAD_END / 2 and time.time() - started < pass_seconds + 30:
        if not shot_taken and camera_time() >= shot_at and hook(driver)["posesDrawn"] > 0:
            driver.save_screenshot(str(args.screenshot))
            shot_taken = True
        time.sleep(0.05)
    check("mid-set screenshot", shot_taken, str(args.screenshot) if shot_taken else "no skeleton drawn by mid-set")
    driver.find_element(By.ID, "end-set").click()
    ended = time.time()
    state = wait_for(driver, lambda s: s["summary"] is not None, 60)
    if not check("summary arrives", state is not None,
                 f"{time.time() - ended:.1f} s after End set" if state else f"none in 60 s; {error_text(driver)}"):
        return
    summary = state["summary"]
    status = driver.find_element(By.ID, "status").text
    print(f"INFO frames sent {state['framesSent']}, answered {state['framesAnswered']}; status: {status}")
    check("skeleton drawn", state["posesDrawn"] > 10, f"posesDrawn {state['posesDrawn']}")
    reps = summary.get("reps")
    check("repetitions counted", isinstance(reps, int) and abs(reps - expected_reps) <= 1,
          f"{reps} counted, {expected_reps} labelled (±1); exercise {summary.get('exercise')}")
    # The coach's cues, not the page's own hands-free instructions said at the start.
    spoken = [t for t in driver.execute_script("return window.__spoken") if not t.startswith("Hands-free")]
    check("cue spoken", len(spoken) >= 1, f"{len(spoken)} speak() calls: {spoken[:5]}")
    links = [driver.find_element(By.ID, i).get_attribute("href") for i in ("report-html", "report-pdf")]
    report_ok = all(link and "/api/sessions/" in link for link in links)
    if report_ok:
        try:
            with urllib.request.urlopen(links[0], timeout=30) as r:
                report_ok = r.status == 200 and b"<html" in r.read(4096).lower()
        except OSError as err:
            report_ok = False
            links.append(str(err))
    check("report linked", report_ok, ", ".join(links))
    check("no error shown", not error_text(driver), error_text(driver))
    check_summary_words(driver, summary)
    summary_path = args.screenshot.with_name(args.screenshot.stem + "-summary" + args.screenshot.suffix)
    screenshot_page(driver, summary_path)
    print(f"INFO summary screenshot {summary_path}")


def check_summary_words(driver, summary):
    """The end-of-set summary praises only what was judged: "Form not checked: <reason>" when no repetition's form
    was, never "well done" then; a safety crossing listed once per crossing; no "% sure" beside an exercise given."""
    from selenium.webdriver.common.by import By

    issues = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#issues li")]
    reps = summary.get("repetitions") or []
    judged = [r for r in reps if r.get("verdict") not in (None, "not-checked")]
    if judged:
        check("summary: form judged, not called unchecked", not any(t.startswith("Form not checked") for t in issues),
              "; ".join(issues))
    else:
        check("summary: no repetition judged, so no praise",
              any(t.startswith("Form not checked: ") for t in issues) and not any("well done" in t for t in issues),
              "; ".join(issues))
    # A repetition not checked says why in its row ("too close to call from this view", …), never a blank.
    rows = [[c.text for c in tr.find_elements(By.TAG_NAME, "td")]
            for tr in driver.find_elements(By.CSS_SELECTOR, "#rep-table tbody tr")]
    unexplained = [(r.get("index"), row) for r, row in zip(reps, rows) if r.get("verdict") == "not-checked"
                   and r.get("uncheckedReason") and row[-1:] != [r["uncheckedReason"]]]
    check("summary: a repetition not checked shows its reason", len(rows) == len(reps) and not unexplained,
          f"{len(rows)} rows, {len(reps)} repetitions; {unexplained[:3]}")
    crossings = len(summary.get("safetyWarnings") or [])
    listed = sum(int(t.rsplit("(×", 1)[1].rstrip(")")) if "(×" in t else 1 for t in issues if t.startswith("⚠"))
    check("summary: each safety crossing once", listed == crossings, f"{listed} listed, {crossings} in the summary")
    shown = driver.execute_script("return window.ptcoach.state.repetitions.map(r => r.index)")
    check("events fold to the summary's repetitions", shown == [r.get("index") for r in reps],
          f"events tell {shown}, the summary has {[r.get('index') for r in reps]}")
    # The overlay showed each repetition's judged peak, the summary's (a repetition judged again later may differ:
    # only the last value shown for an index is compared).
    peaks = {p["index"]: p for p in driver.execute_script("return window.ptcoach.state.repPeaksShown")}
    judged_peaks = {r.get("index"): r.get("peakAngle") for r in reps if r.get("peakAngle") is not None}
    differing = [(i, peaks[i]["value"], v) for i, v in judged_peaks.items() if i in peaks and abs(peaks[i]["value"] - v) > 0.5]
    check("overlay: each repetition's judged peak shown", judged_peaks.keys() <= peaks.keys() and not differing,
          f"shown {[(i, round(p['value']), p['side']) for i, p in peaks.items()]}, summary "
          f"{[(i, round(v)) for i, v in judged_peaks.items()]}")
    # One count for the set: the big counter ends on the summary's (a provisional repetition the end withdrew
    # is no longer shown), and an exercise recognised too unsurely is not named beside it.
    counter = driver.execute_script("return document.getElementById('rep-counter').dataset.count") or ""
    check("counter ends on the summary's count", counter.split(" / ")[0] == str(summary.get("reps")),
          f"counter {counter!r}, summary {summary.get('reps')}")
    line = driver.find_element(By.ID, "summary-reps").text
    if driver.execute_script("return window.ptcoach.state.summaryUnsure"):
        named = summary.get("exerciseName") or summary.get("exercise") or ""
        check("summary: an unsure exercise is not named", named not in line and "not recognised" in line, line)
    badge = driver.find_element(By.ID, "exercise-badge").text
    check("badge: no sureness beside an exercise given", "sure" not in badge, badge)


def sample_set(driver, server, args):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    samples = get_json(f"{server.url}/api/samples")
    if not check("samples listed", isinstance(samples, list) and len(samples) > 0, f"{len(samples)} samples"):
        return
    open_page(driver, server.url)
    # The test's own video when it is a sample (a side-view squat), else the first.
    # Samples are listed by plain names ("Squat, example 3"); their files are in their urls.
    names = [Path(s.get("url", "")).stem for s in samples]
    if args.video_stem in names:
        Select(driver.find_element(By.ID, "sample")).select_by_index(names.index(args.video_stem))
    chosen = names[int(Select(driver.find_element(By.ID, "sample")).first_selected_option.get_attribute("value"))]
    driver.find_element(By.ID, "start-sample").click()
    state = wait_for(driver, lambda s: s["framesAnswered"] >= 5, 30)
    playing = driver.execute_script(
        "const v = document.getElementById('video'); return {t: v.currentTime, w: v.videoWidth, err: v.error && v.error.message}")
    check("sample video plays and is answered", state is not None and playing["t"] > 0,
          f"{chosen}: video at {playing['t']:.1f} s ({playing['w']} px wide), answered {state and state['framesAnswered']}"
          + (f"; {error_text(driver)}" if error_text(driver) else "") + (f"; {playing['err']}" if playing["err"] else ""))
    if state is None:
        return
    sample = samples[names.index(chosen)] if chosen in names else {}
    if chosen == args.video_stem:
        # The page ends the set itself when the video ends (one pass, no loop).
        state = wait_for(driver, lambda s: s["summary"] is not None, video_seconds(args.video_path) + 30)
        reps = state and state["summary"].get("reps")
        check("sample set ends with the video", state is not None and abs(reps - sample["reps"]) <= 1,
              f"{reps} counted, {sample['reps']} labelled (±1), {state['framesAnswered']} frames answered"
              if state else "no summary")
    else:
        driver.find_element(By.ID, "end-set").click()
        state = wait_for(driver, lambda s: s["summary"] is not None, 60)
        check("sample set summary", state is not None, f"{state['summary'].get('reps')} reps" if state else "none in 60 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--screenshot", type=Path, default=Path("/tmp/ptcoach-live.png"),
                        help="mid-set screenshot; the summary's goes beside it as NAME-summary.png")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared",
                        help="the shared data folder (its data/videos are also the server's --samples)")
    parser.add_argument("--video", type=Path, help="default: SHARED/data/videos/calimiro/squat_17.mp4")
    parser.add_argument("--exercise", default="squat")
    parser.add_argument("--skip-sample", action="store_true", help="skip the sample-video check")
    args = parser.parse_args()
    video = (args.video or args.shared / "data/videos/calimiro/squat_17.mp4").resolve()
    labels = args.shared / "data/videos/labels.csv"
    args.video_stem, args.video_path = video.stem, video

    for tool in ("ffmpeg", "ffprobe", CHROMIUM, CHROMEDRIVER):
        if not shutil.which(tool):
            die(f"{tool} not found: apt-get install -y chromium chromium-driver ffmpeg")
    try:
        import selenium  # noqa: F401
    except ImportError:
        die("selenium is not installed: pip install selenium")
    if not args.server_binary.exists():
        die(f"no server binary at {args.server_binary}: swift build --product ptcoach")
    if not video.exists():
        die(f"no video at {video}")
    expected_reps = labelled_reps(labels, video)

    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-browser-"))
    server = driver = None
    try:
        y4m = tmp / "camera.y4m"
        make_camera(video, y4m)
        pass_seconds = video_seconds(y4m)
        print(f"INFO camera {y4m.name}: {pass_seconds:.2f} s ({video.name} {video_seconds(video):.2f} s + "
              f"{PAD_START} s + {PAD_END} s still); {expected_reps} reps labelled")
        samples = None if args.skip_sample else args.shared / "data/videos"
        server = Server(args.server_binary.resolve(), tmp / "data", tmp / "server.log", samples)
        problem = server.wait_healthy()
        if not check("server healthy", problem is None, problem or server.url):
            print(server.tail())
            return 1
        driver = launch_browser(y4m)
        camera_set(driver, server, args, pass_seconds, expected_reps)
        if not args.skip_sample:
            sample_set(driver, server, args)
        severe = [e["message"] for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and "favicon" not in e["message"]]
        check("no browser errors", not severe, "; ".join(severe)[:600])
    finally:
        if driver:
            driver.quit()
        if server:
            status = server.stop()
            check("server stops on SIGTERM with status 0", status == 0,
                  "killed after 20 s" if status is None else f"status {status}")
            if failures:
                print("INFO server log (last lines):\n" + server.tail())
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"FAILED: {', '.join(failures)}" if failures else "OK: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
