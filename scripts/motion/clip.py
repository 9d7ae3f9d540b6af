"""One generated recording in the world: a body doing repetitions of a template, with its true angles.

`make_clip(exercise, definition, rng, ...)` returns a `Clip`: the time of each frame, the 33 world landmarks of
each frame (metres), each repetition's window, and per repetition the true values (3-D, the coach's definitions)
of every angle the definition reports, with the rules the true values breach.
"""

import dataclasses

import numpy as np

from .body import FEET, INDEX, Body, pose_landmarks
from .templates import TEMPLATES, derive, expand
from .truth import measure, rule_breached


@dataclasses.dataclass
class Clip:
    exercise: str
    fault: str  # a rule id of the definition, or "none"
    side: str  # "left" / "right" (the moving side of a one-sided exercise) or "both"
    body: Body
    times: np.ndarray
    points: np.ndarray  # frames × 33 × 3, metres
    windows: list  # [(start, end)] seconds, one per repetition (the hold's window for a hold)
    truth: dict  # "angle.side" → [{"peak", "max", "min"}] per repetition
    breached: list  # rule ids the true values breach in some repetition
    hold: bool


def _profile(u, rise, hold):
    """0 → 1 → 0 over u in [0, 1]: a cosine rise over `rise`, a hold of `hold`, a cosine return."""
    if u < rise:
        return 0.5 - 0.5 * np.cos(np.pi * u / rise)
    if u < rise + hold:
        return 1.0
    back = (u - rise - hold) / max(1e-6, 1 - rise - hold)
    return 0.5 + 0.5 * np.cos(np.pi * min(1.0, back))


def _solve(f, lo, hi, steps=12, guess=None):
    """A root of f in [lo, hi]: secant steps from `guess` (the previous frame's root), else a scan then bisection;
    the scan's best point when there is no sign change."""
    if guess is not None:
        x0, x1 = guess, guess + 0.5
        f0, f1 = f(x0), f(x1)
        for _ in range(8):
            if abs(f1) < 1e-5:
                return x1
            if f1 == f0:
                break
            x0, x1, f0 = x1, float(np.clip(x1 - f1 * (x1 - x0) / (f1 - f0), lo, hi)), f1
            f1 = f(x1)
    xs = np.linspace(lo, hi, steps)
    ys = [f(x) for x in xs]
    for i in range(steps - 1):
        if ys[i] == 0 or ys[i] * ys[i + 1] < 0:
            a, b, fa = xs[i], xs[i + 1], ys[i]
            for _ in range(18):
                m = (a + b) / 2
                fm = f(m)
                if fa * fm <= 0:
                    b = m
                else:
                    a, fa = m, fm
            return (a + b) / 2
    return xs[int(np.argmin(np.abs(ys)))]


_GUESS = {}


def _foot(points, side):
    names = [n for n in FEET if n.startswith(side)]
    return np.mean([points[INDEX[n]] for n in names], axis=0)


