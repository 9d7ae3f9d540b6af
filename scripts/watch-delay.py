#!/usr/bin/env python3
"""How long a patient's frame takes to reach the therapist watching, and what one watcher costs the server.

    python3 scripts/watch-delay.py --server-binary .build/debug/ptcoach [--postgres URL] [--rounds 4] [--seconds 30]

A patient's client sends a real video's frames as the coaching page does (JPEG, 640 wide, 15 a second, the real pose
model on the server) on `/live`, logged in; the therapist's client watches on `/api/live/watch`. For each frame the
script keeps when it was sent (its capture, as the page's), when the patient's answer came and when the therapist's
copy came, and prints p50/p95 of capture → therapist and capture → patient (the relay's share is the difference):
on one instance with SQLite (the in-process relay) and, with --postgres, on two instances sharing a fresh
database through LISTEN/NOTIFY, the therapist on the patient's instance and on the other one.

The cost: sets of --seconds on one instance alternately without and with a watcher (--rounds each), the server
process's CPU seconds (utime + stime, /proc) over each set, per minute of set. The machine may be shared: the
alternation is what makes the with/without ratio fair; the absolute figures move with the load.
"""

import argparse
import asyncio
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests/browser"))
from test_live_page import Server  # noqa: E402
from test_live_watch import THERAPIST, PATIENT, api  # noqa: E402


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def jpegs(video, folder):
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(video), "-vf", "fps=15,scale=640:-2", "-q:v", "5",
                    str(folder / "%04d.jpg")], check=True)
    return [p.read_bytes() for p in sorted(folder.glob("*.jpg"))]


async def one_set(patient_url, patient_cookie, watch_url, therapist_cookie, patient_id, frames, seconds, watched):
    """A set of `seconds` at 15 frames a second; returns (per-frame times, watcher frames received)."""
    import websockets
    sent, answered, relayed = {}, {}, {}
    watcher = None
    if watched:
        watcher = await websockets.connect(f"{watch_url}/api/live/watch?patient={patient_id}",
                                           additional_headers={"Cookie": therapist_cookie}, max_size=1 << 24)
        assert json.loads(await asyncio.wait_for(watcher.recv(), 30))["type"] == "watching"

    async def watch():
        async for text in watcher:
            msg = json.loads(text)
            if msg["type"] == "frame":
                relayed[msg["id"]] = time.time()
            if msg["type"] == "summary":
                return

    async with websockets.connect(f"{patient_url}/live", additional_headers={"Cookie": patient_cookie},
                                  max_size=1 << 24) as ws:
        reader_done = asyncio.get_running_loop().create_future()

        async def read():
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] == "frame":
                    answered[msg["id"]] = time.time()
                elif msg["type"] == "summary":
                    reader_done.set_result(msg)
                    return
                elif msg["type"] == "error":
                    print("ERROR", msg, file=sys.stderr)

        if watched:  # the patient's page is told who watches before the set starts
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "watchers" and msg["watchers"]:
                    break
        watching = asyncio.create_task(watch()) if watched else None
        await ws.send(json.dumps({"type": "start", "input": "camera", "exercise": "pull-up"}))
        while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "ready":
            pass
        reading = asyncio.create_task(read())
        t0 = time.time()
        count = int(seconds * 15)
        for k in range(count):
            due = t0 + k / 15
            await asyncio.sleep(max(0, due - time.time()))
            jpeg = frames[k % len(frames)]
            sent[k + 1] = time.time()
            await ws.send(struct.pack(">Id", k + 1, k / 15) + jpeg)
        await asyncio.sleep(1)
        await ws.send(json.dumps({"type": "end"}))
        await asyncio.wait_for(reader_done, 60)
        await reading
        if watching:
            await asyncio.wait_for(watching, 30)
            await watcher.close()
    return sent, answered, relayed


def delays(sent, answered, relayed):
    to_watcher = [1000 * (relayed[i] - sent[i]) for i in relayed if i in sent]
    to_patient = [1000 * (answered[i] - sent[i]) for i in relayed if i in answered]
    return to_watcher, to_patient


