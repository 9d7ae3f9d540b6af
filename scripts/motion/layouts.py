"""The keypoint layouts of the real sources, made from the 33 observed landmarks (issue 28 item 2: generated data
covers every real source's skeleton).

- `mediapipe-33`: BlazePose's 33 landmarks, depth guessed (the phone videos: calimiro, kaiakol); the generator's
  own output, unchanged.
- `openpose-18`: OpenPose's COCO-18 order as Pose Trainer's tracks list it (nose, neck, right arm, left arm, right
  leg, left leg, eyes, ears), 2-D (no depth), lower and more spread confidences than BlazePose's, and a keypoint the
  model did not find written as 0, 0, 0: out of the picture, and often the far arm behind the trunk (OpenPose drops
  what it does not see rather than guessing it).
- `kinect-25`: Kinect v2's 25 joints as KIMORE's tracks list them, with true depth (a depth sensor): its own
  SpineBase (`root`), SpineMid, Neck (about a third of the way from the shoulders to the head), Head, hands, hand
  tips, thumbs and feet; every joint written (an occluded or out-of-picture joint is "inferred": confidence 0.5, its
  position kept), less keypoint noise than a video model's.

A layout point is a weighted sum of landmarks (a midpoint, a blend), taken on the observed image coordinates and
depth; its confidence is the lowest of the landmarks it uses.
"""

import numpy as np

from .body import INDEX

DEFAULT = "mediapipe-33"

OPENPOSE_18 = ["nose", "neck", "rightShoulder", "rightElbow", "rightWrist", "leftShoulder", "leftElbow",
               "leftWrist", "rightHip", "rightKnee", "rightAnkle", "leftHip", "leftKnee", "leftAnkle", "rightEye",
               "leftEye", "rightEar", "leftEar"]
KINECT_25 = ["root", "spineMid", "neck", "head", "leftShoulder", "leftElbow", "leftWrist", "leftHand",
             "rightShoulder", "rightElbow", "rightWrist", "rightHand", "leftHip", "leftKnee", "leftAnkle", "leftFoot",
             "rightHip", "rightKnee", "rightAnkle", "rightFoot", "spineShoulder", "leftHandTip", "leftThumb",
             "rightHandTip", "rightThumb"]


def _mid(*names):
    return {n: 1.0 / len(names) for n in names}


def _blend(a, b, toward):
    return {a: 1.0 - toward, b: toward}


def _combine(*parts):
    """Sums weighted landmark dicts, each with its own weight: _combine((0.5, {...}), (0.5, {...}))."""
    out = {}
    for weight, part in parts:
        for name, w in part.items():
            out[name] = out.get(name, 0.0) + weight * w
    return out


SHOULDERS = _mid("leftShoulder", "rightShoulder")
HIPS = _mid("leftHip", "rightHip")
HEAD = _mid("leftEar", "rightEar")

# Each layout point as weights of the 33 landmarks.
RECIPES = {
    "openpose-18": {
        **{name: {name: 1.0} for name in OPENPOSE_18 if name in INDEX},
        "neck": SHOULDERS,
    },
    "kinect-25": {
        **{name: {name: 1.0} for name in KINECT_25 if name in INDEX},
        "root": HIPS,
        "spineMid": _combine((0.5, HIPS), (0.5, SHOULDERS)),
        "spineShoulder": SHOULDERS,
        "neck": _combine((0.7, SHOULDERS), (0.3, HEAD)),
        "head": HEAD,
        **{f"{s}Hand": _combine((0.6, {f"{s}Wrist": 1.0}), (0.4, _mid(f"{s}Index", f"{s}Pinky"))) for s in
           ("left", "right")},
        **{f"{s}HandTip": {f"{s}Index": 1.0} for s in ("left", "right")},
        **{f"{s}Foot": _blend(f"{s}Heel", f"{s}FootIndex", 0.7) for s in ("left", "right")},
    },
}
NAMES = {"openpose-18": OPENPOSE_18, "kinect-25": KINECT_25}
LAYOUTS = [DEFAULT, "openpose-18", "kinect-25"]


def adjust_artefacts(layout, artefacts, rng, clean=False):
    """What the source's model or sensor does, set on the drawn artefacts before the clip is observed (`clean`:
    only the depth)."""
    if layout == "openpose-18":
        artefacts.depth = "none"
        artefacts.out_of_picture = "drop"
    elif layout == "kinect-25":
        artefacts.depth = "true"
        artefacts.out_of_picture = "keep"
        if clean:
            return artefacts
        artefacts.noise = float(rng.uniform(0.003, 0.01))
        artefacts.drift = float(rng.uniform(0.0, 0.008))
        artefacts.missed_frames = 0.0
    return artefacts


def convert(layout, observed, rng):
    """The observed 33-landmark frames (33 × 4: x, y, z, c, or None) in `layout`: (names, frames)."""
    if layout == DEFAULT:
        return None, observed
    names = NAMES[layout]
    weights = np.zeros((len(names), len(INDEX)))
    for j, name in enumerate(names):
        for landmark, w in RECIPES[layout][name].items():
            weights[j, INDEX[landmark]] = w
    used = weights > 0
    frames = []
    for frame in observed:
        if frame is None:
            frames.append(None)
            continue
        out = np.zeros((len(names), 4))
        out[:, :3] = weights @ frame[:, :3]
        out[:, 3] = np.array([frame[used[j], 3].min() for j in range(len(names))])
        if layout == "openpose-18":
            # Lower, more spread confidences; what BlazePose would guess (c < 0.3) OpenPose mostly does not write.
            seen = out[:, 3] >= 0.3
            out[:, 3] = np.where(seen, np.clip(out[:, 3] * rng.uniform(0.45, 1.0, len(names)), 0.05, 0.95), 0.0)
            dropped = ~seen & (rng.random(len(names)) < 0.7)
            out[~seen & ~dropped, 3] = rng.uniform(0.05, 0.3, int((~seen & ~dropped).sum()))
            out[out[:, 3] == 0, :3] = 0.0
        else:
            # Kinect: tracked (1) or inferred (0.5), every joint written.
            out[:, 3] = np.where(out[:, 3] >= 0.7, 1.0, 0.5)
        frames.append(out)
    return names, frames


def draw(rng):
    """A layout for `--layout mixed`: half the clips MediaPipe's, a quarter each OpenPose's and Kinect's."""
    r = rng.random()
    return DEFAULT if r < 0.5 else ("openpose-18" if r < 0.75 else "kinect-25")
