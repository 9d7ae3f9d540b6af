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
import math
import multiprocessing
import os
import resource
import shutil
import struct
import subprocess
import sys
import time
from bisect import bisect_right
from dataclasses import dataclass, field, asdict

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
except ImportError:  # pragma: no cover
    sys.exit("live-load.py needs websockets 15: python3 -m pip install websockets==15.0.1")


# ---------------------------------------------------------------- frame sources

def jpeg_end(data: bytes, start: int) -> int | None:
    """The offset just past the EOI of the JPEG that starts (SOI) at `start`; None if truncated.
    Walks the marker segments so that bytes inside them (or stuffed 0xFF00 in the scans) never end it."""
    n = len(data)
    i = start + 2
    while i + 1 < n:
        if data[i] != 0xFF:
            return None  # not a marker where one must be
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0xD9:
            return i + 2
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:
            i += 2
            continue
        if i + 4 > n:
            return None
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:  # entropy-coded data up to the next marker that is not FF00, RSTn or fill
            while True:
                j = data.find(b"\xff", i)
                if j < 0 or j + 1 >= n:
                    return None
                nxt = data[j + 1]
                if nxt == 0x00 or 0xD0 <= nxt <= 0xD7:
                    i = j + 2
                elif nxt == 0xFF:
                    i = j + 1
                else:
                    i = j
                    break
    return None


def split_jpegs(data: bytes) -> list[bytes]:
    frames = []
    pos = 0
    while True:
        start = data.find(b"\xff\xd8", pos)
        if start < 0:
            break
        end = jpeg_end(data, start)
        if end is None:
            break
        frames.append(data[start:end])
        pos = end
    return frames


def decode_video(path: str, rate: float, size: str, quality: int) -> list[bytes]:
    """The video's frames at `rate` per video second, as JPEG images of exactly `size` (WxH)."""
    if not shutil.which("ffmpeg"):
        sys.exit("camera mode needs ffmpeg (apt-get install ffmpeg)")
    w, h = size.lower().split("x")
    vf = (f"scale={w}:{h}:force_original_aspect_ratio=decrease,pad={w}:{h}:(ow-iw)/2:(oh-ih)/2,"
          f"fps={rate:g},format=yuvj420p")
    cmd = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-i", path, "-an", "-vf", vf,
           "-f", "image2pipe", "-c:v", "mjpeg", "-q:v", str(quality), "-"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout
    frames = split_jpegs(out)
    if not frames:
        sys.exit(f"ffmpeg gave no JPEG frames for {path}")
    return frames


class CameraSource:
    kind = "camera"

    def __init__(self, frames: list[bytes], rate: float):
        self.frames = frames
        self.rate = rate  # frames per video second

    def start_fields(self) -> dict:
        return {}

    def message(self, frame_id: int, index: int, t: float) -> bytes:
        # index counts frames from 0 at rate/video second; looping the list keeps the video's own pace
        header = struct.pack(">Id", frame_id, t)
        return header + self.frames[index % len(self.frames)]

    def describe(self) -> str:
        sizes = [len(f) for f in self.frames]
        return (f"{len(self.frames)} JPEG frames ({len(self.frames) / self.rate:.1f} s of video at {self.rate:g}/s, "
                f"mean {sum(sizes) / len(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB)")


class KeypointSource:
    kind = "keypoints"

    def __init__(self, path: str):
        with open(path, encoding="utf-8") as f:
            self.header = json.loads(f.readline())
            times, poses = [], []
            for line in f:
                line = line.strip()
                if not line:
                    continue
                d = json.loads(line)
                times.append(float(d["t"]))
                poses.append(json.dumps(d.get("poses", []), separators=(",", ":")))
        if self.header.get("format") != "pose-track" or not times:
            sys.exit(f"{path} is not a pose-track file with frames")
        self.path = path
        t0 = times[0]
        self.times = [t - t0 for t in times]
        self.poses = poses
        fps = float(self.header.get("fps") or 30)
        self.period = self.times[-1] + 1 / fps  # one loop of the track

    def start_fields(self) -> dict:
        d = {"keypoints": self.header["keypoints"], "width": self.header["width"], "height": self.header["height"]}
        if "dimensions" in self.header:
            d["dimensions"] = self.header["dimensions"]
        return d

    def message(self, frame_id: int, index: int, t: float) -> str:
        # the track's frame at time t (looped); t itself keeps increasing
        k = max(0, bisect_right(self.times, t % self.period) - 1)
        return f'{{"type":"frame","id":{frame_id},"t":{t:.4f},"poses":{self.poses[k]}}}'

    def describe(self) -> str:
        return (f"{len(self.times)} frames, {self.period:.1f} s, {len(self.header['keypoints'])} keypoints, "
                f"{self.header['width']}x{self.header['height']}")


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
    close_code: int | None = None


