#!/usr/bin/env python3
"""The live coach's matrix (issue 27's evidence): the same real videos through the real page, several times.

    python3 scripts/live-matrix.py --server-binary .build/release/ptcoach [--runs 3] [--hog-run 3] [--out /tmp/ptcoach-matrix]
        [--only squat_17,push-up_9]

For each clip (a squat, a push-up and a pull-up of ../shared/data/videos/calimiro, a hand exercise) and each mode
(exercise given on a free set, exercise recognised, a programme set of a patient who joined with an invitation
code; the hand: given and programme), the clip is played once through Chromium's fake camera into the coaching
page, `--runs` times; during run `--hog-run` two CPU-bound processes (`yes > /dev/null`) run beside the server and
the browser. Recorded per run: the count (the summary's), the exercise, the frames answered, every set-up sentence
the page showed while a person was drawn between the first and the last repetition, in large type (a failure) or
as the small line at the bottom (listed and flagged: a small line may be true, a person judges it) (the
`setupShown` log of the page's test hook), the longest stretch of capture time without a measured frame in the set
the server saved (a browser that stalls under load sends none for a while: a repetition then is not in the input),
and two screenshots (mid-set and summary).

Then a UI-PRMD-style rehab movement (a pose-track of ../shared/data/pose-tracks/ui-prmd) goes through the socket as
keypoint frames, sent as fast as the server answers and paced at real time beside two CPU-bound processes: the
events must be identical.

Prints a Markdown table and writes it with the raw results (results.json) into --out. Exit status 1 when the
counts of a clip and mode differ between runs, when a large set-up sentence covered a person between repetitions,
or when the keypoint events differ; 2 when it could not run.
"""

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests/browser"))
from test_live_page import (PAD_END, REPO, Server, die, labelled_reps, launch_browser, make_camera,  # noqa: E402
                            open_page, screenshot_page, video_seconds)

THERAPIST = ("matrix@clinic.example", "correct horse battery staple")
CLIPS = [  # (video under videos/, exercise, hand)
    ("calimiro/squat_17.mp4", "squat", False),
    ("calimiro/push-up_12.mp4", "push-up", False),
    ("calimiro/pull-up_9.mp4", "pull-up", False),
    ("hands/fist_hetavshah1_reference.mp4", "finger-flexion", True),
]
REHAB_TRACK = "ui-prmd/m02_s01_front.jsonl"


def request(url, method="GET", body=None, headers=None, cookie=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json",
                                                                        **(headers or {})})
    if cookie:
        req.add_header("Cookie", cookie)
    with urllib.request.urlopen(req, timeout=20) as r:
        return r.status, json.loads(r.read() or b"null"), r.headers.get("Set-Cookie")


class Therapist:
    """The clinic side of a programme run, over the JSON API: a patient with one item, and its invitation code."""

    def __init__(self, server):
        self.url = server.url
        _, _, cookie = request(f"{self.url}/api/login", "POST", {"login": THERAPIST[0], "password": THERAPIST[1]})
        self.cookie = cookie.split(";", 1)[0]
        _, me, _ = request(f"{self.url}/api/me", cookie=self.cookie)
        self.csrf = me["csrfToken"]

    def patient_with(self, name, exercise, reps):
        h = {"X-CSRF-Token": self.csrf}
        _, patient, _ = request(f"{self.url}/api/patients", "POST", {"name": name}, h, self.cookie)
        item = {"exercise": exercise, "sets": 3, "reps": reps, "restSeconds": 30, "note": ""}
        request(f"{self.url}/api/patients/{patient['id']}/programme", "PUT",
                {"daysPerWeek": 3, "items": [item]}, h, self.cookie)
        return patient["invitation"]["code"]


SETUP_LOG = """
  const hook = window.ptcoach.state;
  hook.setupShown = [];
  const position = document.getElementById('position'), text = document.getElementById('setup-text');
  new MutationObserver(() => {
    const shown = !position.hidden, big = shown && !position.classList.contains('line');
    const said = shown ? text.textContent : '';
    const last = hook.setupShown.at(-1);
    const video = document.getElementById('video').currentTime;
    if (said && (!last || last.text !== said || last.big !== big))
      hook.setupShown.push({text: said, big, reps: hook.reps, pose: hook.posesDrawn + hook.handsDrawn, video});
    if (!said && last && last.until === undefined) last.until = video;  // taken down
  }).observe(document.getElementById('stage'), {subtree: true, childList: true, attributes: true, characterData: true});
"""


