#!/usr/bin/env python3
"""Hardening of `ptcoach serve`, probed from outside as a tester would: raw sockets, HTTP and WebSocket, no browser.

    python3 Tests/browser/test_hardening.py --server-binary .build/debug/ptcoach

Each case is one the outside-in probe of issue 30 found open (docs/server.md says what the server promises):
1. a made-up invitation code is answered without bcrypt (timed against a failed login, alternated) and joins are
   limited per address (429 with Retry-After);
2. a connection that sends nothing, half a request head, a head trickled byte by byte, or nothing after a request,
   is closed within its timeout;
3. malformed HTTP (a 100-kB header, 3,000 headers, binary junk, HTTP/9.9, method FOO, two Content-Lengths,
   Content-Length with chunked, Content-Length -1, junk after a good request) gets 400/431 and a close;
4. a NUL in a name (or a name of one NUL) is refused, not truncated;
5. "Zo\\u00eb \\ud83d\\ude00" (json.dumps) is kept as "Zoë 😀";
6. every answer with health data (sets, reports, exports) says Cache-Control: no-store;
7. the pages carry a Content-Security-Policy with frame-ancestors and nosniff; the database files are 0600; keypoint
   sets are capped per address ("busy", 1013); a WebSocket message over the limit gets an error before its close.
One line per check; exit status 1 when a check failed, 2 when the test could not run. Needs: pip install websockets.
"""

import argparse
import asyncio
import http.client
import json
import os
import re
import socket
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_durability import messages  # noqa: E402
from test_live_page import REPO, Server, check, die, failures  # noqa: E402

THERAPIST = ("ada@clinic.example", "correct horse battery staple")
PATIENT = ("pat.two", "another long passphrase")
HEAD_TIMEOUT, IDLE_TIMEOUT = 10, 20  # docs/server.md
KEYPOINT_START = json.dumps({"type": "start", "input": "keypoints", "exercise": "squat",
                             "keypoints": ["leftHip", "leftKnee", "leftAnkle"], "width": 640, "height": 480})


class Client:
    """JSON over HTTP with the login cookie and the CSRF token, as the clinic page sends them."""

    def __init__(self, port):
        self.port, self.cookie, self.csrf = port, None, None

    def request(self, method, path, body=None, raw=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), payload

    def json(self, method, path, body=None, raw=None):
        status, headers, payload = self.request(method, path, body, raw)
        try:
            return status, headers, json.loads(payload) if payload else None
        except ValueError:
            return status, headers, payload.decode(errors="replace")

    def login(self, name, password):
        status, _, answer = self.json("POST", "/api/login", {"login": name, "password": password})
        self.csrf = answer.get("csrfToken") if status == 200 else None
        return status


# MARK: - 1. Joins

def joins(server, therapist):
    client = Client(server.port)
    made_up = {"code": "ZZZZZZZZZZ", "login": "nobody.here", "password": "a long enough password"}
    join_times, login_times = [], []
    for k in range(3):
        started = time.perf_counter()
        client.request("POST", "/api/join", made_up)
        join_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        client.request("POST", "/api/login", {"login": f"no.such.user.{k}", "password": "a wrong password!"})
        login_times.append(time.perf_counter() - started)
    join, login = statistics.median(join_times), statistics.median(login_times)
    check("a made-up invitation code costs no bcrypt", join < login / 4,
          f"median join {join * 1000:.0f} ms, median failed login (bcrypt) {login * 1000:.0f} ms, alternated 3 times")
    statuses = [client.request("POST", "/api/join", made_up) for _ in range(12)]
    codes = [s for s, _, _ in statuses]
    limited = next((h for s, h, _ in statuses if s == 429), None)
    check("joins are limited per address", limited is not None and codes.count(404) <= 10
          and "retry-after" in limited, f"statuses {codes}")
    answer = statuses[-1][2].decode(errors="replace")
    check("the join limit says when to try again", "try again in" in answer, answer[:160])


# MARK: - 2. Idle connections

def closed_within(payload, deadline, trickle=None, request_first=False):
    """Opens a connection, sends `payload` (or trickles `trickle` one byte every 2 s), then waits; returns the seconds
    until the server closed it, or None when it was still open at `deadline`."""
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=deadline)
    started = time.time()
    try:
        if request_first:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            sock.recv(65536)
            started = time.time()
        if payload:
            sock.sendall(payload)
        sent = 0
        while time.time() - started < deadline:
            sock.settimeout(2 if trickle else max(0.1, deadline - (time.time() - started)))
            try:
                if not sock.recv(65536):
                    return time.time() - started
            except socket.timeout:
                if trickle:
                    try:
                        sock.sendall(trickle[sent % len(trickle):sent % len(trickle) + 1])
                        sent += 1
                    except OSError:
                        return time.time() - started
            except ConnectionResetError:
                return time.time() - started
        return None
    finally:
        sock.close()


