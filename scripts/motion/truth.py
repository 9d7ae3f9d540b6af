"""The library's measurements computed on the true 3-D landmarks, with the coach's definitions
(Sources/CoachKit/Library/AngleKind.swift), so a generated clip carries what each angle really was.

`trunkLean` is the trunk against the true vertical (the coach measures it in the image). The image-plane
ratios are taken in their canonical view: `kneeWidthRatio` and `headShoulderRatio` seen from the front,
`upperArmInclination` from the side.
"""

import numpy as np

from .body import INDEX


def _angle(u, v):
    lengths = np.linalg.norm(u) * np.linalg.norm(v)
    if lengths < 1e-9:
        return float("nan")
    return float(np.degrees(np.arccos(np.clip(np.dot(u, v) / lengths, -1, 1))))


def _p(points, name):
    if isinstance(points, dict):
        if name in points:
            return points[name]
        if name == "nose" and "head" in points:
            return points["head"]
        if name in ("neck", "root"):
            a, b = ("leftShoulder", "rightShoulder") if name == "neck" else ("leftHip", "rightHip")
            return (points[a] + points[b]) / 2
        if name.endswith("FootIndex"):
            return points[name.replace("FootIndex", "Toes")]
        raise KeyError(name)
    if name == "neck":
        return (points[INDEX["leftShoulder"]] + points[INDEX["rightShoulder"]]) / 2
    if name == "root":
        return (points[INDEX["leftHip"]] + points[INDEX["rightHip"]]) / 2
    return points[INDEX[name]]


def measure(points, angle, side):
    """One measurement on a 33×3 world pose (metres, y up), or on a dict of named 3-D points (y up; `neck`/`root`
    taken from it when present, else derived); `side` 'left' or 'right'."""
    p = lambda name: _p(points, name)  # noqa: E731
    own = lambda joint: p(side + joint)  # noqa: E731
    other = "right" if side == "left" else "left"
    inside = lambda a, b, c: _angle(a - b, c - b)  # noqa: E731
    if angle == "kneeFlexion":
        return 180 - inside(own("Hip"), own("Knee"), own("Ankle"))
    if angle == "hipFlexion":
        return 180 - inside(own("Shoulder"), own("Hip"), own("Knee"))
    if angle == "hipAbduction":
        return _angle(p("root") - p("neck"), own("Knee") - own("Hip"))
    if angle in ("shoulderFlexion", "shoulderAbduction", "shoulderScaption", "shoulderExtension"):
        return inside(own("Elbow"), own("Shoulder"), own("Hip"))
    if angle == "shoulderRotation":
        return 90 - _angle(own("Shoulder") - p(other + "Shoulder"), own("Wrist") - own("Elbow"))
    if angle == "elbowFlexion":
        return 180 - inside(own("Shoulder"), own("Elbow"), own("Wrist"))
    if angle == "anklePlantarFlexion":
        return inside(own("Knee"), own("Ankle"), own("FootIndex")) - 90
    if angle == "trunkLean":
        return _angle(p("neck") - p("root"), np.array([0.0, 1.0, 0.0]))
    if angle == "bodyLine":
        return 180 - inside(own("Shoulder"), own("Hip"), own("Ankle"))
    if angle == "kneeWidthRatio":
        ankles = abs(p("leftAnkle")[0] - p("rightAnkle")[0])
        return abs(p("leftKnee")[0] - p("rightKnee")[0]) / ankles if ankles > 1e-6 else float("nan")
    if angle == "headShoulderRatio":
        width = abs(p("leftShoulder")[0] - p("rightShoulder")[0])
        return (p("nose")[1] - p("neck")[1]) / width if width > 1e-6 else float("nan")
    if angle == "upperArmInclination":
        down = own("Elbow") - own("Shoulder")
        return float(np.degrees(np.arctan2(down[2], -down[1])))
    raise ValueError(f"unknown angle {angle}")


SIDED = {"trunkLean": False, "kneeWidthRatio": False, "headShoulderRatio": False}


def rule_breached(values, rule):
    """Whether one repetition's true values (`{'peak': v, 'max': v, 'min': v}`) breach a form rule."""
    at = rule["at"]
    if at == "range":
        value = values["max"] - values["min"]
        return ("max" in rule and value > rule["max"]) or ("min" in rule and value < rule["min"])
    if at == "peak":
        low = high = values["peak"]
    else:
        low, high = values["min"], values["max"]
    return ("max" in rule and high > rule["max"]) or ("min" in rule and low < rule["min"])