def one_run(args, server, therapist, y4m, pass_seconds, clip, mode, run, shots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    video, exercise, hand = clip
    driver = launch_browser(y4m)
    try:
        if mode == "programme":
            code = therapist.patient_with(f"Matrix {Path(video).stem} {run}", exercise, args.labels[video])
            open_page(driver, server.url)
            status = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch('/api/join', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify(arguments[0])}).then(r => done(r.status)).catch(e => done(String(e)));",
                {"code": code, "login": f"matrix{run}{abs(hash(video)) % 10000}{mode[:2]}", "password": "a long passphrase ok"})
            if status != 200:
                return {"error": f"join answered {status}"}
            driver.get(server.url + "/?item=0")
            deadline = time.time() + 15
            while time.time() < deadline and not driver.execute_script(
                    "const b = document.getElementById('programme-banner'); return b && !b.hidden"):
                time.sleep(0.1)
            if not driver.execute_script("return !document.getElementById('programme-banner').hidden"):
                return {"error": "the programme's set was not offered on /?item=0"}
        else:
            open_page(driver, server.url)
            Select(driver.find_element(By.ID, "exercise")).select_by_value(exercise if mode == "given" else "")
        if hand and driver.find_element(By.ID, "pinch-start").is_selected():
            driver.find_element(By.ID, "pinch-start").click()  # started by the button, as test_hand_page's fist set
        driver.execute_script(SETUP_LOG)
        driver.find_element(By.ID, "start-camera").click()
        started = time.time()
        camera_time = lambda: driver.execute_script("return document.getElementById('video').currentTime")
        shot = False
        while camera_time() < pass_seconds - PAD_END / 2 and time.time() - started < pass_seconds + 40:
            if not shot and camera_time() >= pass_seconds * 0.55:
                driver.save_screenshot(str(shots / f"{Path(video).stem}-{mode}-{run}-mid.png"))
                shot = True
            time.sleep(0.05)
        driver.find_element(By.ID, "end-set").click()
        deadline = time.time() + 60
        state = None
        while time.time() < deadline:
            state = driver.execute_script("return window.ptcoach.state")
            if state and state.get("summary") is not None:  # {} when nothing was coached
                break
            time.sleep(0.2)
        if not state or state.get("summary") is None:
            screenshot_page(driver, shots / f"{Path(video).stem}-{mode}-{run}-no-summary.png")
            shown = driver.execute_script("const e = document.getElementById('error'); return e.hidden ? '' : e.textContent")
            return {"error": f"no summary in 60 s after End set {shown}".strip()}
        screenshot_page(driver, shots / f"{Path(video).stem}-{mode}-{run}-summary.png")
        summary = state["summary"]
        reps = summary.get("reps")
        # Repetition end times, in the video's seconds: set-up sentences between the first and the last count.
        between = [s for s in state.get("setupShown", []) if s["pose"] > 0 and 1 <= s["reps"] < (reps or 0)]
        banners = [s for s in between if s.get("big", True)]
        lines = [s for s in between if not s.get("big", True)]
        link = driver.execute_script("return document.getElementById('report-html').getAttribute('href') || ''")
        return {"reps": reps, "exercise": summary.get("exercise"), "answered": state["framesAnswered"],
                "gap": largest_gap(args.data, link.split("/api/sessions/")[-1].split("/")[0]),
                "sent": state["framesSent"], "banners": banners, "lines": lines, "allSetup": state.get("setupShown", [])}
    finally:
        driver.quit()


def largest_gap(data, set_id):
    """The longest stretch, in capture seconds, without a measured frame in the set's saved angle series (10-Hz
    samples of the frames the server got with a person in them): a browser that stalls sends no frame for a while,
    and a repetition in that stretch cannot be counted by any coach. None when the set is not found."""
    import sqlite3
    try:
        with sqlite3.connect(data / "ptcoach.sqlite") as db:
            row = db.execute("SELECT angleSeriesJSON FROM liveSet WHERE id = ?", (set_id,)).fetchone()
    except sqlite3.Error:
        return None
    times = [sample[0] for sample in json.loads(row[0] or "[]")] if row else []
    return round(max((b - a for a, b in zip(times, times[1:])), default=0.0), 2) if times else None


