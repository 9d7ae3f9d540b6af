#!/usr/bin/env python3
"""End-to-end test of a hand exercise on the live coaching page (Chromium + Selenium, a hand video as the camera).

    python3 Tests/browser/test_hand_page.py --server-binary .build/debug/ptcoach [--screenshot /tmp/ptcoach-hands.png]

Two sets against `ptcoach serve` (the hand model through the server's hand estimator, as a patient's camera would
give it), each in its own headless Chromium whose camera is a real video:

1. `finger-flexion` on ../shared/data/videos/hands/fist_hetavshah1_reference.mp4 (one fist, palm to the camera),
   started at once: hand keypoints must come back and be drawn, and the count must reach the labelled 1.
2. `thumb-opposition` on thumb-opposition_wakeexer_kapandji.mp4, started with a pinch: the first opposition
   (thumb to index, touching about 2.2–2.7 s into the video) must show the pinch's evidence building (orange tips)
   and then pinched (green tips, read back from the canvas), and the server must start the set, in the video's
   first pass (the gestures are timed by the frames' capture times, whatever frames the server had time for).

One line per check; exit status 1 when a check failed, 2 when the test could not run. The helpers are those of
test_live_page.py (same folder). The videos are not ours to redistribute: the Y4M files are made in a temporary
folder and deleted afterwards.
"""

import argparse
import base64
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_live_page as live  # noqa: E402
from test_live_page import PAD_END, PAD_START, check, hook, wait_for  # noqa: E402

REPO = live.REPO


def start_set(driver, server, exercise, start_on_pinch):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    live.open_page(driver, server.url)
    Select(driver.find_element(By.ID, "exercise")).select_by_value(exercise)
    box = driver.find_element(By.ID, "pinch-start")
    check(f"{exercise}: the pinch option is offered", box.is_displayed())
    if box.is_selected() != start_on_pinch:
        box.click()
    driver.find_element(By.ID, "start-camera").click()
    started = time.time()
    first = wait_for(driver, lambda s: s["framesAnswered"] > 0, 30)
    check(f"{exercise}: camera set starts", first is not None,
          f"first answer after {time.time() - started:.1f} s" if first else f"none in 30 s; {live.error_text(driver)}")
    return first is not None


def camera_time(driver):
    return driver.execute_script("return document.getElementById('video').currentTime")


def end_set(driver):
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "end-set").click()
    return wait_for(driver, lambda s: s["summary"] is not None, 60)


def fist_set(server, y4m, pass_seconds, screenshot):
    driver = live.launch_browser(y4m)
    try:
        if not start_set(driver, server, "finger-flexion", start_on_pinch=False):
            return
        shot_at = PAD_START + 1.6  # the fist is held 1.1–2.25 s into the video
        shot = False
        while camera_time(driver) < pass_seconds - PAD_END / 2:
            if not shot and camera_time(driver) >= shot_at and hook(driver)["handsDrawn"] > 0:
                driver.save_screenshot(str(screenshot))
                shot = True
            time.sleep(0.05)
        check("finger-flexion: mid-set screenshot", shot, str(screenshot) if shot else "no hand drawn by then")
        reps_live = hook(driver)["reps"]
        state = end_set(driver)
        if not check("finger-flexion: summary arrives", state is not None, live.error_text(driver)):
            return
        summary = state["summary"]
        print(f"INFO frames sent {state['framesSent']}, answered {state['framesAnswered']}; "
              f"status: {driver.find_element('id', 'status').text}")
        check("finger-flexion: hand keypoints received and drawn",
              state["handsReceived"] >= 1 and state["handsDrawn"] > 10,
              f"up to {state['handsReceived']} hand(s) a frame, drawn in {state['handsDrawn']} frames")
        check("finger-flexion: the count reaches 1", reps_live == 1 and summary.get("reps") == 1,
              f"{reps_live} shown live, {summary.get('reps')} in the summary; 1 labelled")
        spoken = driver.execute_script("return window.__spoken")
        check("finger-flexion: cue spoken", len(spoken) >= 1, f"{spoken[:5]}")
        check("finger-flexion: no error shown", not live.error_text(driver), live.error_text(driver))
        summary_path = screenshot.with_name(screenshot.stem + "-summary" + screenshot.suffix)
        live.screenshot_page(driver, summary_path)
        print(f"INFO summary screenshot {summary_path}")
    finally:
        driver.quit()


