"""The results of scripts/live-load.py: per-client and overall figures (summarize), PASS/FAIL against targets,
and the text report."""
from __future__ import annotations

import math
import os
import sys


def percentile(values: list[float], p: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)



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
            "video": r["video"], "exercise": r["exercise"], "truth": r["truth"],
            # frames answered per second of the client's stream: the rate it was coached at
            "fps_coached": round(r["answered"] * cfg.fps / r["sent"], 1) if r["sent"] else None,
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
        "counts_right": sum(1 for c in ran if c["truth"] is not None and c["reps"] == c["truth"]),
        "min_client_fps_coached": min((c["fps_coached"] for c in ran if c["fps_coached"] is not None), default=None),
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
                  + (f" (truth {c['truth']}: {'right' if c['reps'] == c['truth'] else 'WRONG'}) {c['video']} "
                     f"{c['exercise']}, coached at {fmt(c['fps_coached'])} fps" if c["truth"] is not None else "")
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