def hog():
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]


async def keypoint_events(url, track, paced):
    import websockets
    lines = Path(track).read_text().splitlines()
    header, frames = json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]
    start = {"type": "start", "input": "keypoints", "exercise": header.get("labels", {}).get("exercise"),
             "keypoints": header["keypoints"], "width": header.get("width"), "height": header.get("height")}
    if header.get("dimensions"):
        start["dimensions"] = header["dimensions"]
    events = []
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps(start))
        ready = json.loads(await ws.recv())
        if ready.get("type") != "ready":
            raise RuntimeError(f"no ready: {ready}")
        t0 = time.monotonic()
        for i, frame in enumerate(frames):
            if paced:
                await asyncio.sleep(max(0.0, frame["t"] - frames[0]["t"] - (time.monotonic() - t0)))
            await ws.send(json.dumps({"type": "frame", "id": i + 1, **frame}))
            if not paced:  # as fast as the server answers: one frame in flight
                while True:
                    message = json.loads(await ws.recv())
                    events += message.get("events", []) if message.get("type") == "frame" else []
                    if message.get("type") == "frame" and message.get("id") == i + 1:
                        break
        await ws.send(json.dumps({"type": "end"}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message.get("type") == "frame":
                events += message.get("events", [])
            if message.get("type") == "summary":
                return events + message.get("events", []), message.get("dropped"), message["summary"].get("reps")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/release/ptcoach")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hog-run", type=int, default=3, help="the run (1-based) with two `yes` beside it; 0: none")
    parser.add_argument("--out", type=Path, default=Path("/tmp/ptcoach-matrix"))
    parser.add_argument("--only", default="", help="comma-separated video stems")
    parser.add_argument("--modes", default="given,recognised,programme")
    args = parser.parse_args()
    if not args.server_binary.exists():
        die(f"no server binary at {args.server_binary}: swift build -c release --product ptcoach")
    videos = args.shared / "data/videos"
    clips = [c for c in CLIPS if not args.only or Path(c[0]).stem in args.only.split(",")]
    args.labels = {}
    for video, _, hand in clips:
        labels = videos / ("hands/labels.csv" if hand else "labels.csv")
        args.labels[video] = labelled_reps(labels, videos / video) if not hand else hand_reps(labels, video)
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-matrix-"))
    data = args.data = tmp / "data"
    add = subprocess.run([str(args.server_binary), "users", "add", "--role", "therapist", "--name", "Dr Matrix",
                          "--login", THERAPIST[0], "--password-stdin", "--data-directory", str(data)],
                         input=THERAPIST[1] + "\n", capture_output=True, text=True)
    if add.returncode != 0:
        die(f"ptcoach users add: {add.stdout}{add.stderr}")
    server = Server(args.server_binary.resolve(), data, tmp / "server.log")
    results, failed = [], []
    try:
        problem = server.wait_healthy()
        if problem:
            die(f"server: {problem}")
        therapist = Therapist(server)
        for clip in clips:
            video, exercise, hand = clip
            y4m = tmp / "camera.y4m"
            make_camera(videos / video, y4m)
            pass_seconds = video_seconds(y4m)
            modes = [m for m in args.modes.split(",") if not (hand and m == "recognised")]
            for mode in modes:
                row = {"clip": Path(video).stem, "exercise": exercise, "mode": mode, "labelled": args.labels[video],
                       "runs": []}
                for run in range(1, args.runs + 1):
                    hogs = hog() if run == args.hog_run else []
                    try:
                        result = one_run(args, server, therapist, y4m, pass_seconds, clip, mode, run, args.out)
                    finally:
                        for p in hogs:
                            p.send_signal(signal.SIGTERM)
                            p.wait()
                    result["hog"] = bool(hogs)
                    row["runs"].append(result)
                    print(f"{row['clip']} {mode} run {run}{' (CPU hog)' if hogs else ''}: "
                          f"{result.get('reps', result.get('error'))} reps, {result.get('answered')}/{result.get('sent')}"
                          f" answered, largest gap {result.get('gap')} s, banners {[b['text'] for b in result.get('banners', [])]},"
                          f" small lines {[b['text'] for b in result.get('lines', [])]}",
                          flush=True)
                counts = {r.get("reps") for r in row["runs"]}
                row["same"] = len(counts) == 1 and None not in counts
                row["banner_free"] = all(not r.get("banners") for r in row["runs"])
                if not row["same"] or not row["banner_free"]:
                    failed.append(f"{row['clip']} {mode}")
                results.append(row)
            y4m.unlink()
        rehab = keypoint_rows(args, server)
        if rehab and not rehab["same"]:
            failed.append("rehab keypoints")
    finally:
        server.stop()
        if not failed:
            shutil.rmtree(tmp, ignore_errors=True)  # kept when a row failed: the server log and the sets saved
        else:
            print(f"INFO the server's log and database: {tmp}")
    table = ["| clip | exercise | mode | labelled | counts (run 1, 2, 3; hog marked *; largest gap without a frame, s) "
             "| same | large set-up line between reps | small set-up line between reps |",
             "|---|---|---|---|---|---|---|---|"]
    for row in results:
        counts = ", ".join(f"{r.get('reps', 'ERR')}{'*' if r['hog'] else ''} ({r.get('gap')})" for r in row["runs"])
        banners = "; ".join(sorted({b["text"] for r in row["runs"] for b in r.get("banners", [])})) or "none"
        shown_for = lambda b: f", {b['until'] - b['video']:.2f} s" if b.get("until") is not None else ", to the end"
        lines = "; ".join(sorted({f"{b['text']} (run {i + 1}, at rep {b['reps']}{shown_for(b)})"
                                  for i, r in enumerate(row["runs"]) for b in r.get("lines", [])})) or "none"
        table.append(f"| {row['clip']} | {row['exercise']} | {row['mode']} | {row['labelled']} | {counts} | "
                     f"{'yes' if row['same'] else 'NO'} | {banners} | {lines} |")
    if rehab:
        table.append(f"| {Path(REHAB_TRACK).stem} (keypoints) | {rehab['exercise']} | fast vs real-time beside a CPU hog | — | "
                     f"{rehab['reps']} | {'identical events' if rehab['same'] else 'EVENTS DIFFER'} | — | — |")
    text = "\n".join(table)
    print(text)
    (args.out / "table.md").write_text(text + "\n")
    (args.out / "results.json").write_text(json.dumps({"rows": results, "rehab": rehab}, indent=1))
    flagged = [f"{row['clip']} {row['mode']}" for row in results if any(r.get("lines") for r in row["runs"])]
    if flagged:  # a small line may be true (a knee that did leave the picture): listed for a person to judge
        print(f"FLAGGED small set-up lines between reps: {', '.join(flagged)}")
    print(f"FAILED: {', '.join(failed)}" if failed else "OK: counts equal across runs, no large set-up line between reps")
    return 1 if failed else 0


def hand_reps(labels_csv, video):
    import csv
    with open(labels_csv, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("file", "").endswith(Path(video).name):
                for key in ("reps_labelled", "reps_by_eye", "reps"):
                    if row.get(key):
                        return int(row[key])
    return None


def keypoint_rows(args, server):
    track = args.shared / "data/pose-tracks" / REHAB_TRACK
    if not track.exists():
        print(f"INFO no {track}: the keypoint check is skipped")
        return None
    url = server.url.replace("http", "ws") + "/live"
    fast = asyncio.run(keypoint_events(url, track, paced=False))
    hogs = hog()  # real time with two CPU-bound processes beside the server
    try:
        paced = asyncio.run(keypoint_events(url, track, paced=True))
    finally:
        for p in hogs:
            p.send_signal(signal.SIGTERM)
            p.wait()
    strip = lambda events: json.dumps(events, sort_keys=True)
    same = strip(fast[0]) == strip(paced[0])
    print(f"rehab {track.name}: fast {fast[2]} reps ({len(fast[0])} events, {fast[1]} dropped), "
          f"real-time beside a CPU hog {paced[2]} reps ({len(paced[0])} events, {paced[1]} dropped): {'identical' if same else 'DIFFER'}")
    exercise = json.loads(track.read_text().splitlines()[0]).get("labels", {}).get("exercise")
    return {"exercise": exercise, "reps": f"{fast[2]} / {paced[2]}", "same": same and fast[1] == 0}


if __name__ == "__main__":
    sys.exit(main())
