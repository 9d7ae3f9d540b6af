"""A 33-landmark (MediaPipe BlazePose order) body posed by forward kinematics from clinical joint angles.

World frame: metres, x toward the person's own left when facing +z, y up, z forward (the direction the person
faces when `yaw` is 0). A pose is a dict of joint parameters (degrees, missing = 0):

- whole body: `pitch` (forward tilt of the pelvis and all above it about the left-right axis: 90 = lying face
  down, head first along +z), `roll` (tilt toward the left), `yaw`;
- trunk against the pelvis: `trunkFlex` (forward), `trunkSide` (toward the left), `shrug` (metres up);
- per side `l`/`r` (suffix `_l`, `_r`): `hipFlex` (thigh forward of the trunk line; negative = extension),
  `hipAbd` (thigh outward), `knee` (flexion), `ankle` (plantar flexion), `shElev` (humerus from the trunk's
  downward line), `shPlane` (plane of elevation: 0 forward, 90 sideways, 60 scaption: 30° forward of the frontal plane), `elbow` (flexion),
  `valgus` (shank tilted outward: the knees cave in), `bendPlane`/`bendUp` (where the forearm bends to, in the trunk frame: 0 forward, 90 outward; bendUp tilts it
  toward up).

`Body` holds one person's proportions (Drillis-Contini fractions of the height, each varied).
"""

import numpy as np

LANDMARKS = [
    "nose", "leftEyeInner", "leftEye", "leftEyeOuter", "rightEyeInner", "rightEye", "rightEyeOuter", "leftEar",
    "rightEar", "mouthLeft", "mouthRight", "leftShoulder", "rightShoulder", "leftElbow", "rightElbow", "leftWrist",
    "rightWrist", "leftPinky", "rightPinky", "leftIndex", "rightIndex", "leftThumb", "rightThumb", "leftHip",
    "rightHip", "leftKnee", "rightKnee", "leftAnkle", "rightAnkle", "leftHeel", "rightHeel", "leftFootIndex",
    "rightFootIndex",
]
INDEX = {name: i for i, name in enumerate(LANDMARKS)}

# Segment lengths as fractions of standing height (Drillis & Contini, as tabulated by Winter).
FRACTIONS = {
    "trunk": 0.288,  # hip centre to shoulder centre
    "shoulderWidth": 0.200,  # between the shoulder joints
    "hipWidth": 0.115,  # between the hip joints
    "upperArm": 0.186,
    "forearm": 0.146,
    "hand": 0.108,
    "thigh": 0.245,
    "shank": 0.246,
    "ankleHeight": 0.039,
    "foot": 0.152,
    "head": 0.130,  # shoulder centre to the eyes, roughly
}


class Body:
    """One person's proportions: height (m) and each segment's fraction, varied by `rng` (±`spread`)."""

    def __init__(self, rng=None, height=1.72, spread=0.07):
        self.height = height if rng is None else float(rng.uniform(1.50, 1.95))
        self.length = {}
        for name, fraction in FRACTIONS.items():
            factor = 1.0 if rng is None else float(np.clip(rng.normal(1.0, spread), 1 - 2 * spread, 1 + 2 * spread))
            self.length[name] = fraction * factor * self.height

    def describe(self):
        return {"height": round(self.height, 3),
                "armToLeg": round((self.length["upperArm"] + self.length["forearm"])
                                  / (self.length["thigh"] + self.length["shank"]), 3),
                "shoulderToHip": round(self.length["shoulderWidth"] / self.length["hipWidth"], 3)}


def unit(v):
    n = np.linalg.norm(v)
    return v / n if n > 1e-12 else v


def tilt(frame, i, j, degrees):
    """Rotates column i of an orthonormal frame toward column j by `degrees` (the third column stays)."""
    a = np.radians(degrees)
    out = frame.copy()
    out[:, i] = np.cos(a) * frame[:, i] + np.sin(a) * frame[:, j]
    out[:, j] = np.cos(a) * frame[:, j] - np.sin(a) * frame[:, i]
    return out


L_, U_, F_ = 0, 1, 2  # columns of a frame: left, up, forward


def pelvis_frame(p):
    frame = np.eye(3)
    frame = tilt(frame, F_, L_, p.get("yaw", 0.0))
    frame = tilt(frame, U_, F_, p.get("pitch", 0.0))
    frame = tilt(frame, U_, L_, p.get("roll", 0.0))
    return frame


def _limb_direction(frame, out, elevation, plane):
    e, ph = np.radians(elevation), np.radians(plane)
    return unit(-np.cos(e) * frame[:, U_] + np.sin(e) * (np.cos(ph) * frame[:, F_] + np.sin(ph) * out))


def _bend(first, toward, fallback):
    v = toward - np.dot(toward, first) * first
    if np.linalg.norm(v) < 1e-6:
        v = fallback - np.dot(fallback, first) * first
    return unit(v)


