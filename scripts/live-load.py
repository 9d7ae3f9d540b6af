#!/usr/bin/env python3
"""Load generator for `ptcoach serve`'s live coaching WebSocket (docs/live-protocol.md).

    python3 -m pip install websockets==15.0.1
    (scripts/bench-live.sh keeps it in a venv of its own: runtime/cache/live-venv)

Each client opens ws://HOST:PORT/live, sends {"type":"start",...}, waits for "ready", then sends frames on a
fixed schedule of absolute deadlines (a slow server does not slow the sender down: a real camera does not
wait either), records when each frame id was sent and when its "frame" answer came back, and at the end
sends {"type":"end"} and waits (up to 10 s) for the "summary". Clients connect first, then start sending
together, staggered across one frame interval.

    live-load.py --url ws://127.0.0.1:8080/live --mode camera --video squat_17.mp4 --clients 4 --fps 15 --seconds 30
    live-load.py --url ... --mode keypoints --track bicep_good_1.jsonl --fps 30 --find-max
    live-load.py --url ... --clips clips.csv --clients 4 --fps 15   # CSV: video,exercise,truth; client k plays
        clip k mod their number once, whole, 640 wide in its own aspect, and its count is reported against truth
    --server-pid PID   also samples the server's RSS (/proc/PID/status VmRSS) every second
    --json             prints the results as one JSON object on stdout (the text report goes to stderr)

Camera mode decodes the video once with ffmpeg into 640x480 JPEG frames held in memory (aspect ratio kept,
padded), at fps/speed frames per video second, looped when the run is longer than the video. Keypoint mode
replays a pose-track file (docs of the shared data: pose-track.md), sampled at the same times, looped with t
increasing. --speed S offers S seconds of video per second (capture times advance S/fps per frame), e.g.
--fps 60 --speed 2: 30-fps video at twice real time.

Latency = receive time of a frame's answer - the time just before the frame was handed to the socket, both on
this machine's monotonic clock, so it includes the network, the server's queue, its inference and the
answer's transfer (and this process's own event-loop delay: see send lag and client CPU in the report).
CPU figures are % of one core (the machine's: of all of them together, nproc x 100%); the server's and the
machine's are measured over the seconds every client was streaming; "others" = machine - server - generator.
Answered % = answers / frames sent. Dropped: the server's count of the frames it replaced (latest frame wins;
the largest "dropped" in its answers or in the summary) and sent - answered.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import time
from dataclasses import dataclass, field, asdict

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
except ImportError:  # pragma: no cover
    sys.exit("live-load.py needs websockets 15: python3 -m pip install websockets==15.0.1")


from live_report import fmt, report_text, summarize  # noqa: E402 (beside this script)
from live_sources import CameraSource, KeypointSource, clip_sources, decode_video  # noqa: E402


# ---------------------------------------------------------------- one client

@dataclass
class ClientResult:
    index: int
    session: str | None = None
    error: str | None = None  # why the client did not run (connect failure, busy, no ready)
    sent: int = 0
    answered: int = 0
    server_dropped: int = 0
    unexpected: int = 0  # answers to ids never sent, or second answers
    errors: list = field(default_factory=list)  # server "error" messages during the run
    latencies: list = field(default_factory=list)  # ms, per answered frame
    send_lag: list = field(default_factory=list)  # ms the send started after its deadline
    reps: int | None = None
    summary: bool = False
    video: str | None = None  # --clips: the client's clip, its exercise and its true count
    exercise: str | None = None
    truth: int | None = None
    close_code: int | None = None


async def run_client(cfg, source, index: int, ready_q: asyncio.Queue, go: asyncio.Future,
                     deadline_offset: float, handshakes: asyncio.Semaphore) -> ClientResult:
    res = ClientResult(index)
    loop = asyncio.get_running_loop()
    # a clip is played once, whole; any other source for --seconds
    frames = getattr(source, "frame_count", None) or max(1, round(cfg.seconds * cfg.fps))
    res.exercise = getattr(source, "exercise", None) or cfg.exercise
    if hasattr(source, "truth"):
        res.video, res.truth = os.path.basename(source.path), source.truth
    interval = 1 / cfg.fps
    send_times: list[float | None] = [None] * (frames + 1)
    last_answered = asyncio.Event()
    summary_seen = asyncio.Event()
    ws = None
    signalled = False
    try:
        try:
            async with handshakes:
                ws = await connect(cfg.url, max_size=None, compression="deflate" if cfg.deflate else None,
                                   ping_interval=None, open_timeout=15, close_timeout=5)
        except Exception as e:  # noqa: BLE001
            res.error = f"connect: {type(e).__name__}: {e}"
            return res
        start = {"type": "start", "input": source.kind, "exercise": res.exercise}
        start.update(source.start_fields())
        try:
            await ws.send(json.dumps(start))
        except ConnectionClosed:
            pass  # refused (e.g. busy): its error message may still be waiting to be read
        try:
            while True:
                msg = await asyncio.wait_for(ws.recv(), 15)
                if isinstance(msg, bytes):
                    continue
                d = json.loads(msg)
                if d.get("type") == "ready":
                    res.session = d.get("session")
                    max_bytes = d.get("maxFrameBytes")
                    if max_bytes and source.kind == "camera":
                        biggest = max(len(f) for f in source.frames) + 12
                        if biggest > max_bytes:
                            res.errors.append({"code": "local", "message": f"frames up to {biggest} B > maxFrameBytes {max_bytes}"})
                    break
                if d.get("type") == "error":
                    res.error = f"{d.get('code')}: {d.get('message')}"
                    return res
        except ConnectionClosed as e:
            res.error = f"closed before ready: {e.rcvd.code if e.rcvd else None} {e.rcvd.reason if e.rcvd else ''}"
            return res
        except asyncio.TimeoutError:
            res.error = "no ready in 15 s"
            return res
        finally:
            ready_q.put_nowait(index)
            signalled = True

        async def receive():
            answered = set()
            try:
                async for msg in ws:
                    now = loop.time()
                    if isinstance(msg, bytes):
                        res.unexpected += 1
                        continue
                    d = json.loads(msg)
                    typ = d.get("type")
                    if typ == "frame":
                        fid = d.get("id")
                        st = send_times[fid] if isinstance(fid, int) and 0 < fid <= frames else None
                        if st is None or fid in answered:
                            res.unexpected += 1
                            continue
                        answered.add(fid)
                        res.answered += 1
                        res.latencies.append((now - st) * 1000)
                        dropped = d.get("dropped")
                        if isinstance(dropped, int) and dropped > res.server_dropped:
                            res.server_dropped = dropped
                        if fid == frames:
                            last_answered.set()
                    elif typ == "summary":
                        res.summary = True
                        s = d.get("summary") or {}
                        res.reps = s.get("reps")
                        if isinstance(d.get("dropped"), int):  # the set's final count, if the summary has it
                            res.server_dropped = max(res.server_dropped, d["dropped"])
                        summary_seen.set()
                    elif typ == "error":
                        res.errors.append({"code": d.get("code"), "message": d.get("message")})
                    # other types (future additions) are ignored
            except ConnectionClosed:
                pass
            finally:
                last_answered.set()
                summary_seen.set()

        t0 = await go
        receiver = asyncio.create_task(receive())
        base = t0 + deadline_offset
        for i in range(frames):
            deadline = base + i * interval
            delay = deadline - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            fid = i + 1
            msg = source.message(fid, i, i * cfg.speed / cfg.fps)
            now = loop.time()
            send_times[fid] = now
            res.send_lag.append((now - deadline) * 1000)
            res.sent += 1
            try:
                await ws.send(msg)
            except ConnectionClosed as e:
                res.errors.append({"code": "closed", "message": f"while sending frame {fid}: {e}"})
                break
        # the last frame is never replaced, so it is answered: wait for it (briefly) before ending the set
        try:
            await asyncio.wait_for(last_answered.wait(), cfg.drain)
        except asyncio.TimeoutError:
            pass
        try:
            await ws.send(json.dumps({"type": "end"}))
            await asyncio.wait_for(summary_seen.wait(), 10)
        except (ConnectionClosed, asyncio.TimeoutError):
            pass
        await ws.close()
        try:
            await asyncio.wait_for(receiver, 5)
        except asyncio.TimeoutError:
            res.errors.append({"code": "local", "message": "receiver did not finish 5 s after close"})
        res.close_code = ws.close_code
    except Exception as e:  # noqa: BLE001
        if res.error is None and not res.sent:
            res.error = f"{type(e).__name__}: {e}"
        else:
            res.errors.append({"code": "local", "message": f"{type(e).__name__}: {e}"})
    finally:
        if not signalled:
            ready_q.put_nowait(index)
        if ws is not None and ws.close_code is None:
            await ws.close()
    return res


def source_for(source, k: int):
    """Client k's source: the one source, or clip k mod the clips' count."""
    return source[k % len(source)] if isinstance(source, list) else source


async def run_group(cfg, source, indices: list[int], n_total: int, on_ready, get_t0) -> list[ClientResult]:
    """Runs the clients `indices` (of n_total) in this process. on_ready() is awaited once all of them are
    connected (or failed); get_t0() then gives the common start time (time.monotonic() seconds)."""
    loop = asyncio.get_running_loop()
    ready_q: asyncio.Queue = asyncio.Queue()
    go: asyncio.Future = loop.create_future()
    interval = 1 / cfg.fps
    handshakes = asyncio.Semaphore(32)  # at most this many connecting at once
    tasks = [asyncio.create_task(run_client(cfg, source_for(source, k), k, ready_q, go, interval * k / n_total,
                                            handshakes))
             for k in indices]
    for _ in indices:
        await ready_q.get()
    await on_ready()
    go.set_result(await get_t0())
    return await asyncio.gather(*tasks)


# ---------------------------------------------------------------- processes, RSS, one run

def read_rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def read_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of the process so far (/proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy so far, all cores together (/proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...: busy = all but idle and iowait
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def child_main(cfg, source, indices, n_total, conn):
    async def main():
        loop = asyncio.get_running_loop()

        async def on_ready():
            conn.send("ready")

        async def get_t0():
            return await loop.run_in_executor(None, conn.recv)

        c0 = cpu_seconds()
        results = await run_group(cfg, source, indices, n_total, on_ready, get_t0)
        return results, cpu_seconds() - c0

    results, cpu = asyncio.run(main())
    conn.send(([asdict(r) for r in results], cpu))
    conn.close()


async def run_once(cfg, source, n_clients: int) -> dict:
    """One run of n_clients; the results as a dict (see summarize)."""
    loop = asyncio.get_running_loop()
    rss_samples: list[tuple[float, int, float | None]] = []  # (time, RSS KiB, server CPU seconds)
    machine_samples: list[tuple[float, float]] = []  # (time, machine busy CPU seconds)
    marks: dict[str, float] = {}
    stop_sampling = asyncio.Event()

    async def sample():
        while True:
            machine_samples.append((loop.time(), machine_busy_seconds()))
            v = read_rss_kib(cfg.server_pid) if cfg.server_pid else None
            if v is not None:
                rss_samples.append((loop.time(), v, read_cpu_seconds(cfg.server_pid)))
            try:
                await asyncio.wait_for(stop_sampling.wait(), 1.0)
                return
            except asyncio.TimeoutError:
                pass

    sampler = asyncio.create_task(sample())
    await asyncio.sleep(0)  # the first sample: before any client connects
    wall0 = loop.time()
    cpu0 = cpu_seconds()
    lead = 0.3  # seconds between "all connected" and the first frame
    procs = max(1, min(cfg.procs, n_clients))
    if procs == 1:
        async def on_ready():
            marks["connected"] = loop.time()

        async def get_t0():
            return loop.time() + lead

        results = await run_group(cfg, source, list(range(n_clients)), n_clients, on_ready, get_t0)
        child_cpu = 0.0
        results = [asdict(r) for r in results]
    else:
        ctx = multiprocessing.get_context("fork")
        pipes, children = [], []
        for p in range(procs):
            parent, child = ctx.Pipe()
            idx = list(range(p, n_clients, procs))
            pr = ctx.Process(target=child_main, args=(cfg, source, idx, n_clients, child), daemon=True)
            pr.start()
            pipes.append(parent)
            children.append(pr)
        for c in pipes:  # each child says "ready" once its clients are connected
            await loop.run_in_executor(None, c.recv)
        marks["connected"] = loop.time()
        t0 = time.monotonic() + lead  # CLOCK_MONOTONIC is the same clock in every process (and loop.time())
        for c in pipes:
            c.send(t0)
        results, child_cpu = [], 0.0
        for c in pipes:
            r, cpu = await loop.run_in_executor(None, c.recv)
            results.extend(r)
            child_cpu += cpu
        for pr in children:
            pr.join(5)
        results.sort(key=lambda r: r["index"])
    marks["start"] = marks["connected"] + lead
    marks["stop"] = marks["start"] + cfg.seconds
    marks["done"] = loop.time()
    stop_sampling.set()
    await sampler
    v = read_rss_kib(cfg.server_pid) if cfg.server_pid else None
    if v is not None:
        rss_samples.append((loop.time(), v, read_cpu_seconds(cfg.server_pid)))
    wall = marks["done"] - wall0
    cpu = cpu_seconds() - cpu0 + child_cpu
    return summarize(cfg, n_clients, results, rss_samples, machine_samples, marks, wall, cpu)


def load_info() -> dict:
    with open("/proc/loadavg") as f:
        la = f.read().split()
    return {"loadavg": [float(x) for x in la[:3]], "nproc": os.cpu_count()}


async def find_max(cfg, source) -> dict:
    steps = [int(x) for x in cfg.steps.split(",")]
    tried: dict[int, dict] = {}
    best, first_fail = 0, None

    async def step(n):
        r = await run_once(cfg, source, n)
        tried[n] = r
        report_text(r, per_client=False)
        await asyncio.sleep(cfg.pause)
        return r["pass"]

    for n in steps:
        if await step(n):
            best = n
        else:
            first_fail = n
            break
    else:
        # every step passed: keep going by the last step's increment
        inc = steps[-1] - steps[-2] if len(steps) > 1 else steps[-1]
        n = steps[-1]
        while n + inc <= cfg.max_clients:
            n += inc
            if await step(n):
                best = n
            else:
                first_fail = n
                break
    lo, hi = best, first_fail
    for _ in range(cfg.refine):  # bisect between the last pass and the first failure
        if hi is None or hi - lo <= max(2, hi // 20):
            break
        mid = (lo + hi) // 2
        if await step(mid):
            lo = best = mid
        else:
            hi = mid
    return {"find_max": {"max_clients": best, "first_fail": hi, "target_p95_ms": cfg.target_p95,
                         "target_answered_pct": cfg.target_answered},
            "steps": [{"clients": n, "pass": r["pass"], **{k: r["overall"][k] for k in (
                "clients_ok", "answered_pct", "min_client_answered_pct", "p50_ms", "p95_ms", "p99_ms",
                "client_cpu_pct", "send_lag_p95_ms")}, "server_cpu_pct": r["overall"].get("server_cpu_pct"),
                "machine_cpu_pct": r["overall"].get("machine_cpu_pct"),
                **({"rss_max_mb": r["rss"]["max_mb"]} if "rss" in r else {})}
                for n, r in sorted(tried.items())]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="ws://127.0.0.1:8080/live")
    ap.add_argument("--clients", type=int, default=1)
    ap.add_argument("--fps", type=float, default=15)
    ap.add_argument("--seconds", type=float, default=30, help="seconds of frames each client sends")
    ap.add_argument("--speed", type=float, default=1, help="video seconds per second (capture time step = speed/fps)")
    ap.add_argument("--mode", choices=["camera", "keypoints"], default="camera")
    ap.add_argument("--video", help="camera mode: the video to decode")
    ap.add_argument("--size", default="640x480", help="camera mode: JPEG size (aspect kept, padded)")
    ap.add_argument("--quality", type=int, default=5, help="camera mode: ffmpeg -q:v (2 best ... 31 worst)")
    ap.add_argument("--clips", help="camera mode: a CSV of clips (video,exercise,truth), client k streams clip k mod "
                    "their number once, whole (instead of --video/--seconds); --size defaults to 640 wide then")
    ap.add_argument("--track", help="keypoint mode: the pose-track file")
    ap.add_argument("--exercise", default=None, help="exercise id (default: recognise)")
    ap.add_argument("--server-pid", type=int, help="sample this process's VmRSS every second")
    ap.add_argument("--json", action="store_true", help="print the results as one JSON object on stdout")
    ap.add_argument("--quiet", action="store_true", help="no per-client lines")
    ap.add_argument("--procs", type=int, default=1, help="spread the clients over this many processes")
    ap.add_argument("--deflate", action="store_true", help="offer permessage-deflate (off: as the server's cost is "
                                                            "measured, not this client's)")
    ap.add_argument("--drain", type=float, default=3, help="seconds to wait for the last frame's answer before end")
    ap.add_argument("--target-p95", type=float, help="PASS/FAIL: overall p95 latency at most this (ms)")
    ap.add_argument("--target-answered", type=float, help="PASS/FAIL: overall answered %% at least this")
    ap.add_argument("--target-client-answered", type=float, help="PASS/FAIL: every client's answered %% at least this")
    ap.add_argument("--find-max", action="store_true", help="step the clients up; the largest count that passes "
                                                           "(defaults: --target-p95 25 --target-answered 95)")
    ap.add_argument("--steps", default="25,50,100,150,200,250,300")
    ap.add_argument("--max-clients", type=int, default=1000)
    ap.add_argument("--refine", type=int, default=2, help="find-max: bisection steps after the first failure")
    ap.add_argument("--pause", type=float, default=2, help="find-max: seconds between steps")
    cfg = ap.parse_args()

    if cfg.mode == "camera":
        rate = cfg.fps / cfg.speed
        if cfg.clips:
            size = cfg.size if "--size" in sys.argv else "640"
            source = clip_sources(cfg.clips, rate, size, cfg.quality)
            cfg.seconds = max(c.frame_count for c in source) / cfg.fps  # the longest clip
            for k, clip in enumerate(source):
                print(f"live-load: clip {k}: {clip.describe()}", file=sys.stderr)
        elif not cfg.video:
            ap.error("--mode camera needs --video or --clips")
        else:
            source = CameraSource(decode_video(cfg.video, rate, cfg.size, cfg.quality), rate)
    else:
        if not cfg.track:
            ap.error("--mode keypoints needs --track")
        source = KeypointSource(cfg.track)
    describe = (lambda: f"{len(source)} clips") if isinstance(source, list) else source.describe
    print(f"live-load: {cfg.mode} source {describe()}", file=sys.stderr)
    before = load_info()

    if cfg.find_max:
        if cfg.target_p95 is None:
            cfg.target_p95 = 25
        if cfg.target_answered is None:
            cfg.target_answered = 95
        if "--seconds" not in sys.argv:
            cfg.seconds = 10
        result = asyncio.run(find_max(cfg, source))
        fm = result["find_max"]
        print(f"find-max: {fm['max_clients']} {cfg.mode} clients at {cfg.fps:g} fps with p95 <= {cfg.target_p95:g} ms "
              f"and >= {cfg.target_answered:g}% answered (first failing count: {fmt(fm['first_fail'])})", file=sys.stderr)
    else:
        result = asyncio.run(run_once(cfg, source, cfg.clients))
        report_text(result, per_client=not cfg.quiet)
    result["load_before"] = before
    result["load_after"] = load_info()
    result["url"] = cfg.url
    result["source"] = [c.describe() for c in source] if isinstance(source, list) else source.describe()
    la = result["load_after"]
    print(f"machine: loadavg {' '.join(str(x) for x in la['loadavg'])} (before {' '.join(str(x) for x in before['loadavg'])}), "
          f"nproc {la['nproc']}", file=sys.stderr)
    if cfg.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
