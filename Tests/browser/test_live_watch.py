#!/usr/bin/env python3
"""A therapist watches a patient's live set in a real browser: skeleton and numbers, never the video.

    python3 Tests/browser/test_live_watch.py --server-binary .build/debug/ptcoach [--postgres URL] [--screenshot P]

The patient's Chromium has ../shared/data/videos/calimiro/pull-up_14.mp4 (6 pull-ups) as its fake camera (as
test_live_page.py, with 10 s of the first frame before it, so that the therapist is watching before the first
pull-up) and coaches one pass of it as a pull-up set while logged in; the therapist's Chromium logs in to the clinic, sees the
patient "Live" in the list, opens the watch page and checks: the set's frames come (skeleton drawn on a neutral
background), the count rises to the patient's, the repetition table fills, and nothing but JSON numbers arrives (no
binary message, no message big enough to hold a picture, only the documented fields). The therapist sends a message:
the patient's page shows it and says it, and shows who watches; a pause stops its frames until the therapist resumes. Then the therapist's clinic page learns an exercise
from the same video (docs/learn.md, "In the clinic") and draws its preview. With --postgres URL the two pages are on two
instances on one fresh PostgreSQL database (patient on the first, therapist on the second); else one instance with
SQLite. Prints the delay from the patient's frame capture to the therapist's screen (p50/p95, scripts/watch-delay.py
measures it over more sets). Every wait has a deadline. Exit status 1 when a check failed, 2 when it could not run.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_live_page import (  # noqa: E402
    CHROMEDRIVER, CHROMIUM, REPO, Server, check, die, failures, labelled_reps, launch_browser, video_seconds)

THERAPIST = ("dr.watch@clinic.example", "correct horse battery staple", "Dr Wanda Watch")
PATIENT = ("pat.watched", "another long passphrase")
WATCH_TYPES = {"watching", "set", "frame", "summary", "delivered", "offline"}
FRAME_KEYS = {"type", "id", "t", "dropped", "serverMs", "pose", "state", "events"}
SET_KEYS = {"patient", "session", "exercise", "reps", "programme", "width", "height", "repetitions", "paused",
            "watchers"}
SUMMARY_KEYS = {"session", "dropped", "events", "message", "stop", "practice", "hand", "report", "summary", "unsure"}


def api(base, method, path, body=None, cookie=None, csrf=None):
    """One JSON request; returns (status, body, cookie set)."""
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    if csrf:
        headers["X-CSRF-Token"] = csrf
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            set_cookie = response.headers.get("Set-Cookie")
            return response.status, json.loads(response.read() or b"null"), set_cookie and set_cookie.split(";")[0]
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null"), None


def wait(driver, script, timeout, what, step=0.1):
    """Polls `script` in the page until it returns something true; None (and a FAIL naming `what`) at the deadline."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(step)
    check(f"within {timeout} s: {what}", False)
    return None


def browser_login(driver, base, login, password):
    """Logs the browser in (its cookie) through the login API, from the server's own page."""
    driver.get(base + "/clinic.html")  # a page: its CSP lets it connect to its own origin
    return driver.execute_async_script("""
        const [login, password, done] = arguments;
        fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
                             body: JSON.stringify({login, password})}).then(r => done(r.status), () => done(0));""",
                                       login, password)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None