def percentile(values: list[float], p: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


async def run_client(cfg, source, index: int, ready_q: asyncio.Queue, go: asyncio.Future,
                     deadline_offset: float, handshakes: asyncio.Semaphore) -> ClientResult:
    res = ClientResult(index)
    loop = asyncio.get_running_loop()
    frames = max(1, round(cfg.seconds * cfg.fps))
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
        start = {"type": "start", "input": source.kind, "exercise": cfg.exercise}
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


async def run_group(cfg, source, indices: list[int], n_total: int, on_ready, get_t0) -> list[ClientResult]:
    """Runs the clients `indices` (of n_total) in this process. on_ready() is awaited once all of them are
    connected (or failed); get_t0() then gives the common start time (time.monotonic() seconds)."""
    loop = asyncio.get_running_loop()
    ready_q: asyncio.Queue = asyncio.Queue()
    go: asyncio.Future = loop.create_future()
    interval = 1 / cfg.fps
    handshakes = asyncio.Semaphore(32)  # at most this many connecting at once
    tasks = [asyncio.create_task(run_client(cfg, source, k, ready_q, go, interval * k / n_total, handshakes))
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


def ms(v):
    return None if v is None else round(v, 1)


def summarize(cfg, n_clients, results, rss_samples, machine_samples, marks, wall, cpu) -> dict:
    clients = []
    all_lat, all_lag = [], []
    for r in results:
        c = {
            "index": r["index"], "session": r["session"], "error": r["error"],
            "sent": r["sent"], "answered": r["answered"],
            "answered_pct": round(100 * r["answered"] / r["sent"], 1) if r["sent"] else None,
            "dropped_server": r["server_dropped"], "unanswered": r["sent"] - r["answered"],
            "p50_ms": ms(percentile(r["latencies"], 50)), "p95_ms": ms(percentile(r["latencies"], 95)),
            "p99_ms": ms(percentile(r["latencies"], 99)), "max_ms": ms(max(r["latencies"], default=None)),
            "send_lag_p95_ms": ms(percentile(r["send_lag"], 95)),
            "reps": r["reps"], "summary": r["summary"], "unexpected": r["unexpected"],
            "errors": r["errors"][:5], "error_count": len(r["errors"]), "close_code": r["close_code"],
        }
        clients.append(c)
        all_lat.extend(r["latencies"])
        all_lag.extend(r["send_lag"])
    ran = [c for c in clients if c["error"] is None]
    sent = sum(c["sent"] for c in ran)
    answered = sum(c["answered"] for c in ran)
    overall = {
        "clients": n_clients, "clients_ok": len(ran),
        "failed": [{"index": c["index"], "error": c["error"]} for c in clients if c["error"]][:10],
        "sent": sent, "answered": answered,
        "answered_pct": round(100 * answered / sent, 1) if sent else 0.0,
        "min_client_answered_pct": min((c["answered_pct"] for c in ran if c["answered_pct"] is not None), default=None),
        "dropped_server": sum(c["dropped_server"] for c in ran), "unanswered": sent - answered,
        "p50_ms": ms(percentile(all_lat, 50)), "p95_ms": ms(percentile(all_lat, 95)),
        "p99_ms": ms(percentile(all_lat, 99)), "max_ms": ms(max(all_lat, default=None)),
        "max_client_p95_ms": max((c["p95_ms"] for c in ran if c["p95_ms"] is not None), default=None),
        "offered_fps": round(len(ran) * cfg.fps, 1),
        "answered_fps": round(answered / cfg.seconds, 1) if cfg.seconds else None,
        "reps": [c["reps"] for c in ran], "summaries": sum(1 for c in ran if c["summary"]),
        "server_errors": sum(c["error_count"] for c in ran), "unexpected": sum(c["unexpected"] for c in ran),
        "send_lag_p95_ms": ms(percentile(all_lag, 95)), "send_lag_max_ms": ms(max(all_lag, default=None)),
        "client_cpu_pct": round(100 * cpu / wall, 1) if sent and wall > 0 else None,
        "wall_s": round(wall, 1),
    }
    out = {"mode": cfg.mode, "fps": cfg.fps, "seconds": cfg.seconds, "speed": cfg.speed, "overall": overall,
           "clients": clients}
    busy = [(t, c) for t, c in machine_samples if marks["start"] <= t <= marks["stop"]]
    if len(busy) >= 2 and busy[-1][0] > busy[0][0]:
        # the whole machine's CPU while every client was streaming, in % of one core (nproc x 100 is all of it)
        overall["machine_cpu_pct"] = round(100 * (busy[-1][1] - busy[0][1]) / (busy[-1][0] - busy[0][0]), 1)
    if rss_samples:
        values = [v for _, v, _ in rss_samples]
        window = [(t, v, c) for t, v, c in rss_samples if marks["start"] <= t <= marks["stop"]]
        sending = [v for _, v, _ in window]
        rss = {"start_mb": round(values[0] / 1024, 1), "max_mb": round(max(values) / 1024, 1),
               "end_mb": round(values[-1] / 1024, 1),
               # the last sample while every session was open and streaming
               "open_mb": round(sending[-1] / 1024, 1) if sending else None,
               "samples": len(values)}
        if len(sending) >= 8:  # growth while streaming: second half against the first quarter
            q = len(sending) // 4
            rss["first_quarter_mb"] = round(sum(sending[:q]) / q / 1024, 1)
            rss["last_quarter_mb"] = round(sum(sending[-q:]) / q / 1024, 1)
        step = max(1, len(rss_samples) // 60)  # a coarse series, at most ~60 points
        rss["series"] = [[round(t - rss_samples[0][0]), round(v / 1024, 1)] for t, v, _ in rss_samples[::step]]
        out["rss"] = rss
        if len(window) >= 2 and window[0][2] is not None and window[-1][2] is not None and window[-1][0] > window[0][0]:
            # the server's CPU while every client was streaming, in % of one core
            overall["server_cpu_pct"] = round(100 * (window[-1][2] - window[0][2]) / (window[-1][0] - window[0][0]), 1)
    out["pass"] = passes(cfg, overall)
    return out


def passes(cfg, overall) -> bool | None:
    checks = []
    if cfg.target_p95 is not None:
        checks.append(overall["p95_ms"] is not None and overall["p95_ms"] <= cfg.target_p95)
    if cfg.target_answered is not None:
        checks.append(overall["answered_pct"] >= cfg.target_answered)
    if cfg.target_client_answered is not None:
        m = overall["min_client_answered_pct"]
        checks.append(m is not None and m >= cfg.target_client_answered)
    if checks:
        checks.append(overall["clients_ok"] == overall["clients"])
        return all(checks)
    return None


def fmt(v, unit=""):
    return "-" if v is None else f"{v:g}{unit}"


def report_text(r: dict, per_client: bool, file=sys.stderr):
    o = r["overall"]
    if per_client:
        for c in r["clients"]:
            if c["error"]:
                print(f"  client {c['index']:3d}: FAILED {c['error']}", file=file)
                continue
            print(f"  client {c['index']:3d}: sent {c['sent']} answered {c['answered']} ({fmt(c['answered_pct'], '%')}) "
                  f"dropped {c['dropped_server']} (unanswered {c['unanswered']}) "
                  f"p50/p95/p99 {fmt(c['p50_ms'])}/{fmt(c['p95_ms'])}/{fmt(c['p99_ms'])} ms reps {fmt(c['reps'])}"
                  + (f" errors {c['error_count']} e.g. {c['errors'][0]}" if c["error_count"] else "")
                  + ("" if c["summary"] else " NO SUMMARY"), file=file)
    verdict = {True: " PASS", False: " FAIL", None: ""}[r["pass"]]
    reps = sorted(set(x for x in o["reps"] if x is not None))
    line = (f"{r['mode']} x{o['clients']} @{r['fps']:g}fps {r['seconds']:g}s: clients ok {o['clients_ok']}/{o['clients']}, "
            f"sent {o['sent']} answered {o['answered']} ({o['answered_pct']:g}%, worst client "
            f"{fmt(o['min_client_answered_pct'], '%')}), dropped {o['dropped_server']} (unanswered {o['unanswered']}), "
            f"latency p50/p95/p99 {fmt(o['p50_ms'])}/{fmt(o['p95_ms'])}/{fmt(o['p99_ms'])} ms (max {fmt(o['max_ms'])}), "
            f"reps {reps if len(reps) != 1 else reps[0]}, summaries {o['summaries']}, "
            f"send lag p95 {fmt(o['send_lag_p95_ms'])} ms, client CPU {fmt(o['client_cpu_pct'], '%')}")
    if "rss" in r:
        m = r["rss"]
        line += f", server RSS start/max/end {m['start_mb']}/{m['max_mb']}/{m['end_mb']} MB (open {fmt(m['open_mb'])})"
    if o.get("server_cpu_pct") is not None:
        line += f", server CPU {o['server_cpu_pct']:g}%"
    if o.get("machine_cpu_pct") is not None:
        line += f", machine CPU {o['machine_cpu_pct']:g}% of {(os.cpu_count() or 1) * 100}%"
        if o.get("server_cpu_pct") is not None and o.get("client_cpu_pct") is not None:
            # what neither the server nor this generator used: other processes (and the kernel's share of both)
            line += f" (others ~{max(0.0, o['machine_cpu_pct'] - o['server_cpu_pct'] - o['client_cpu_pct']):.0f}%)"
    if o["server_errors"]:
        line += f", server errors {o['server_errors']}"
    if o["failed"]:
        line += f", failed e.g. {o['failed'][0]['error']}"
    print(line + verdict, file=file)


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
        if not cfg.video:
            ap.error("--mode camera needs --video")
        rate = cfg.fps / cfg.speed
        source = CameraSource(decode_video(cfg.video, rate, cfg.size, cfg.quality), rate)
    else:
        if not cfg.track:
            ap.error("--mode keypoints needs --track")
        source = KeypointSource(cfg.track)
    print(f"live-load: {cfg.mode} source {source.describe()}", file=sys.stderr)
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
    result["source"] = source.describe()
    la = result["load_after"]
    print(f"machine: loadavg {' '.join(str(x) for x in la['loadavg'])} (before {' '.join(str(x) for x in before['loadavg'])}), "
          f"nproc {la['nproc']}", file=sys.stderr)
    if cfg.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
