#!/usr/bin/env python3
"""Durability of live sets against the real server and its SQLite file (no browser needed).

    python3 Tests/browser/test_durability.py --server-binary .build/debug/ptcoach

1. Three keypoint clients coach a real recording (UI-PRMD shoulder abduction, 10 labelled repetitions) on one
   server at once and end their sets: each set's saved repetitions equal those its client was shown live.
2. A fourth client is half-way through the recording when the server is killed with SIGKILL (kill -9). The server
   is started again on the same data directory: the set is there, marked interrupted, with every repetition the
   client was shown before the kill.
The database is read with Python's sqlite3. One line per check; exit status 1 when a check failed, 2 when it
could not run. Needs: pip install websockets (the test command installs it).
"""

import argparse
import asyncio
import json
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_live_page import REPO, Server, check, die, failures  # noqa: E402


def messages(path, exercise):
    lines = Path(path).read_text().splitlines()
    header = json.loads(lines[0])
    start = {"type": "start", "input": "keypoints", "exercise": exercise,
             **{k: header[k] for k in ("keypoints", "width", "height", "fps")}, "dimensions": header.get("dimensions", 2)}
    frames = []
    for k, line in enumerate(lines[1:]):
        if line.strip():
            frame = json.loads(line)
            frame.update(type="frame", id=k)
            frames.append(json.dumps(frame))
    return json.dumps(start), frames


async def wait_until(condition, what, timeout=60):
    """Polls `condition()` until it is true; fails the test, saying what it waited for, after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


async def coach(url, start, frames, stop_after=None, killed=None, database=None):
    """Sends a set; returns (session id, repetition indices shown live). With stop_after, stops sending after that
    many frames, waits until the repetitions shown are saved in `database` and sets `killed` (the server then dies
    under it)."""
    import websockets
    shown, session = set(), None
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send(start)
        while session is None:
            message = json.loads(await ws.recv())
            session = message.get("session") if message.get("type") == "ready" else None
        sent = frames if stop_after is None else frames[:stop_after]
        answered = 0

        async def reader():
            nonlocal answered
            try:
                async for text in ws:
                    message = json.loads(text)
                    if message.get("type") == "frame":
                        answered += 1
                        for event in message.get("events", []):
                            if event.get("type") == "rep":
                                shown.add(event["repetition"]["index"])
                            elif event.get("type") == "repsRevised":
                                shown.clear()
                                shown.update(r["index"] for r in event["repetitions"])
                    elif message.get("type") == "summary":
                        return message
            except websockets.ConnectionClosed:
                return None

        task = asyncio.create_task(reader())
        for frame in sent:
            await ws.send(frame)
        await wait_until(lambda: answered >= len(sent), f"the {len(sent)} frames sent answered")
        if stop_after is None:
            await ws.send(json.dumps({"type": "end"}))
            await task
        else:
            # The repetitions' saves run in tasks of their own: the kill comes once they are in the database (a
            # fixed pause for them failed on a loaded machine), as it would between a patient's repetitions.
            await wait_until(lambda: shown <= saved_so_far(database, session), f"repetitions {sorted(shown)} saved")
            killed.set()
            await task
    return session, shown


def saved_so_far(database, session):
    """The repetitions saved while the server runs (none while it holds the database locked)."""
    try:
        return saved(database, session)[1]
    except sqlite3.OperationalError:
        return set()


def saved(database, session):
    with sqlite3.connect(database) as db:
        status = db.execute("SELECT status FROM liveSet WHERE id = ?", (session,)).fetchone()
        reps = {row[0] for row in db.execute("SELECT repIndex FROM repetition WHERE setID = ?", (session,))}
    return (status[0] if status else None), reps


async def run(args, tmp):
    track = args.shared / "data/pose-tracks/ui-prmd/m07_s02_front.jsonl"
    if not track.exists():
        die(f"no recording at {track}")
    start, frames = messages(track, "shoulder-abduction")
    data = tmp / "data"
    server = Server(args.server_binary.resolve(), data, tmp / "server.log")
    try:
        problem = server.wait_healthy()
        if not check("server healthy", problem is None, problem or server.url):
            print(server.tail())
            return
        url = server.url.replace("http", "ws") + "/live"
        results = await asyncio.gather(*(coach(url, start, frames) for _ in range(3)))
        for k, (session, shown) in enumerate(results):
            status, reps = saved(data / "ptcoach.sqlite", session)
            check(f"concurrent set {k + 1} saved whole", status == "completed" and reps == shown and len(shown) >= 8,
                  f"{len(shown)} shown live, {len(reps)} saved, status {status}")

        killed = asyncio.Event()
        half = len(frames) // 2
        client = asyncio.create_task(
            coach(url, start, frames, stop_after=half, killed=killed, database=data / "ptcoach.sqlite"))
        await killed.wait()
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        session, shown = await asyncio.wait_for(client, 30)
        check("kill -9 mid-set", server.proc.returncode == -signal.SIGKILL and len(shown) >= 3,
              f"server status {server.proc.returncode}; {len(shown)} repetitions shown before the kill")
    finally:
        server.stop()
    restarted = Server(args.server_binary.resolve(), data, tmp / "server2.log")
    try:
        problem = restarted.wait_healthy()
        check("server restarts on the same data", problem is None, problem or restarted.url)
        status, reps = saved(data / "ptcoach.sqlite", session)
        check("every repetition shown before the kill is saved", shown <= reps and status == "interrupted",
              f"shown {sorted(shown)}, saved {sorted(reps)}, status {status}")
    finally:
        check("restarted server stops on SIGTERM with status 0", restarted.stop() == 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-binary", type=Path, default=REPO / ".build/debug/ptcoach")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args()
    try:
        import websockets  # noqa: F401
    except ImportError:
        die("websockets is not installed: pip install websockets")
    tmp = Path(tempfile.mkdtemp(prefix="ptcoach-durability-"))
    asyncio.run(run(args, tmp))
    print("OK: all checks passed" if not failures else f"FAILED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