def run(args, patient_server, therapist_server, y4m, pass_seconds, expected_reps):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    # The patient, added and joined through the API.
    status, me, cookie = api(therapist_server.url, "POST", "/api/login", {"login": THERAPIST[0], "password": THERAPIST[1]})
    if not check("therapist logs in", status == 200, str(status)):
        return
    status, created, _ = api(therapist_server.url, "POST", "/api/patients", {"name": "Pat Watched"}, cookie,
                             me["csrfToken"])
    status, _, _ = api(patient_server.url, "POST", "/api/join", {"code": created["invitation"]["code"],
                                                                 "login": PATIENT[0], "password": PATIENT[1]})
    if not check("patient joins", status == 200, str(status)):
        return
    patient_id = created["id"]

    patient = launch_browser(y4m)
    therapist = launch_browser(y4m)
    try:
        check("patient's browser logged in", browser_login(patient, patient_server.url, *PATIENT) == 200)
        check("therapist's browser logged in", browser_login(therapist, therapist_server.url, *THERAPIST[:2]) == 200)
        patient.get(patient_server.url + "/")
        wait(patient, "return document.querySelectorAll('#exercise option').length > 1", 15, "the exercise list")
        patient.execute_script("""
            window.__spoken = [];
            const speak = speechSynthesis.speak.bind(speechSynthesis);
            speechSynthesis.speak = (u) => { window.__spoken.push(u.text); speak(u); };""")
        Select(patient.find_element(By.ID, "exercise")).select_by_value(args.exercise)
        patient.find_element(By.ID, "start-camera").click()
        started = time.time()
        if not wait(patient, "return window.ptcoach.state.framesAnswered > 0", 60, "the patient's first answer"):
            return

        # The therapist's list shows the patient live; its link opens the watch page.
        therapist.get(therapist_server.url + "/clinic.html")
        link = wait(therapist, "return document.querySelector('#patients-table a.live-badge')", 30,
                    "the patient shown live in the therapist's list")
        if not check("patient shown live in the list", link is not None):
            return
        therapist.execute_script("arguments[0].click()", link)
        check("watch page for the patient", wait(
            therapist, f"return location.pathname.endsWith('/watch.html') && location.search.includes('{patient_id}')",
            15, "the watch page"))
        if not wait(therapist, "return window.ptcoachWatch && window.ptcoachWatch.drawn > 3", 60,
                    "the therapist's first skeletons"):
            return
        size = therapist.execute_script("const s = window.ptcoachWatch.set; return s && [s.width, s.height]")
        check("the set's size is the patient's picture", size == args.camera_size, f"{size}, camera {args.camera_size}")
        watchers = wait(patient, "return window.ptcoach.state.watchers.length && window.ptcoach.state.watchers", 30,
                        "the patient told who watches")
        check("patient sees who watches", watchers == [THERAPIST[2]], str(watchers))
        shown = patient.execute_script("const e = document.getElementById('watched'); return e.hidden ? '' : e.textContent")
        check("patient's page says so", THERAPIST[2] in shown, shown)

        # A dropped socket: the page says it reconnects, and does, and the set goes on being drawn.
        drawn = therapist.execute_script("window.ptcoachWatch.drop(); return window.ptcoachWatch.drawn")
        check("the page says it reconnects", wait(
            therapist, "return window.ptcoachWatch.status.toLowerCase().includes('reconnecting')", 10,
            "the watch page's reconnecting status"))
        check("the page reconnected by itself", wait(
            therapist, f"return window.ptcoachWatch.reconnects === 1 && window.ptcoachWatch.drawn > {drawn} + 3", 30,
            "skeletons drawn after the reconnection"))

        # A message: shown and said on the patient's page, confirmed on the therapist's.
        therapist.find_element(By.ID, "message").send_keys("Slower on the way down")
        therapist.find_element(By.ID, "send").click()
        told = wait(patient, "return window.ptcoach.state.therapist.find(m => m.command === 'message')", 30,
                    "the therapist's message on the patient's page")
        check("message reaches the patient", bool(told) and told["text"] == "Slower on the way down", str(told))
        text = patient.execute_script("return document.getElementById('therapist-message').textContent")
        check("message shown", "Slower on the way down" in text, text)
        spoken = wait(patient, "return window.__spoken.filter(t => t.includes('Slower on the way down'))", 10,
                      "the message said")
        check("message said", bool(spoken), str(spoken))
        check("therapist sees it delivered",
              wait(therapist, "return window.ptcoachWatch.delivered.length > 0", 15, "delivered") is not None)

        # Pause (in the still frames before the first pull-up): the patient's page stops sending until resumed.
        therapist.find_element(By.ID, "pause").click()
        if wait(patient, "return window.ptcoach.state.therapist.some(m => m.command === 'pause')", 15,
                "the pause on the patient's page"):
            time.sleep(0.3)  # a frame being captured when the pause came may still go
            before = patient.execute_script("return window.ptcoach.state.framesSent")
            time.sleep(1.0)
            after = patient.execute_script("return window.ptcoach.state.framesSent")
            check("no frames sent while paused", after == before, f"{after - before} frames sent in 1 s of pause")
            paused = wait(therapist, "return window.ptcoachWatch.set && window.ptcoachWatch.set.paused", 10,
                          "the watch page told the set is paused")
            check("the watch page shows the pause", bool(paused) and "Paused" in therapist.execute_script(
                "return document.getElementById('watch-status').textContent"))
        therapist.find_element(By.ID, "pause").click()  # now "Resume the set"
        resumed = wait(patient, "return window.ptcoach.state.therapist.some(m => m.command === 'resume')", 15,
                       "the resume on the patient's page")
        sent = patient.execute_script("return window.ptcoach.state.framesSent")
        check("frames sent again once resumed", bool(resumed) and wait(
            patient, f"return window.ptcoach.state.framesSent > {sent}", 10, "frames after the resume") is not None)

        # The count rises on the therapist's screen while the patient exercises.
        counts = []
        camera_time = lambda: patient.execute_script("return document.getElementById('video').currentTime")
        while camera_time() < pass_seconds - 0.5 and time.time() - started < pass_seconds + 60:
            reps = therapist.execute_script("return window.ptcoachWatch.reps")
            if not counts or counts[-1] != reps:
                counts.append(reps)
            time.sleep(0.1)
        if args.screenshot:
            therapist.save_screenshot(str(args.screenshot))
            print(f"INFO watch page screenshot {args.screenshot}")
        patient.find_element(By.ID, "end-set").click()
        state = wait(patient, "return window.ptcoach.state.summary && window.ptcoach.state", 60, "the patient's summary")
        if not state:
            return
        reps = state["summary"].get("reps")
        check("patient's set counted", isinstance(reps, int) and abs(reps - expected_reps) <= 1,
              f"{reps} counted, {expected_reps} labelled")
        watch = wait(therapist, "return window.ptcoachWatch.summary && window.ptcoachWatch", 30, "the watcher's summary")
        if not watch:
            return
        check("the count rose on the therapist's screen", len(counts) >= 3 and counts == sorted(counts),
              f"counts seen {counts}")
        check("therapist's count is the patient's", watch["summary"]["summary"]["reps"] == reps
              and len(watch["repetitions"]) == reps, f"{watch['summary']['summary']['reps']} and a table of "
              f"{len(watch['repetitions'])}, the patient {reps}")
        rows = therapist.execute_script("return document.querySelectorAll('#rep-table tbody tr').length")
        check("repetition table shown", rows == reps, f"{rows} rows")

        # Numbers only.
        frames = watch["types"].get("frame", 0)
        answered = state["framesAnswered"]
        check("frames relayed, at most 15 a second", 10 < frames <= answered,
              f"{frames} frames watched of {answered} the patient's page got")
        check("nothing but text", watch["binary"] == 0, f"{watch['binary']} binary messages")
        check("only the documented messages", set(watch["types"]) <= WATCH_TYPES, str(watch["types"]))
        keys = set(watch["keys"]) - {"name", "code", "message", "command", "text", "from"}
        check("only the documented fields", keys <= FRAME_KEYS | SET_KEYS | SUMMARY_KEYS, str(sorted(keys)))
        check("no message big enough to be a picture", watch["maxBytes"] < 20000, f"largest {watch['maxBytes']} bytes")

        sent = {int(k): v for k, v in state["sentAt"].items()}
        delays = [s["at"] - sent[s["id"]] for s in watch["shown"] if s["id"] in sent]
        check("frames paired by id", len(delays) > 10, f"{len(delays)} pairs")
        if delays:
            print(f"INFO delay capture → therapist's screen ({'two instances' if args.postgres else 'one instance'}): "
                  f"p50 {percentile(delays, 50)} ms, p95 {percentile(delays, 95)} ms over {len(delays)} frames")
        therapist_learns(therapist, therapist_server, args)
        severe = [e["message"] for d in (patient, therapist) for e in d.get_log("browser")
                  if e["level"] == "SEVERE" and "favicon" not in e["message"]]
        check("no browser errors", not severe, "; ".join(severe)[:600])
    finally:
        patient.quit()
        therapist.quit()


