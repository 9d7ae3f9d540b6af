#!/usr/bin/env python3
"""Two `ptcoach serve` instances on one PostgreSQL database serve the same clinic.

    python3 Tests/browser/test_two_instances.py --server-binary .build/debug/ptcoach --postgres URL

URL is a PostgreSQL server the test may create a database on (scripts/test.sh starts a throw-away one). The test
makes a fresh database, adds a therapist with `ptcoach users add --postgres`, starts two instances on it, and:
the therapist logs in on instance 1 and writes a patient's programme; the patient joins on instance 2; the
patient's live set (a real UI-PRMD recording, 10 labelled repetitions, sent as keypoints) runs on instance 1; the
therapist's dashboard on instance 2 shows the set, its repetitions and the adherence. A login made on one instance
is valid on the other (nothing but the live socket lives in an instance). Needs: pip install websockets.
"""

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_durability import messages  # noqa: E402
from test_live_page import REPO, Server, check, die, failures  # noqa: E402

THERAPIST = ("ada@clinic.example", "correct horse battery staple")


class Client:
    """A browser's cookie and CSRF token, talking JSON to one instance or another."""

    def __init__(self):
        self.cookie = None
        self.csrf = None

    def call(self, base, method, path, body=None):
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf and method != "GET":
            headers["X-CSRF-Token"] = self.csrf
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                cookie = response.headers.get("Set-Cookie")
                if cookie:
                    self.cookie = cookie.split(";")[0]
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def login(self, base, name, password, path="/api/login", extra=None):
        status, me = self.call(base, "POST", path, {"login": name, "password": password, **(extra or {})})
        if status == 200:
            self.csrf = me["csrfToken"]
        return status, me


def fresh_database(url):
    name = "ptcoach_" + uuid.uuid4().hex
    subprocess.run(["psql", url, "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def live_set(base, cookie, start, frames):
    import websockets
    url = base.replace("http", "ws") + "/live"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}, max_size=1 << 24) as ws:
        await ws.send(start)
        ready = json.loads(await ws.recv())
        for frame in frames:
            await ws.send(frame)
        await ws.send(json.dumps({"type": "end"}))
        async for text in ws:
            message = json.loads(text)
            if message.get("type") == "summary":
                return ready, message
            if message.get("type") == "error":
                return ready, message
    return ready, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--postgres", required=True, help="a PostgreSQL server URL to create a database on")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args()
    track = args.shared / "data/pose-tracks/ui-prmd/m07_s02_front.jsonl"
    if not track.exists():
        die(f"no recording at {track}")
    database = fresh_database(args.postgres)
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-two-"))
    binary = str(args.server_binary.resolve())
    add = subprocess.run([binary, "users", "add", "--role", "therapist", "--name", "Dr Ada Lee", "--login", THERAPIST[0],
                          "--password-stdin", "--postgres", database], input=THERAPIST[1] + "\n", capture_output=True, text=True)
    check("ptcoach users add --postgres", add.returncode == 0, (add.stdout + add.stderr).strip())
    one = two = None
    try:
        one = Server(binary, tmp / "one", tmp / "one.log", extra=["--postgres", database])
        two = Server(binary, tmp / "two", tmp / "two.log", extra=["--postgres", database])
        for name, server in (("1", one), ("2", two)):
            problem = server.wait_healthy()
            if not check(f"instance {name} healthy", problem is None, problem or server.url):
                print(server.tail())
                return 1
        therapist, patient = Client(), Client()
        check("therapist logs in on instance 1", therapist.login(one.url, *THERAPIST)[0] == 200)
        status, created = therapist.call(one.url, "POST", "/api/patients", {"name": "Pat Two-Instances"})
        check("patient added on instance 1", status == 201, str(created)[:200])
        programme = {"daysPerWeek": 3, "items": [{"exercise": "shoulder-abduction", "sets": 2, "reps": 10,
                                                   "restSeconds": 30, "note": ""}]}
        status, _ = therapist.call(one.url, "PUT", f"/api/patients/{created['id']}/programme", programme)
        check("programme written on instance 1", status == 200)
        status, me = patient.login(two.url, "pat.two", "another long passphrase", path="/api/join",
                                   extra={"code": created["invitation"]["code"]})
        check("patient joins on instance 2", status == 200, str(me)[:200])
        status, me = patient.call(one.url, "GET", "/api/me")
        check("instance 2's login is valid on instance 1", status == 200 and me["user"]["role"] == "patient")
        start, frames = messages(track, None)
        start = json.loads(start)
        start.pop("exercise")
        start["programmeItem"] = 0
        ready, summary = asyncio.run(live_set(one.url, patient.cookie, json.dumps(start), frames))
        reps = summary and summary.get("summary", {}).get("reps")
        check("patient's set coached on instance 1", ready.get("programme", {}).get("set") == 1 and isinstance(reps, int)
              and abs(reps - 10) <= 1, f"ready {ready.get('programme')}, {reps} repetitions (10 labelled)")
        status, patients = therapist.call(two.url, "GET", "/api/patients")
        row = patients[0] if status == 200 and patients else {}
        check("instance 2's dashboard shows the adherence", row.get("adherence", {}).get("daysDone") == 1
              and row.get("adherence", {}).get("setsDone") == 1, str(row.get("adherence")))
        status, detail = therapist.call(two.url, "GET", f"/api/patients/{created['id']}")
        sets = detail.get("sets", []) if status == 200 else []
        check("instance 2 shows the set and its repetitions", len(sets) == 1 and sets[0]["reps"] == reps
              and sets[0]["setNumber"] == 1 and sets[0]["status"] == "completed", str(sets)[:300])
    finally:
        for server in (one, two):
            if server:
                check("instance stops on SIGTERM with status 0", server.stop() == 0)
    print("OK: all checks passed" if not failures else f"FAILED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