def idle_connections():
    cases = [
        ("a connection that sends nothing is closed", b"", None, False, HEAD_TIMEOUT),
        ("half a request head is closed", b"GET /health HTTP/1.1\r\nHost: localhost\r\n", None, False, HEAD_TIMEOUT),
        ("a head trickled a byte every 2 s is closed", b"", b"GET /health HTTP/1.1\r\nX-Slow: " + b"a" * 200,
         False, HEAD_TIMEOUT),
        ("an idle keep-alive connection is closed", b"", None, True, IDLE_TIMEOUT),
    ]
    results = [None] * len(cases)

    def run(k, payload, trickle, first, timeout):
        results[k] = closed_within(payload, timeout + 12, trickle, first)

    threads = [threading.Thread(target=run, args=(k, *case[1:])) for k, case in enumerate(cases)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for (name, _, _, _, timeout), seconds in zip(cases, results):
        check(name, seconds is not None and seconds >= timeout / 2,
              f"closed after {seconds:.1f} s (timeout {timeout} s)" if seconds is not None
              else f"still open after {timeout + 12} s")


# MARK: - 3. Malformed HTTP

MALFORMED = [
    ("a 100-kB header", b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n", (431, 400)),
    ("3,000 headers", b"GET / HTTP/1.1\r\nHost: localhost\r\n" + b"".join(b"X-H%d: v\r\n" % k for k in range(3000))
     + b"\r\n", (431, 400)),
    ("binary junk", bytes((k * 37 + 11) % 256 for k in range(512)) + b"\r\n\r\n", (400,)),
    ("HTTP/9.9", b"GET / HTTP/9.9\r\nHost: localhost\r\n\r\n", (400, 505)),
    ("method FOO", b"FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n", (400, 501)),
    ("two different Content-Lengths", b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
     b"Content-Length: 6\r\n\r\nhello!", (400,)),
    ("Content-Length with chunked", b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", (400,)),
    ("Content-Length: -1", b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n", (400,)),
    # On a kept-alive connection, after a good request was answered.
    ("junk as a second request", b"\x00\x01\x02 junk\r\n\r\n", (400,)),
]


def answer_and_close(payload, deadline=8, second=False):
    """Sends `payload` (`second`: after a good request was answered on the same connection); returns (the status
    codes answered, whether the server closed the connection)."""
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=deadline)
    received, closed = b"", False
    try:
        if second:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
                received += sock.recv(65536)
        try:
            sock.sendall(payload)
        except OSError:
            pass
        started = time.time()
        while time.time() - started < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            received += chunk
    finally:
        sock.close()
    # Answers follow each other without a separator: a body that does not end in a line break runs into the next.
    statuses = [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", received)]
    return statuses, closed


def malformed_http():
    for name, payload, expected in MALFORMED:
        statuses, closed = answer_and_close(payload, second=name.endswith("second request"))
        last = statuses[-1] if statuses else None
        check(f"malformed HTTP: {name} gets an error and a close", last in expected and closed,
              f"answered {statuses or 'nothing'}, {'closed' if closed else 'left open'}")


# MARK: - 4, 5, 6. Names and health data

def names(therapist):
    for name, sent in (("a NUL in a name is refused", "nul\u0000byte"), ("a name of one NUL is refused", "\u0000")):
        status, _, answer = therapist.json("POST", "/api/patients", {"name": sent})
        check(name, status == 400, f"{status} {str(answer)[:120]}")
    listed = [p["name"] for p in therapist.json("GET", "/api/patients")[2]]
    check("no truncated name was stored", not any(n in ("nul", "") for n in listed), repr(listed))
    status, _, patient = therapist.json("POST", "/api/patients", raw=json.dumps({"name": "Zo\u00eb \U0001F600"}))
    stored = therapist.json("GET", f"/api/patients/{patient['id']}")[2]["name"] if status == 201 else None
    check("an emoji sent as a JSON surrogate pair is kept", stored == "Zoë 😀", repr(stored))
    status, _, answer = Client(therapist.port).json(
        "POST", "/api/join", {"code": "ZZZZZZZZZZ", "login": "a\u0000b", "password": "a long enough password"})
    check("a NUL in a login is refused", status == 400 and "control" in str(answer), f"{status} {str(answer)[:120]}")


async def keypoint_set(url, cookie):
    import websockets
    track = ARGS.shared / "data/pose-tracks/ui-prmd/m07_s02_front.jsonl"
    start, frames = messages(track, "shoulder-abduction")
    async with websockets.connect(url, max_size=1 << 24, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(start)
        for frame in frames:
            await ws.send(frame)
        await ws.send(json.dumps({"type": "end"}))
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "summary":
                return message["session"]


def health_data(server, therapist):
    code = therapist.json("POST", "/api/patients", {"name": "Pat Two"})[2]["invitation"]["code"]
    patient = Client(server.port)
    status, _, answer = patient.json("POST", "/api/join", {"code": code, "login": PATIENT[0], "password": PATIENT[1]})
    if not check("a patient joins with a real code", status == 200, f"{status} {str(answer)[:160]}"):
        return
    me = answer["user"]["id"]
    session = asyncio.run(keypoint_set(server.url.replace("http", "ws") + "/live", patient.cookie))
    for path in ("/api/sessions", f"/api/sessions/{session}", f"/api/sessions/{session}/report.html",
                 f"/api/sessions/{session}/report.pdf", f"/api/patients/{me}", f"/api/patients/{me}/export/sets.csv",
                 f"/api/patients/{me}/export/fhir.json", f"/api/patients/{me}/report/report.html",
                 f"/api/patients/{me}/report/report.pdf", "/api/sessions/no-such-set"):
        status, headers, _ = therapist.request("GET", path)
        check(f"Cache-Control: no-store on {path.replace(session, 'ID').replace(me, 'PATIENT')}",
              headers.get("cache-control") == "no-store", f"{status}, Cache-Control {headers.get('cache-control')}")


# MARK: - 7. Pages, files, sockets

def pages_and_files(server, data):
    for path in ("/", "/clinic.html"):
        _, headers, _ = Client(server.port).request("GET", path)
        policy = headers.get("content-security-policy", "")
        check(f"{path} has a CSP with frame-ancestors and nosniff",
              "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
              and headers.get("x-content-type-options") == "nosniff", f"CSP {policy!r}")
    _, headers, _ = Client(server.port).request("GET", "/app.js")
    check("scripts are served with nosniff", headers.get("x-content-type-options") == "nosniff", str(headers))
    files = [p for p in (data / "ptcoach.sqlite", data / "ptcoach.sqlite-wal", data / "ptcoach.sqlite-shm")
             if p.exists()]
    modes = {p.name: oct(stat.S_IMODE(os.stat(p).st_mode)) for p in files}
    check("the database files are readable by their owner only", len(files) >= 2 and all(
        stat.S_IMODE(os.stat(p).st_mode) & 0o077 == 0 for p in files), str(modes))


async def sockets(url):
    import websockets
    open_sockets, answers = [], []
    try:
        for _ in range(9):
            ws = await websockets.connect(url)
            open_sockets.append(ws)
            await ws.send(KEYPOINT_START)
            try:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            except websockets.ConnectionClosed as closed:
                answers.append({"closed": closed.rcvd.code if closed.rcvd else None})
        ready = sum(a.get("type") == "ready" for a in answers)
        refused = answers[-1]
        code = None
        try:
            await asyncio.wait_for(open_sockets[-1].recv(), 5)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
        except asyncio.TimeoutError:
            code = "still open"
        check("keypoint sets are capped per address", ready == 8 and refused.get("code") == "busy" and code == 1013,
              f"{ready} ready; the 9th: {str(refused)[:160]}, close {code}")
    finally:
        for ws in open_sockets:
            await ws.close()
    for name, message in (("a 2-MB binary message", bytes(2 << 20)), ("a 1.5-MB text message", "x" * (3 << 19))):
        async with websockets.connect(url, max_size=1 << 24) as ws:
            await ws.send(KEYPOINT_START)
            await asyncio.wait_for(ws.recv(), 10)
            got, code = [], None
            try:
                await ws.send(message)
                while True:
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
            except asyncio.TimeoutError:
                code = "still open"
            errors = [g for g in got if g.get("type") == "error"]
            check(f"{name} over the limit gets an error message before its close",
                  bool(errors) and errors[0].get("code") == "bad-frame" and code == 1009,
                  f"messages {str(got)[:160]}, close {code}")


def main():
    global ARGS, PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ARGS = args = parser.parse_args()
    try:
        import websockets  # noqa: F401
    except ImportError:
        die("websockets is not installed: pip install websockets")
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-hardening-"))
    data = tmp / "data"
    add = subprocess.run([str(args.server_binary), "users", "add", "--role", "therapist", "--name", "Dr Ada Lee",
                          "--login", THERAPIST[0], "--password-stdin", "--data-directory", str(data)],
                         input=THERAPIST[1] + "\n", capture_output=True, text=True)
    if add.returncode != 0:
        die(f"ptcoach users add failed: {(add.stdout + add.stderr).strip()}")
    server = Server(args.server_binary.resolve(), data, tmp / "server.log")
    PORT = server.port
    try:
        problem = server.wait_healthy()
        if not check("server healthy", problem is None, problem or server.url):
            print(server.tail())
            return 1
        therapist = Client(server.port)
        if not check("therapist logs in", therapist.login(*THERAPIST) == 200):
            return 1
        idle = threading.Thread(target=idle_connections)
        idle.start()  # the timeouts run while the other cases do
        malformed_http()
        names(therapist)
        health_data(server, therapist)
        pages_and_files(server, data)
        asyncio.run(sockets(server.url.replace("http", "ws") + "/live"))
        joins(server, therapist)
        idle.join()
        check("the server still answers after all this", server.wait_healthy(timeout=10) is None)
    finally:
        status = server.stop()
        if failures:
            print(server.tail())
        check("server stops on SIGTERM with status 0", status == 0, f"status {status}")
    print("OK: all checks passed" if not failures else f"FAILED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
