#!/usr/bin/env python3
"""End-to-end test of the clinic in a real browser (Chromium + Selenium, a real video as the patient's camera).

    python3 Tests/browser/test_clinic.py --server-binary .build/debug/ptcoach [--screenshots /tmp/ptcoach-clinic]

A therapist made with `ptcoach users add` logs in, adds two patients (one named with HTML, which must show as
text), writes the first a programme (squat, 2 sets of the video's labelled repetitions, target 60–100°, stop past
170°: not the library's 80–120°), and gets an invitation code. The patient joins with the code, opens set 1 of 2
from their programme, first tries it with a sample video (practice: it must not count, nor be offered the pain
question), then does it with the fake camera fed by ../shared/data/videos/calimiro/squat_17.mp4 and rates pain 8:
the page must tell them to stop the exercise and contact their therapist, with no rest timer, and the programme page
must not offer the squat again. The therapist logs in again: the patient is listed first with the stop flag, the
session shows with its time, the practice set does not, the set's report and the CSV carry the prescription's target
and limit; the therapist marks the set seen and the patient is offered set 2 of 2. The FHIR export is validated with
fhir.resources (R4B) and its timing and body site checked. Pages are screenshotted at 1280×900 and at a phone's
390×844 (no sideways scrolling). One line per check; exit status 1 when a check failed, 2 when the test could not
run.
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
CALM_PATIENT = "007 Calm Patient"  # sorts before HOSTILE_NAME by name: the flagged patient must still come first
TARGET = ("60", "100")
STOP_PAST = "170"
PHONE = (390, 844)
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


def phone_shot(driver, path):
    """A screenshot as a phone of 390×844 shows the page (Chromium's device emulation: a desktop window cannot be
    made that narrow); returns 0 when nothing scrolls sideways, else what sticks out."""
    metrics = {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    time.sleep(0.5)
    overflow = driver.execute_script("""
        const width = document.documentElement.clientWidth;
        const over = document.documentElement.scrollWidth - width;
        if (over <= 0) return 0;
        // What sticks out (the innermost elements past the right edge), for the check's detail.
        const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 1
            && e.offsetParent !== null && ![...e.children].some((c) => c.getBoundingClientRect().right > width + 1));
        return `${over} px: ` + wide.slice(0, 6).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`
            + `${e.className ? '.' + String(e.className).split(' ')[0] : ''}`).join(', ');""")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": max(PHONE[1], height)})
    time.sleep(0.3)
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    time.sleep(0.3)
    return overflow


def post_json(driver, path, body):
    csrf = driver.execute_script("return (window.ptcoach.clinic && window.ptcoach.clinic.csrf) || ''")
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('{path}', {{method: 'POST', headers: {{'Content-Type': 'application/json', 'X-CSRF-Token': arguments[0]}},"
        f" body: JSON.stringify(arguments[1])}}).then(r => r.text().then(t => done([r.status, t]))).catch(e => done([0, String(e)]));",
        csrf, body)


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
    driver.find_element(By.ID, "patient-name").send_keys(CALM_PATIENT)
    driver.find_element(By.CSS_SELECTOR, "#add-patient button[type=submit]").click()
    wait(driver, "return document.querySelectorAll('#patients-table tbody tr a').length === 1", 10)
    driver.find_element(By.ID, "patient-name").send_keys(HOSTILE_NAME)
    driver.find_element(By.CSS_SELECTOR, "#add-patient button[type=submit]").click()
    # The code shown once the second patient is added (the first's was shown before).
    code = wait(driver, "const n = document.getElementById('invitation'); const c = n.querySelector('.code');"
                " return c && n.textContent.includes('Pat <b>One</b>') && c.textContent", 10)
    check("invitation code shown", bool(code) and len(code) == 10, str(code))
    wait(driver, "return document.querySelectorAll('#patients-table tbody tr a').length === 2", 10)
    names = driver.execute_script("return [...document.querySelectorAll('#patients-table tbody tr a')].map(a => a.textContent)")
    check("a name with HTML shows as text", HOSTILE_NAME in names and driver.execute_script("return window.__xss") is None,
          f"rows {names!r}, __xss {driver.execute_script('return window.__xss')}")
    check("patients listed by name while none needs review", names == [CALM_PATIENT, HOSTILE_NAME], repr(names))
    driver.find_elements(By.CSS_SELECTOR, "#patients-table tbody tr a")[names.index(HOSTILE_NAME)].click()
    wait(driver, "return !document.getElementById('patient-panel').hidden", 10)
    row = driver.find_element(By.CSS_SELECTOR, "#programme-table tbody tr")
    Select(row.find_element(By.NAME, "exercise")).select_by_value("squat")
    for name, value in (("sets", "2"), ("reps", str(reps)), ("restSeconds", "20"), ("targetMin", TARGET[0]),
                        ("targetMax", TARGET[1]), ("safetyMax", STOP_PAST), ("note", "Slow on the way down")):
        field = row.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    driver.find_element(By.ID, "days").clear()
    driver.find_element(By.ID, "days").send_keys("3")
    driver.find_element(By.CSS_SELECTOR, "#programme-form button[type=submit]").click()
    saved = wait(driver, "const t = document.getElementById('programme-status').textContent; return t.startsWith('Saved') && t", 10)
    check("programme saved", bool(saved), str(saved) or visible_text(driver, "programme-status"))
    screenshot_page(driver, shots / "1-therapist-programme.png")
    overflow = phone_shot(driver, shots / "1-therapist-programme-phone.png")
    check("therapist's patient page fits a phone (390 px)", overflow == 0, f"scrolls {overflow} sideways")
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
    practice_with_a_sample(driver, shots)
    banner = visible_text(driver, "programme-banner")
    check("after practice the next set is still set 1 of 2", "set 1 of 2" in banner, repr(banner))
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
    driver.find_element(By.ID, "pain").send_keys("8")
    driver.find_element(By.ID, "difficulty").send_keys("4")
    driver.find_element(By.ID, "save-rating").click()
    stop = wait(driver, "const r = document.getElementById('stop-summary'); return !r.hidden && r.textContent", 10)
    check("pain 8: told plainly to stop and contact the therapist",
          bool(stop) and "Stop doing Squat" in stop and "contact your therapist" in stop, repr(stop))
    rest = visible_text(driver, "rest")
    check("pain 8: no rest timer for a next set", rest == "", repr(rest))
    screenshot_page(driver, shots / "3-patient-stop-advice.png")
    overflow = phone_shot(driver, shots / "3-patient-stop-advice-phone.png")
    check("live page fits a phone (390 px)", overflow == 0, f"scrolls {overflow} sideways")
    driver.get(f"{server.url}/?item=0")
    stopped = wait(driver, "const r = document.getElementById('stop-advice'); return !r.hidden && r.textContent", 15)
    disabled = driver.execute_script("return document.getElementById('start-camera').disabled")
    check("the squat is not offered again until the therapist has seen it", bool(stopped) and disabled,
          f"advice {stopped!r}, start disabled {disabled}")
    driver.get(server.url + "/clinic.html")
    wait(driver, "return window.ptcoach.clinic.me", 10)
    logout(driver)
    return reps


def practice_with_a_sample(driver, shots):
    """From the programme's set 1 of 2, a sample video: practice, not the patient's set, no pain question."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    if not driver.execute_script("return !document.getElementById('sample-area').hidden"):
        check("sample videos offered", False, "no sample area on the page")
        return
    names = [o.text for o in Select(driver.find_element(By.ID, "sample")).options]
    check("sample videos have plain names", names and all("_" not in n and "." not in n for n in names), repr(names[:4]))
    squat = next((i for i, n in enumerate(names) if n.startswith("Squat")), 0)
    Select(driver.find_element(By.ID, "sample")).select_by_index(squat)
    driver.find_element(By.ID, "start-sample").click()
    answered = wait(driver, "return window.ptcoach.state.framesAnswered >= 5", 30)
    if not check("practice with a sample video runs", bool(answered), visible_text(driver, "error")):
        return
    driver.find_element(By.ID, "end-set").click()
    summary = wait(driver, "return window.ptcoach.state.summary", 60)
    note = wait(driver, "const r = document.getElementById('practice-note'); return !r.hidden && r.textContent", 10)
    check("a sample video's set is said to be practice", bool(summary) and bool(note) and "does not count" in note,
          repr(note))
    rating = driver.execute_script("return !document.getElementById('rating').hidden")
    check("no pain question after a sample video", not rating, f"rating form shown: {rating}")
    status = visible_text(driver, "status")
    check("no developer line for the patient", "latency" not in status and "sent" not in status, repr(status))
    driver.find_element(By.ID, "again").click()


def therapist_follows_up(driver, server, shots, reps):
    from selenium.webdriver.common.by import By
    login(driver, server.url, *THERAPIST)
    first = wait(driver, "const r = document.querySelector('#patients-table tbody tr'); return r && r.innerText", 10)
    check("the patient who must stop is listed first, flagged", bool(first) and first.startswith(HOSTILE_NAME)
          and "stopped" in first and "pain 8/10" in first, repr(first))
    days = driver.execute_script("const c = document.querySelector('#patients-table tbody tr td:nth-child(2)'); return c && c.textContent")
    check("dashboard adherence (the practice set not counted)", days == "1 of 3", repr(days))
    sets_done = driver.execute_script("const c = document.querySelector('#patients-table tbody tr td:nth-child(3)'); return c && c.textContent")
    check("sets this week: the practice set not counted", sets_done == "1 of 6", repr(sets_done))
    screenshot_page(driver, shots / "4-therapist-dashboard.png")
    phone_shot(driver, shots / "4-therapist-dashboard-phone.png")
    driver.find_element(By.CSS_SELECTOR, "#patients-table tbody tr a").click()
    wait(driver, "return document.querySelectorAll('#sets-table tbody tr').length > 0", 10)
    rows = driver.execute_script("return [...document.querySelectorAll('#sets-table tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
    row = rows[0] if rows else None
    check("therapist sees the session, not the practice set", len(rows) == 1 and row[3].startswith(f"{reps} of")
          and row[6] == "8" and row[7] == "4" and row[2] == "1 of 2", repr(rows))
    check("the session's time is shown", bool(row) and ":" in row[0], repr(row and row[0]))
    set_id = driver.execute_script("return window.ptcoach.clinic.patient.sets[0].id")
    status, text = fetch_text(driver, f"/api/sessions/{set_id}")
    saved = json.loads(text) if status == 200 else {}
    prescription = saved.get("prescription") or {}
    check("the set keeps the prescription it followed",
          prescription.get("targetMin") == float(TARGET[0]) and prescription.get("safetyMax") == float(STOP_PAST),
          repr(prescription))
    status, html = fetch_text(driver, f"/api/sessions/{set_id}/report.html")
    (shots / "set-report.html").write_text(html)
    check("the set's report shows the prescription's target and limit, not the library's",
          status == 200 and f"target {TARGET[0]}–{TARGET[1]}°" in html and f"stop past {STOP_PAST}°" in html
          and "target 80–120°" not in html, f"status {status}; 'target {TARGET[0]}' in report: {f'target {TARGET[0]}' in html}")
    status, csv = fetch_text(driver, f"/api/patients/{driver.execute_script('return window.ptcoach.clinic.patient.id')}/export/sets.csv")
    lines = csv.strip().splitlines()
    header = lines[0].split(",") if lines else []
    first_set = dict(zip(header, lines[1].split(","))) if len(lines) > 1 else {}
    check("CSV: one set (no practice), with its target and limit", len(lines) == 2
          and first_set.get("target_min_deg") == TARGET[0] and first_set.get("stop_past_deg") == STOP_PAST, csv[:300])
    flag = wait(driver, "const f = document.querySelector('#patient-flags .flag-stop'); return f && f.innerText", 10)
    check("the patient's page shows the stop flag with a button to mark it seen", bool(flag)
          and driver.execute_script("return !!document.querySelector('#patient-flags button.review')"), repr(flag))
    charts = wait(driver, "return document.querySelectorAll('#charts svg.progress-chart').length", 10)
    check("progress: one chart per measure (angle, repetitions, pain and difficulty)", charts == 3, f"{charts} charts")
    band = driver.execute_script("return document.querySelectorAll('#charts rect.band').length")
    check("progress: the prescribed band drawn behind the peak angle", band >= 1, f"{band} bands")
    audit = wait(driver, "const a = document.getElementById('audit'); return a.children.length && a.innerText", 10)
    check("audit log lists the therapist's views", bool(audit) and "viewed" in audit, repr(audit)[:200])
    screenshot_page(driver, shots / "5-therapist-sees-session.png")
    overflow = phone_shot(driver, shots / "5-therapist-sees-session-phone.png")
    check("therapist's patient page with charts fits a phone (390 px)", overflow == 0, f"scrolls {overflow} sideways")
    patient_id = driver.execute_script("return window.ptcoach.clinic.patient.id")
    report = driver.execute_script("return document.getElementById('report-pdf-range').getAttribute('href')")
    pdf = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('{report}').then(r => r.arrayBuffer().then(b => {{ const u = new Uint8Array(b); let s = '';"
        " for (let i = 0; i < u.length; i += 8192) s += String.fromCharCode(...u.subarray(i, i + 8192));"
        " done([r.status, s.slice(0, 5), b.byteLength, btoa(s)]); }));")
    check("date-range report (PDF)", pdf[0] == 200 and pdf[1] == "%PDF-" and pdf[2] > 5000, f"{report}: {pdf[:3]}")
    if pdf[0] == 200:
        import base64
        (shots / "date-range-report.pdf").write_bytes(base64.b64decode(pdf[3]))
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
    request = next((e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "ServiceRequest"), {})
    timing = request.get("occurrenceTiming", {}).get("repeat", {})
    details = [d.get("text") for d in request.get("orderDetail", [])]
    check("FHIR: 3 days a week coded as 3 per week, 2 sets of the repetitions as details",
          timing.get("frequency") == 3 and timing.get("period") == 1 and timing.get("periodUnit") == "wk"
          and "count" not in timing and "2 sets" in details and f"{reps_prescribed(bundle)} repetitions per set" in details,
          f"{timing}, {details}")
    peak = next((e["resource"] for e in bundle["entry"] if e["resource"]["id"].endswith("-rom")), {})
    check("FHIR: the peak angle names the joint (body site) and the method",
          "Knee joint" in json.dumps(peak.get("bodySite")) and "pose estimation" in json.dumps(peak.get("method")),
          json.dumps({k: peak.get(k) for k in ("bodySite", "method")})[:300])
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


def reps_prescribed(bundle):
    plans = [e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "ServiceRequest"]
    text = plans[0].get("patientInstruction", "") if plans else ""
    words = text.split()
    return next((words[i - 1] for i, w in enumerate(words) if w.startswith("repetitions") and i > 0), None)


def save_pdf(driver, path, out):
    """Fetches a PDF in the page (with its login) and writes it to `out`; returns the status and size."""
    import base64
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('{path}').then(r => r.arrayBuffer().then(b => {{ const u = new Uint8Array(b); let s = '';"
        " for (let i = 0; i < u.length; i += 8192) s += String.fromCharCode(...u.subarray(i, i + 8192));"
        " done([r.status, btoa(s)]); }));")
    data = base64.b64decode(answer[1])
    if answer[0] == 200:
        out.write_bytes(data)
    return answer[0], len(data)


def therapist_marks_it_seen(driver, server, shots, pass_seconds):
    from selenium.webdriver.common.by import By
    driver.find_element(By.CSS_SELECTOR, "#patient-flags button.review").click()
    gone = wait(driver, "return !document.querySelector('#patient-flags .flag-stop')", 10)
    check("marked seen: the stop flag goes", bool(gone), visible_text(driver, "patient-flags"))
    logout(driver)
    login(driver, server.url, *PATIENT)
    driver.get(f"{server.url}/?item=0")
    banner = wait(driver, "const b = document.getElementById('programme-banner'); return !b.hidden && b.innerText", 15)
    stopped = driver.execute_script("return !document.getElementById('stop-advice').hidden")
    enabled = not driver.execute_script("return document.getElementById('start-camera').disabled")
    check("after the therapist has seen it the patient is offered set 2 of 2",
          bool(banner) and "set 2 of 2" in banner and not stopped and enabled, f"{banner!r}, stop shown {stopped}")
    screenshot_page(driver, shots / "6-patient-live-page.png")
    phone_shot(driver, shots / "6-patient-live-page-phone.png")
    # Set 2 of 2, pain 2: it counts, no stop, and the programme's squat is done for today.
    driver.find_element(By.ID, "start-camera").click()
    if not wait(driver, "return window.ptcoach.state.framesAnswered > 0", 30):
        check("set 2 starts", False, visible_text(driver, "error"))
        return
    time.sleep(pass_seconds)
    driver.find_element(By.ID, "end-set").click()
    wait(driver, "return window.ptcoach.state.summary", 60)
    wait(driver, "return !document.getElementById('rating').hidden", 10)
    driver.find_element(By.ID, "pain").send_keys("2")
    driver.find_element(By.ID, "difficulty").send_keys("3")
    driver.find_element(By.ID, "save-rating").click()
    done = wait(driver, "const r = document.getElementById('rest'); return !r.hidden && r.textContent", 10)
    check("set 2 of 2 rated pain 2: no stop, the exercise done for today", bool(done) and "All 2 sets" in done
          and not visible_text(driver, "stop-summary"), repr(done))
    driver.get(server.url + "/clinic.html")
    wait(driver, "return window.ptcoach.clinic.patient", 10)
    patient_id = driver.execute_script("return window.ptcoach.clinic.patient.id")
    status, size = save_pdf(driver, f"/api/patients/{patient_id}/report/report.pdf", shots / "date-range-report-2-sets.pdf")
    check("the patient's own date-range report (2 sets)", status == 200 and size > 5000, f"status {status}, {size} bytes")
    screenshot_page(driver, shots / "7-patient-progress.png")
    phone_shot(driver, shots / "7-patient-progress-phone.png")


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
        server = Server(args.server_binary.resolve(), data, tmp / "server.log", samples=args.shared / "data/videos")
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
                if driver.execute_script("return !!document.querySelector('#patient-flags button.review')"):
                    therapist_marks_it_seen(driver, server, args.screenshots, pass_seconds)
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
