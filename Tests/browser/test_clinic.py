#!/usr/bin/env python3
"""End-to-end test of the clinic in a real browser (Chromium + Selenium, a real video as the patient's camera).

    python3 Tests/browser/test_clinic.py --server-binary .build/debug/ptcoach [--screenshots /tmp/ptcoach-clinic]

A therapist made with `ptcoach users add` logs in, adds a patient (named with HTML, which must show as text),
writes a programme (squat, 2 sets of the video's labelled repetitions), and gets an invitation code. The patient
joins with the code, starts set 1 of 2 from their programme, does it with the fake camera fed by
../shared/data/videos/calimiro/squat_17.mp4, rates pain and difficulty, and sees the rest timer. The therapist
logs in again and sees the session, its repetitions, the pain, the adherence (1 day this week) and the audit log;
the FHIR export is validated with fhir.resources (R4B) when it is installed. Screenshots go to --screenshots.
One line per check; exit status 1 when a check failed, 2 when the test could not run.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_live_page import (REPO, PAD_END, Server, check, die, failures, labelled_reps, launch_browser,  # noqa: E402
                            make_camera, screenshot_page, video_seconds)

THERAPIST = ("ada@clinic.example", "correct horse battery staple")
PATIENT = ("pat.one", "another long passphrase")
HOSTILE_NAME = '<img src=x onerror="window.__xss=1">Pat <b>One</b>'


def wait(driver, script, timeout, step=0.1):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(step)
    return None


def visible_text(driver, element_id):
    return driver.execute_script(f"const e = document.getElementById('{element_id}'); return e && !e.hidden ? e.innerText : ''")


def login(driver, url, login_name, password):
    from selenium.webdriver.common.by import By
    driver.get(url + "/clinic.html")
    wait(driver, "return !document.getElementById('login-panel').hidden", 10)
    driver.find_element(By.ID, "login").send_keys(login_name)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    return wait(driver, "return window.ptcoach.clinic.me && window.ptcoach.clinic.me.role", 15)


def logout(driver):
    from selenium.webdriver.common.by import By
    driver.find_element(By.ID, "logout").click()
    wait(driver, "return !document.getElementById('login-panel').hidden", 10)


def fetch_text(driver, path):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('{path}').then(r => r.text().then(t => done([r.status, t]))).catch(e => done([0, String(e)]));")


def therapist_sets_up(driver, server, shots, reps):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    role = login(driver, server.url, *THERAPIST)
    if not check("therapist logs in", role == "therapist", str(role)):
        return None
    driver.find_element(By.ID, "patient-name").send_keys(HOSTILE_NAME)
    driver.find_element(By.CSS_SELECTOR, "#add-patient button[type=submit]").click()
    code = wait(driver, "const c = document.querySelector('#invitation .code'); return c && c.textContent", 10)
    check("invitation code shown", bool(code) and len(code) == 10, str(code))
    row = wait(driver, "const r = document.querySelector('#patients-table tbody tr a'); return r && r.textContent", 10)
    check("a name with HTML shows as text", row == HOSTILE_NAME and driver.execute_script("return window.__xss") is None,
          f"row text {row!r}, __xss {driver.execute_script('return window.__xss')}")
    driver.find_element(By.CSS_SELECTOR, "#patients-table tbody tr a").click()
    wait(driver, "return !document.getElementById('patient-panel').hidden", 10)
    row = driver.find_element(By.CSS_SELECTOR, "#programme-table tbody tr")
    Select(row.find_element(By.NAME, "exercise")).select_by_value("squat")
    for name, value in (("sets", "2"), ("reps", str(reps)), ("restSeconds", "20"), ("targetMin", "60"),
                        ("targetMax", "120"), ("note", "Slow on the way down")):
        field = row.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    driver.find_element(By.ID, "days").clear()
    driver.find_element(By.ID, "days").send_keys("3")
    driver.find_element(By.CSS_SELECTOR, "#programme-form button[type=submit]").click()
    saved = wait(driver, "const t = document.getElementById('programme-status').textContent; return t.startsWith('Saved') && t", 10)
    check("programme saved", bool(saved), str(saved) or visible_text(driver, "programme-status"))
    screenshot_page(driver, shots / "1-therapist-programme.png")
    logout(driver)
    return code


def patient_does_a_set(driver, server, shots, code, pass_seconds, expected_reps):
    from selenium.webdriver.common.by import By
    driver.get(f"{server.url}/clinic.html#join={code}")
    wait(driver, "return document.getElementById('join-code').value", 10)
    driver.find_element(By.ID, "join-login").send_keys(PATIENT[0])
    driver.find_element(By.ID, "join-password").send_keys(PATIENT[1])
    driver.find_element(By.CSS_SELECTOR, "#join-form button[type=submit]").click()
    role = wait(driver, "return window.ptcoach.clinic.me && window.ptcoach.clinic.me.role", 15)
    if not check("patient joins with the code", role == "patient", str(role) + " " + visible_text(driver, "error")):
        return
    start = wait(driver, "const a = document.querySelector('#programme-view a.button-link'); return a && a.href", 10)
    check("patient sees the programme", bool(start), visible_text(driver, "programme-view")[:200])
    screenshot_page(driver, shots / "2-patient-programme.png")
    driver.find_element(By.CSS_SELECTOR, "#programme-view a.button-link").click()
    banner = wait(driver, "const b = document.getElementById('programme-banner'); return !b.hidden && b.innerText", 15)
    check("live page shows set 1 of 2", bool(banner) and "set 1 of 2" in banner, repr(banner))
    driver.execute_script("window.__spoken = []; speechSynthesis.speak = (u) => window.__spoken.push(u.text);")
    driver.find_element(By.ID, "start-camera").click()
    started = time.time()
    answered = wait(driver, "return window.ptcoach.state.framesAnswered > 0", 30)
    if not check("patient's camera set starts", bool(answered), visible_text(driver, "error")):
        return
    camera_time = lambda: driver.execute_script("return document.getElementById('video').currentTime")
    while camera_time() < pass_seconds - PAD_END / 2 and time.time() - started < pass_seconds + 30:
        time.sleep(0.1)
    driver.find_element(By.ID, "end-set").click()
    summary = wait(driver, "return window.ptcoach.state.summary", 60)
    reps = summary and summary.get("reps")
    check("patient's set counted", isinstance(reps, int) and abs(reps - expected_reps) <= 1,
          f"{reps} counted, {expected_reps} labelled (±1)")
    check("rating form shown", wait(driver, "return !document.getElementById('rating').hidden", 5) is not None)
    driver.find_element(By.ID, "pain").send_keys("3")
    driver.find_element(By.ID, "difficulty").send_keys("4")
    driver.find_element(By.ID, "save-rating").click()
    rest = wait(driver, "const r = document.getElementById('rest'); return !r.hidden && r.textContent", 10)
    check("rating saved and rest timer runs", bool(rest) and "set 2 of 2" in rest,
          f"{rest!r}; {visible_text(driver, 'rating-status')}")
    screenshot_page(driver, shots / "3-patient-summary.png")
    driver.get(server.url + "/clinic.html")
    wait(driver, "return window.ptcoach.clinic.me", 10)
    logout(driver)
    return reps


def therapist_follows_up(driver, server, shots, reps):
    from selenium.webdriver.common.by import By
    login(driver, server.url, *THERAPIST)
    days = wait(driver, "const c = document.querySelector('#patients-table tbody tr td:nth-child(2)'); return c && c.textContent", 10)
    check("dashboard adherence", days == "1 of 3", repr(days))
    driver.find_element(By.CSS_SELECTOR, "#patients-table tbody tr a").click()
    row = wait(driver, "const r = document.querySelector('#sets-table tbody tr'); return r && [...r.cells].map(c => c.textContent)", 10)
    check("therapist sees the session", bool(row) and row[3].startswith(f"{reps} of") and row[6] == "3" and row[7] == "4",
          repr(row))
    chart = wait(driver, "return document.querySelectorAll('#charts svg polyline, #charts svg circle').length", 10)
    check("progress chart drawn", bool(chart), f"{chart} marks")
    audit = wait(driver, "const a = document.getElementById('audit'); return a.children.length && a.innerText", 10)
    check("audit log lists the therapist's views", bool(audit) and "viewed" in audit, repr(audit)[:200])
    screenshot_page(driver, shots / "4-therapist-sees-session.png")
    patient_id = driver.execute_script("return window.ptcoach.clinic.patient.id")
    report = driver.execute_script("return document.getElementById('report-pdf-range').getAttribute('href')")
    pdf = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('{report}').then(r => r.arrayBuffer().then(b => done([r.status, String.fromCharCode(...new Uint8Array(b.slice(0, 5))), b.byteLength])));")
    check("date-range report (PDF)", pdf[0] == 200 and pdf[1] == "%PDF-" and pdf[2] > 5000, f"{report}: {pdf}")
    status, html = fetch_text(driver, report.replace("report.pdf", "report.html"))
    check("date-range report (HTML) escapes the name", status == 200 and "&lt;img src=x" in html and "<img src=x" not in html,
          f"status {status}, {len(html)} characters")
    status, text = fetch_text(driver, f"/api/patients/{patient_id}/export/fhir.json")
    bundle_path = shots / "patient-fhir.json"
    bundle_path.write_text(text)
    if not check("FHIR export answered", status == 200, f"status {status}"):
        return
    bundle = json.loads(text)
    types = sorted({e["resource"]["resourceType"] for e in bundle["entry"]})
    check("FHIR bundle has the set and the programme",
          {"Patient", "Observation", "CarePlan", "ServiceRequest"} <= set(types), str(types))
    try:
        from fhir.resources.R4B.bundle import Bundle
    except ImportError:
        print("INFO fhir.resources not installed: bundle not validated")
        return
    try:
        Bundle.parse_raw(text) if hasattr(Bundle, "parse_raw") else Bundle.model_validate_json(text)
        check("FHIR bundle validates (fhir.resources R4B)", True, f"{len(bundle['entry'])} entries")
    except Exception as err:  # the validator's message is the detail
        check("FHIR bundle validates (fhir.resources R4B)", False, str(err)[:800])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--screenshots", type=Path, default=Path("/tmp/ptcoach-clinic"))
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args()
    video = (args.shared / "data/videos/calimiro/squat_17.mp4").resolve()
    if not video.exists():
        die(f"no video at {video}")
    expected = labelled_reps(args.shared / "data/videos/labels.csv", video)
    args.screenshots.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-clinic-"))
    server = driver = None
    try:
        y4m = tmp / "camera.y4m"
        make_camera(video, y4m)
        pass_seconds = video_seconds(y4m)
        data = tmp / "data"
        add = subprocess.run([str(args.server_binary), "users", "add", "--role", "therapist", "--name", "Dr Ada Lee",
                              "--login", THERAPIST[0], "--password-stdin", "--data-directory", str(data)],
                             input=THERAPIST[1] + "\n", capture_output=True, text=True)
        if not check("ptcoach users add", add.returncode == 0, (add.stdout + add.stderr).strip()):
            return 1
        server = Server(args.server_binary.resolve(), data, tmp / "server.log")
        problem = server.wait_healthy()
        if not check("server healthy", problem is None, problem or server.url):
            print(server.tail())
            return 1
        driver = launch_browser(y4m)
        code = therapist_sets_up(driver, server, args.screenshots, expected)
        if code:
            reps = patient_does_a_set(driver, server, args.screenshots, code, pass_seconds, expected)
            if reps is not None:
                therapist_follows_up(driver, server, args.screenshots, reps)
        severe = [e["message"] for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and "favicon" not in e["message"]]
        check("no browser errors", not severe, "; ".join(severe)[:600])
        print(f"INFO screenshots in {args.screenshots}")
    finally:
        if driver:
            driver.quit()
        if server:
            status = server.stop()
            if failures:
                print(server.tail())
            check("server stops on SIGTERM with status 0", status == 0, f"status {status}")
    print("OK: all checks passed" if not failures else f"FAILED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