def therapist_learns(driver, server, args):
    """The clinic page learns an exercise from the demonstration video and draws its preview (docs/learn.md)."""
    from selenium.webdriver.common.by import By
    driver.get(server.url + "/clinic.html")
    if not wait(driver, "return !document.getElementById('learn-panel').hidden", 15, "the learning panel"):
        return
    driver.find_element(By.ID, "learn-name").send_keys("Pull-up from the demo")
    driver.find_element(By.ID, "learn-video").send_keys(str(args.video_path))
    driver.find_element(By.ID, "learn-submit").click()
    learned = wait(driver, "const l = window.ptcoach.learn; return (l.result || l.error) && l", 180,
                   "the demonstration learned")
    if not check("an exercise learned from the video", bool(learned) and learned["result"] is not None,
                 str(learned and learned["error"])):
        return
    definition, preview = learned["result"]["definition"], learned["result"]["preview"]
    check("the learned angle is the elbow's", definition["primary"] == "elbowFlexion", definition["primary"])
    check("the preview's skeleton drawn with the band", learned["drawn"] and preview["state"]["target"] is not None,
          f"target {preview['state']['target']}, angle {preview['state']['angle']}")
    offered = wait(driver, "return window.ptcoach.clinic.library.some(e => e.id === 'pull-up-from-the-demo')", 15,
                   "the learned exercise offered to programmes")
    check("offered to programmes", bool(offered))
    if args.screenshot:
        path = args.screenshot.with_name(args.screenshot.stem + "-learn" + args.screenshot.suffix)
        driver.find_element(By.ID, "learn-panel").screenshot(str(path))
        print(f"INFO learning panel screenshot {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--postgres", help="a PostgreSQL URL to make a database on: two instances, one each")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--video", type=Path, help="default: SHARED/data/videos/calimiro/pull-up_14.mp4")
    parser.add_argument("--exercise", default="pull-up")
    parser.add_argument("--screenshot", type=Path, default=Path(tempfile.gettempdir()) / "ptcoach-watch.png")
    args = parser.parse_args()
    video = (args.video or args.shared / "data/videos/calimiro/pull-up_14.mp4").resolve()
    for tool in ("ffmpeg", "ffprobe", CHROMIUM, CHROMEDRIVER):
        if not shutil.which(tool):
            die(f"{tool} not found: apt-get install -y chromium chromium-driver ffmpeg")
    if not args.server_binary.exists():
        die(f"no server binary at {args.server_binary}: swift build --product ptcoach")
    if not video.exists():
        die(f"no video at {video}")
    expected_reps = labelled_reps(args.shared / "data/videos/labels.csv", video)
    args.video_path = video
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-watch-"))
    servers = []
    try:
        y4m = tmp / "camera.y4m"
        # The first frame held 10 s (the therapist connects, sends a message, pauses and resumes before the first
        # pull-up), the video, its last frame held 1 s; 640 pixels wide.
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(video), "-an", "-vf",
                        "scale=640:-2,tpad=start_duration=10:start_mode=clone:stop_duration=1:stop_mode=clone",
                        "-pix_fmt", "yuv420p", str(y4m)], check=True)
        pass_seconds = video_seconds(y4m)
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height",
                                "-of", "csv=p=0", str(y4m)], check=True, capture_output=True, text=True).stdout
        args.camera_size = [int(v) for v in probe.strip().split(",")[:2]]
        binary = str(args.server_binary.resolve())
        if args.postgres:
            from test_two_instances import fresh_database
            database = fresh_database(args.postgres)
            store = ["--postgres", database]
        else:
            store = ["--data-directory", str(tmp / "data")]
        add = subprocess.run([binary, "users", "add", "--role", "therapist", "--name", THERAPIST[2], "--login",
                              THERAPIST[0], "--password-stdin"] + store, input=THERAPIST[1] + "\n",
                             capture_output=True, text=True)
        if not check("therapist added", add.returncode == 0, add.stderr.strip()):
            return 1
        for k in range(2 if args.postgres else 1):
            extra = store if args.postgres else []
            servers.append(Server(binary, tmp / "data", tmp / f"server{k}.log", extra=extra))
        for server in servers:
            problem = server.wait_healthy()
            if not check("server healthy", problem is None, problem or server.url):
                return 1
        run(args, servers[0], servers[-1], y4m, pass_seconds, expected_reps)
    finally:
        for server in servers:
            status = server.stop()
            check("server stops on SIGTERM with status 0", status == 0, f"status {status}")
            if failures:
                print("INFO server log (last lines):\n" + server.tail())
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"FAILED: {', '.join(failures)}" if failures else "OK: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