def report_delay(name, runs):
    w = [d for r in runs for d in r[0]]
    p = [d for r in runs for d in r[1]]
    print(f"| {name} | {len(w)} | {percentile(p, 50):.0f} / {percentile(p, 95):.0f} | "
          f"{percentile(w, 50):.0f} / {percentile(w, 95):.0f} |", flush=True)


def setup(binary, store, servers):
    add = subprocess.run([binary, "users", "add", "--role", "therapist", "--name", THERAPIST[2], "--login",
                          THERAPIST[0], "--password-stdin"] + store, input=THERAPIST[1] + "\n", capture_output=True,
                         text=True)
    assert add.returncode == 0, add.stderr
    for server in servers:
        assert server.wait_healthy() is None, server.tail()
    base = servers[0].url
    _, me, therapist_cookie = api(base, "POST", "/api/login", {"login": THERAPIST[0], "password": THERAPIST[1]})
    _, created, _ = api(base, "POST", "/api/patients", {"name": "Pat Measured"}, therapist_cookie, me["csrfToken"])
    _, _, patient_cookie = api(base, "POST", "/api/join", {"code": created["invitation"]["code"], "login": PATIENT[0],
                                                           "password": PATIENT[1]})
    return created["id"], therapist_cookie, patient_cookie


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--postgres", help="a PostgreSQL URL to make a database on (two instances)")
    parser.add_argument("--video", type=Path, default=REPO.parent / "shared/data/videos/calimiro/pull-up_14.mp4")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    binary = str(args.server_binary.resolve())
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-watch-delay-"))
    frames = jpegs(args.video, tmp / "frames")
    ws = lambda server: server.url.replace("http", "ws")
    print(f"{len(frames)} frames of {args.video.name} at 15 a second, sets of {args.seconds:.0f} s; "
          f"{args.rounds} rounds\n")
    print("| where | frames | capture → patient's answer p50 / p95 (ms) | capture → therapist p50 / p95 (ms) |")
    print("|---|---|---|---|")
    server = Server(binary, tmp / "data", tmp / "one.log")
    try:
        patient_id, therapist_cookie, patient_cookie = setup(binary, ["--data-directory", str(tmp / "data")], [server])
        runs, cost = [], {False: [], True: []}
        for _ in range(args.rounds):
            for watched in (False, True):
                before = cpu_seconds(server.proc.pid)
                t = time.time()
                result = asyncio.run(one_set(ws(server), patient_cookie, ws(server), therapist_cookie, patient_id,
                                             frames, args.seconds, watched))
                cost[watched].append((cpu_seconds(server.proc.pid) - before) / (time.time() - t) * 60)
                if watched:
                    runs.append(delays(*result))
        report_delay("one instance, SQLite (in-process relay)", runs)
    finally:
        server.stop()
    pg_lines = []
    if args.postgres:
        from test_two_instances import fresh_database
        database = fresh_database(args.postgres)
        servers = [Server(binary, tmp / f"pg{k}", tmp / f"pg{k}.log", extra=["--postgres", database]) for k in range(2)]
        try:
            patient_id, therapist_cookie, patient_cookie = setup(binary, ["--postgres", database], servers)
            same, across = [], []
            for _ in range(args.rounds):
                for where, runs_ in ((servers[0], same), (servers[1], across)):
                    runs_.append(delays(*asyncio.run(one_set(ws(servers[0]), patient_cookie, ws(where),
                                                             therapist_cookie, patient_id, frames, args.seconds,
                                                             True))))
            report_delay("two instances on PostgreSQL, therapist on the patient's instance", same)
            report_delay("two instances on PostgreSQL, therapist on the other instance", across)
        finally:
            for server in servers:
                server.stop()
    print("\nServer CPU seconds per minute of set (one instance, SQLite), alternated:\n")
    print("| round | without a watcher | with one watcher |")
    print("|---|---|---|")
    for k, (a, b) in enumerate(zip(cost[False], cost[True])):
        print(f"| {k + 1} | {a:.1f} | {b:.1f} |")
    mean = lambda v: sum(v) / len(v)
    ratios = [b / a for a, b in zip(cost[False], cost[True])]
    print(f"| mean | {mean(cost[False]):.1f} | {mean(cost[True]):.1f} (×{mean(ratios):.3f}, rounds "
          f"{min(ratios):.3f}–{max(ratios):.3f}) |")
    print("\n" + "\n".join(pg_lines))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