def pose_landmarks(body, p):
    """The 33 landmarks (33×3, metres) with the pelvis centre at the origin."""
    n = body.length
    pts = np.zeros((len(LANDMARKS), 3))
    pelvis = pelvis_frame(p)
    trunk = tilt(pelvis, U_, F_, p.get("trunkFlex", 0.0))
    trunk = tilt(trunk, U_, L_, p.get("trunkSide", 0.0))
    trunk = tilt(trunk, F_, L_, p.get("trunkTwist", 0.0))
    neck = n["trunk"] * trunk[:, U_]
    shrug = p.get("shrug", 0.0)
    for side, sign in (("l", 1.0), ("r", -1.0)):
        prefix = "left" if side == "l" else "right"
        g = lambda key, default=0.0: p.get(f"{key}_{side}", default)  # noqa: E731
        # Arm, in the trunk frame.
        out_t = sign * trunk[:, L_]
        shoulder = neck + sign * n["shoulderWidth"] / 2 * trunk[:, L_] + shrug * trunk[:, U_]
        upper = _limb_direction(trunk, out_t, g("shElev"), g("shPlane"))
        bp, bu = np.radians(g("bendPlane")), np.radians(g("bendUp"))
        toward = np.cos(bu) * (np.cos(bp) * trunk[:, F_] + np.sin(bp) * out_t) + np.sin(bu) * trunk[:, U_]
        bend = _bend(upper, toward, trunk[:, U_])
        el = np.radians(g("elbow"))
        fore = np.cos(el) * upper + np.sin(el) * bend
        elbow = shoulder + n["upperArm"] * upper
        wrist = elbow + n["forearm"] * fore
        palm = _bend(fore, -out_t, trunk[:, F_])  # the thumb side, roughly
        pts[INDEX[prefix + "Shoulder"]] = shoulder
        pts[INDEX[prefix + "Elbow"]] = elbow
        pts[INDEX[prefix + "Wrist"]] = wrist
        pts[INDEX[prefix + "Index"]] = wrist + 0.8 * n["hand"] * fore + 0.02 * palm
        pts[INDEX[prefix + "Pinky"]] = wrist + 0.7 * n["hand"] * fore - 0.03 * palm
        pts[INDEX[prefix + "Thumb"]] = wrist + 0.4 * n["hand"] * fore + 0.05 * palm
        # Leg, in the pelvis frame.
        out_p = sign * pelvis[:, L_]
        hip = sign * n["hipWidth"] / 2 * pelvis[:, L_]
        f, a = np.radians(g("hipFlex")), np.radians(g("hipAbd"))
        thigh = unit(np.cos(a) * (-np.cos(f) * pelvis[:, U_] + np.sin(f) * pelvis[:, F_]) + np.sin(a) * out_p)
        back = _bend(thigh, -(np.cos(f) * pelvis[:, F_] + np.sin(f) * pelvis[:, U_]), -pelvis[:, F_])
        k = np.radians(g("knee"))
        shank = np.cos(k) * thigh + np.sin(k) * back
        valgus = np.radians(g("valgus"))  # the shank tilted outward from the thigh's plane (knees caving in)
        shank = unit(np.cos(valgus) * shank + np.sin(valgus) * out_p)
        toe = unit(np.sin(k) * thigh - np.cos(k) * back)
        pf = np.radians(g("ankle"))
        toe = unit(np.cos(pf) * toe + np.sin(pf) * shank)
        knee = hip + n["thigh"] * thigh
        ankle = knee + n["shank"] * shank
        pts[INDEX[prefix + "Hip"]] = hip
        pts[INDEX[prefix + "Knee"]] = knee
        pts[INDEX[prefix + "Ankle"]] = ankle
        pts[INDEX[prefix + "Heel"]] = ankle + 0.6 * n["ankleHeight"] * shank - 0.22 * n["foot"] * toe
        pts[INDEX[prefix + "FootIndex"]] = ankle + 0.8 * n["ankleHeight"] * shank + 0.75 * n["foot"] * toe
    # Head: follows the trunk, tilted by `headFlex`.
    head = tilt(trunk, U_, F_, p.get("headFlex", 0.0))
    h = n["head"]
    centre = neck + 0.55 * h * head[:, U_]
    eyes = centre + 0.08 * h * head[:, U_] + 0.55 * h * 0.5 * head[:, F_]
    pts[INDEX["nose"]] = centre + 0.45 * h * 0.5 * head[:, F_] * 1.25 - 0.05 * h * head[:, U_]
    for prefix, sign in (("left", 1.0), ("right", -1.0)):
        side = sign * head[:, L_]
        pts[INDEX[prefix + "EyeInner"]] = eyes + 0.10 * h * side
        pts[INDEX[prefix + "Eye"]] = eyes + 0.17 * h * side
        pts[INDEX[prefix + "EyeOuter"]] = eyes + 0.24 * h * side - 0.02 * h * head[:, F_]
        pts[INDEX[prefix + "Ear"]] = centre + 0.42 * h * side - 0.05 * h * head[:, F_]
        pts[INDEX["mouth" + prefix.capitalize()]] = centre - 0.22 * h * head[:, U_] + 0.24 * h * head[:, F_] \
            + 0.12 * h * side
    return pts


def lowest(points, names):
    return min(points[INDEX[name]][1] for name in names)


FEET = ("leftHeel", "rightHeel", "leftFootIndex", "rightFootIndex")