def place(body, params, spec, side):
    """The world landmarks of one frame: the template's posture meeting the floor, bar or chair."""
    posture = spec["posture"]
    n = body.length
    if posture == "pushup":
        forearms = spec.get("contact") == "forearms"

        def arms(pitch):
            q = dict(params, pitch=pitch)
            for s in ("l", "r"):
                if forearms:  # upper arm straight down, forearm flat on the floor toward the head
                    q.update({"shElev_" + s: pitch, "elbow_" + s: 90.0, "bendUp_" + s: 90})
                    continue
                e = np.radians(q.get("elbow_" + s, 0.0))
                u, f = n["upperArm"], n["forearm"]
                reach = np.sqrt(u * u + f * f + 2 * u * f * np.cos(e))
                alpha = np.degrees(np.arcsin(np.clip(f * np.sin(e) / reach, -1, 1)))
                q["shElev_" + s] = pitch - alpha
                q["bendUp_" + s] = 90
            return q
        floor = lambda pts: min(pts[INDEX["leftFootIndex"]][1], pts[INDEX["rightFootIndex"]][1])  # noqa: E731
        support = ("leftElbow", "rightElbow") if forearms else ("leftWrist", "rightWrist")
        hands = lambda pts: (pts[INDEX[support[0]]][1] + pts[INDEX[support[1]]][1]) / 2  # noqa: E731
        def gap(a):
            pts = pose_landmarks(body, arms(a))
            return hands(pts) - floor(pts)
        pitch = _solve(gap, 20, 100, guess=params.pop("_guess", None))
        pts = pose_landmarks(body, arms(pitch))
        params["pitch"] = pitch
        _GUESS["value"] = pitch
        anchor = (_foot(pts, "left") + _foot(pts, "right")) / 2
        return pts - np.array([anchor[0], floor(pts), anchor[2]])
    if posture == "bridge":
        def lying(theta):
            return pose_landmarks(body, dict(params, pitch=-90 + theta))
        shoulders = lambda pts: (pts[INDEX["leftShoulder"]][1] + pts[INDEX["rightShoulder"]][1]) / 2  # noqa: E731
        feet = lambda pts: min(pts[INDEX[k]][1] for k in FEET)  # noqa: E731
        def rise(t):
            pts = lying(t)
            return feet(pts) - shoulders(pts) + 0.05
        theta = _solve(rise, -70, 20, guess=params.pop("_guess", None))
        pts = lying(theta)
        params["pitch"] = -90 + theta
        _GUESS["value"] = theta
        anchor = (_foot(pts, "left") + _foot(pts, "right")) / 2
        return pts - np.array([anchor[0], feet(pts), anchor[2]])
    if posture == "supine":
        pts = pose_landmarks(body, dict(params, pitch=-90.0))
        params["pitch"] = -90.0
        hips = (pts[INDEX["leftHip"]] + pts[INDEX["rightHip"]]) / 2
        low = min(hips[1], min(pts[INDEX[k]][1] for k in FEET))
        lift = spec.get("bench", 0.0) - hips[1] + 0.08 if spec.get("bench") else -low
        return pts + np.array([-hips[0], lift, -hips[2]])
    pts = pose_landmarks(body, params)
    if posture in ("hang", "dip"):
        wrists = (pts[INDEX["leftWrist"]] + pts[INDEX["rightWrist"]]) / 2
        height = 2.3 if posture == "hang" else 1.05
        return pts - wrists + np.array([0.0, height, 0.0])
    if posture == "seated":
        seat = n["shank"] + n["ankleHeight"] + 0.03
        return pts + np.array([0.0, seat, 0.0])
    anchor_side = spec.get("anchor")
    if anchor_side in ("s", "o"):
        moving = side if side in ("l", "r") else "l"
        which = moving if anchor_side == "s" else ("r" if moving == "l" else "l")
        foot = _foot(pts, "left" if which == "l" else "right")
        target_x = (1 if which == "l" else -1) * n["hipWidth"] / 2
    else:
        foot = (_foot(pts, "left") + _foot(pts, "right")) / 2
        target_x = 0.0
    low = min(pts[INDEX[k]][1] for k in FEET)
    return pts - np.array([foot[0] - target_x, low, foot[2]])


def _graded(spec, change, severity):
    """A fault's change taken `severity` of the way from the template's own values."""
    def start(part, key):
        if part == "peak":
            return spec["peak"].get(key, spec["base"].get(key, 0.0))
        return spec["base"].get(key, 0.0)

    graded = {}
    for part, values in change.items():
        if part in ("base", "peak"):
            graded[part] = {key: start(part, key) + severity * (value - start(part, key))
                            for key, value in values.items()}
        else:  # "depth": a multiplier of the excursion
            graded[part] = 1.0 + severity * (values - 1.0)
    return graded