def pinch_set(server, y4m, screenshot):
    driver = live.launch_browser(y4m)
    try:
        if not start_set(driver, server, "thumb-opposition", start_on_pinch=True):
            return
        idle = hook(driver)["setStates"]
        check("thumb-opposition: the set waits for a pinch", idle[:1] == ["idle"], f"set states {idle}")
        # The first opposition, thumb to index, touches at about 2.2–2.7 s of the video: timed by the frames' capture
        # times, the pinch must start the set then, the first time, whichever frames the page and the server had
        # time for. Waited for until the camera is past it (and at most 60 s of wall clock for a slow start).
        # A server slow to load the hand model answers its first frame late; then the pinch awaited is the first
        # one after that (the camera loops the video).
        ready_at, touch, loop = camera_time(driver), PAD_START + 2.2, PAD_START + 17.5 + PAD_END
        while touch - 0.3 < ready_at:
            touch += loop
        print(f"INFO first answer at camera time {ready_at:.2f} s; the pinch awaited at {touch:.2f} s")
        first_pass_end = touch + 1.1
        deadline = time.time() + first_pass_end - ready_at + 60
        state = None
        while time.time() < deadline:
            current = hook(driver)
            if current and current["pinchedPixel"] is not None:
                state = current
                break
            if camera_time(driver) > first_pass_end:
                break
            time.sleep(0.05)
        pinched_at = camera_time(driver)
        check("thumb-opposition: pinched in the video's first pass", state is not None,
              f"at camera time {pinched_at:.2f} s" if state
              else f"not by camera time {pinched_at:.2f} s (the pinch is at {touch:.1f}–{touch + 0.5:.1f} s)")
        if state:
            driver.save_screenshot(str(screenshot))
            # The canvas as drawn at the first pinched answer (the page moves on before a screenshot is taken).
            frame = screenshot.with_name(screenshot.stem + "-frame.png")
            frame.write_bytes(base64.b64decode(state["pinchedFrame"].split(",", 1)[1]))
            print(f"INFO pinched frame {frame}")
        state = state or hook(driver)
        gestures, pixel = state["gestures"], state["pinchedPixel"]
        print(f"INFO pinch at camera time {camera_time(driver):.2f} s; gesture states {gestures}; "
              f"set states {state['setStates']}")
        check("thumb-opposition: the pinch's evidence builds, then pinched",
              "possiblePinch" in gestures and "pinched" in gestures
              and gestures.index("possiblePinch") < gestures.index("pinched"), f"{gestures}")
        check("thumb-opposition: the index tip is drawn green when pinched",
              pixel is not None and pixel[1] > 170 and pixel[0] < 120 and pixel[2] < 190, f"rgb {pixel}")
        check("thumb-opposition: the pinch started the set", "running" in state["setStates"], f"{state['setStates']}")
        spoken = driver.execute_script("return window.__spoken")
        check("thumb-opposition: the start is spoken", "Set started" in spoken, f"{spoken[:5]}")
        state = end_set(driver)
        check("thumb-opposition: summary arrives", state is not None,
              f"{state['summary'].get('reps')} reps" if state else live.error_text(driver))
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--screenshot", type=Path, default=Path("/tmp/ptcoach-hands.png"),
                        help="the fist mid-set; NAME-summary.png and NAME-pinch.png go beside it")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--skip-pinch", action="store_true", help="only the finger-flexion set")
    args = parser.parse_args()
    videos = args.shared / "data/videos/hands"
    fist = videos / "fist_hetavshah1_reference.mp4"
    kapandji = videos / "thumb-opposition_wakeexer_kapandji.mp4"
    for tool in ("ffmpeg", "ffprobe", live.CHROMIUM, live.CHROMEDRIVER):
        if not shutil.which(tool):
            live.die(f"{tool} not found: apt-get install -y chromium chromium-driver ffmpeg")
    try:
        import selenium  # noqa: F401
    except ImportError:
        live.die("selenium is not installed: pip install selenium")
    if not args.server_binary.exists():
        live.die(f"no server binary at {args.server_binary}: swift build --product ptcoach")
    for video in (fist, kapandji):
        if not video.exists():
            live.die(f"no video at {video}")

    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-hands-"))
    server = None
    try:
        fist_y4m, kapandji_y4m = tmp / "fist.y4m", tmp / "kapandji.y4m"
        live.make_camera(fist, fist_y4m, scale="640:480")
        live.make_camera(kapandji, kapandji_y4m, scale="640:-2")
        server = live.Server(args.server_binary.resolve(), tmp / "data", tmp / "server.log")
        problem = server.wait_healthy()
        if not check("server healthy", problem is None, problem or server.url):
            print(server.tail())
            return 1
        exercises = live.get_json(f"{server.url}/api/exercises")
        hands = [e["id"] for e in exercises if e.get("hand")]
        check("hand exercises listed", "finger-flexion" in hands and "thumb-opposition" in hands, f"{hands}")
        fist_set(server, fist_y4m, live.video_seconds(fist_y4m), args.screenshot)
        if not args.skip_pinch:
            pinch_set(server, kapandji_y4m, args.screenshot.with_name(args.screenshot.stem + "-pinch.png"))
    finally:
        if server:
            status = server.stop()
            check("server stops on SIGTERM with status 0", status == 0,
                  "killed after 20 s" if status is None else f"status {status}")
            if live.failures:
                print("INFO server log (last lines):\n" + server.tail())
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"FAILED: {', '.join(live.failures)}" if live.failures else "OK: all checks passed")
    return 1 if live.failures else 0


if __name__ == "__main__":
    sys.exit(main())