def make_clip(exercise, definition, rng, fault="none", reps=None, fps=30.0, depth=None, tempo=None, side=None,
              body=None, severity=1.0):
    """A clip of `exercise` (library `definition` as parsed JSON); every choice not given is drawn from `rng`.
    `severity` grades the fault: 0 is the template's movement, 1 the fault as the template names it (a share of
    the way from one to the other; above 1 further), so a fault can be mild, near a rule's bound, or gross."""
    spec = TEMPLATES[exercise]
    hold = bool(spec.get("hold"))
    body = body or Body(rng)
    sides = spec["sides"]
    if side is None:
        side = rng.choice(["l", "r"]) if sides in ("either", "alternate") else "b"
    reps = reps if reps is not None else (1 if hold else int(rng.integers(3, 8)))
    depth = depth if depth is not None else float(rng.uniform(0.88, 1.1))
    tempo = tempo if tempo is not None else float(rng.uniform(1.4, 3.4))  # seconds per repetition
    change = spec.get("faults", {}).get(fault, {}) if fault != "none" else {}
    if change and severity != 1.0:
        change = _graded(spec, change, severity)
    base = dict(spec["base"], **change.get("base", {}))
    peak = dict(spec["peak"], **change.get("peak", {}))
    for key in change.get("base", {}):
        peak.pop(key, None)
    depth *= change.get("depth", 1.0)
    lead, tail = float(rng.uniform(0.6, 1.4)), float(rng.uniform(0.5, 1.0))
    windows, t = [], lead
    plan = []
    for r in range(reps):
        duration = (float(rng.uniform(8, 14)) if hold else tempo * float(rng.uniform(0.9, 1.1)))
        plan.append((t, duration, depth * float(rng.uniform(0.96, 1.04)), float(rng.uniform(0.35, 0.55)),
                     float(rng.uniform(0.0, 0.15)) if not hold else 0.8))
        windows.append((t, t + duration))
        t += duration + (0 if hold else float(rng.uniform(0.1, 0.8)))
    total = t + tail
    times = np.arange(0, total, 1 / fps)
    frames = []
    _GUESS.clear()
    for now in times:
        s, scale, flip = 0.0, 1.0, 1.0
        for r, (start, duration, d, rise, holdshare) in enumerate(plan):
            if start <= now < start + duration:
                u = (now - start) / duration
                if hold:
                    s = min(1.0, u / 0.08, (1 - u) / 0.08)
                else:
                    s = _profile(u, rise * (1 - holdshare), holdshare)
                scale = d
                flip = -1.0 if sides == "alternate" and r % 2 else 1.0
        moving = side if side in ("l", "r") else "l"
        b, pk = expand(base, moving), expand(peak, moving)
        params = {}
        for key in set(b) | set(pk):
            start_value = b.get(key, 0.0)
            value = start_value + s * scale * (pk.get(key, start_value) - start_value)
            params[key] = value * (flip if key == "trunkSide" else 1.0)
        if spec.get("derive"):
            params = derive(params, spec["derive"])
        if frames and "value" in _GUESS:
            params["_guess"] = _GUESS["value"]
        pts = place(body, params, spec, side)
        if spec.get("jump"):
            pts = pts + np.array([0.0, spec["jump"] * np.sin(np.pi * s) ** 2, 0.0])
        frames.append(pts)
    points = np.array(frames)
    truth, breached = _truth(definition, times, points, windows, side)
    return Clip(exercise, fault, {"l": "left", "r": "right"}.get(side, "both"), body, times, points, windows,
                truth, breached, hold)


def _truth(definition, times, points, windows, side):
    sides = ["left", "right"]
    truth = {}
    primary = definition["primary"]
    for angle in definition["angles"]:
        for s in (sides if angle not in ("trunkLean", "kneeWidthRatio", "headShoulderRatio") else ["left"]):
            key = f"{angle}.{s}" if angle not in ("trunkLean", "kneeWidthRatio", "headShoulderRatio") else angle
            series = np.array([measure(p, angle, s) for p in points])
            truth[key] = series
    per_rep = {}
    breached = set()
    moving = {"l": "left", "r": "right"}.get(side)
    rep = definition.get("repetition", {})
    decreasing = rep.get("peak", 1) < rep.get("start", 0)
    for key, series in truth.items():
        per_rep[key] = []
        for start, end in windows:
            window = series[(times >= start) & (times <= end)]
            primary_key = f"{primary}.{moving or 'left'}" if f"{primary}.left" in truth else primary
            prim = truth[primary_key][(times >= start) & (times <= end)]
            at = int(np.nanargmin(prim) if decreasing else np.nanargmax(prim))
            per_rep[key].append({"peak": round(float(window[at]), 2), "max": round(float(np.nanmax(window)), 2),
                                 "min": round(float(np.nanmin(window)), 2)})
    for rule in definition.get("formRules", []):
        for key, values in per_rep.items():
            name, _, s = key.partition(".")
            if name != rule["angle"] or (moving and s and s != moving):
                continue
            if any(rule_breached(v, rule) for v in values):
                breached.add(rule["id"])
    return per_rep, sorted(breached)
