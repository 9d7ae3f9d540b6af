"""Cameras, and what a pose model does to real people, turning a world clip into a pose-track file.

A camera stands at `azimuth` degrees around the person (0 = in front, 90 = at the person's left, 180 = behind),
at `height` metres, `distance` metres from the point it looks at, with a horizontal field of view `fov` and an
image `width`×`height`. The artefacts (`Artefacts`) are those of a video pose model (BlazePose) on real people:
keypoint noise (white and slowly drifting), depth guessed (a flattened, jittering z), keypoints out of the
picture dropped or folded onto its border, a far arm hidden behind the trunk guessed near the near arm, and
frames where nobody was found.
"""

import dataclasses
import json

import numpy as np

from .body import INDEX, LANDMARKS


@dataclasses.dataclass
class Camera:
    azimuth: float
    elevation: float  # of the line of sight (positive = looking down at the person)
    distance: float
    height: float
    fov: float
    width: int
    height_px: int
    target: np.ndarray

    @property
    def focal(self):
        return self.width / 2 / np.tan(np.radians(self.fov) / 2)

    @property
    def position(self):
        a = np.radians(self.azimuth)
        flat = np.sqrt(max(1e-6, self.distance ** 2 - (self.height - self.target[1]) ** 2))
        return np.array([self.target[0] + flat * np.sin(a), self.height, self.target[2] + flat * np.cos(a)])

    def axes(self):
        forward = self.target - self.position
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        return right, up, forward

    def project(self, points):
        """Pixels x, y and depth (metres along the line of sight) of world points (… × 3)."""
        right, up, forward = self.axes()
        rel = points - self.position
        depth = rel @ forward
        depth = np.maximum(depth, 0.05)
        x = self.width / 2 + self.focal * (rel @ right) / depth
        y = self.height_px / 2 - self.focal * (rel @ up) / depth
        return x, y, depth

    def describe(self):
        return {"azimuth": round(self.azimuth, 1), "elevation": round(self.elevation, 1),
                "distance": round(self.distance, 2), "height": round(self.height, 2), "fov": round(self.fov, 1),
                "orientation": "portrait" if self.height_px > self.width else "landscape"}


def draw_camera(rng, clip, azimuth=None, elevation=None, cut_at_waist=None, portrait=None):
    """A camera that frames the clip: the person fills 45–90 % of the picture, or is cut at the waist."""
    pts = clip.points
    low, high = pts[:, :, 1].min(), pts[:, :, 1].max()
    centre = pts.reshape(-1, 3).mean(axis=0)
    portrait = bool(rng.random() < 0.35) if portrait is None else portrait
    width, height_px = (720, 1280) if portrait else (1280, 720)
    fov = float(rng.uniform(45, 75)) if portrait else float(rng.uniform(55, 80))
    azimuth = float(rng.uniform(0, 360)) if azimuth is None else azimuth
    cut = bool(rng.random() < 0.1) if cut_at_waist is None else cut_at_waist
    vertical_fov = 2 * np.degrees(np.arctan(height_px / width * np.tan(np.radians(fov) / 2)))
    spread = max(np.ptp(pts[:, :, 0]), np.ptp(pts[:, :, 2]))
    if cut:
        hips = pts[:, INDEX["leftHip"], 1].mean()
        target = np.array([centre[0], (hips + high) / 2 + 0.05, centre[2]])
        fill, extent, spread = float(rng.uniform(0.95, 1.2)), high - hips, 0.0
    else:
        target = np.array([centre[0], (low + high) / 2, centre[2]])
        fill, extent = float(rng.uniform(0.45, 0.9)), high - low
    distance = max(extent / fill / (2 * np.tan(np.radians(vertical_fov) / 2)),
                   spread / 0.9 / (2 * np.tan(np.radians(fov) / 2)) + spread / 2)
    distance = float(np.clip(distance, 1.2, 8.0))
    if elevation is None:
        camera_height = float(np.clip(target[1] + rng.normal(0.1, 0.45), 0.2, 2.4))
        elevation = float(np.degrees(np.arcsin(np.clip((camera_height - target[1]) / distance, -0.9, 0.9))))
    else:
        camera_height = target[1] + distance * np.sin(np.radians(elevation))
    return Camera(azimuth, elevation, distance, camera_height, fov, width, height_px, target)


@dataclasses.dataclass
class Artefacts:
    noise: float = 0.012  # white noise, share of the torso's image length
    drift: float = 0.012  # slowly wandering offset, share of the torso
    depth: str = "guessed"  # guessed | none | true
    out_of_picture: str = "fold"  # fold | drop | keep (a depth sensor's inferred joint)
    far_arm: bool = True
    missed_frames: float = 0.005

    @staticmethod
    def draw(rng):
        return Artefacts(noise=float(rng.uniform(0.004, 0.02)), drift=float(rng.uniform(0.0, 0.02)),
                         out_of_picture=str(rng.choice(["fold", "drop"])), far_arm=bool(rng.random() < 0.8))

    @staticmethod
    def none():
        return Artefacts(noise=0.0, drift=0.0, depth="none", out_of_picture="drop", far_arm=False, missed_frames=0.0)


def _drift(rng, frames, count, sigma):
    steps = rng.normal(0, 1, (frames, count, 2))
    walk = np.cumsum(steps, axis=0)
    kernel = np.ones(15) / 15
    for j in range(count):
        for d in range(2):
            walk[:, j, d] = np.convolve(walk[:, j, d] - walk[:, j, d].mean(), kernel, mode="same")
    scale = walk.std() or 1.0
    return walk / scale * sigma


def observe(clip, camera, artefacts, rng):
    """Per frame: a 33 × 4 array (x, y, z, c) or None where the model found nobody."""
    x, y, depth = camera.project(clip.points)
    frames, count = x.shape
    shoulders = (clip.points[:, INDEX["leftShoulder"]] + clip.points[:, INDEX["rightShoulder"]]) / 2
    hips = (clip.points[:, INDEX["leftHip"]] + clip.points[:, INDEX["rightHip"]]) / 2
    sx, sy, _ = camera.project(shoulders)
    hx, hy, _ = camera.project(hips)
    torso = float(np.median(np.hypot(sx - hx, sy - hy))) or 50.0
    out = np.zeros((frames, count, 4))
    out[:, :, 0], out[:, :, 1] = x, y
    out[:, :, 3] = np.clip(rng.normal(0.95, 0.03, (frames, count)), 0.5, 1.0)
    if artefacts.far_arm:
        _hide_far_arm(out, depth, clip, rng)
    if artefacts.noise or artefacts.drift:
        out[:, :, :2] += rng.normal(0, artefacts.noise * torso, (frames, count, 2))
        out[:, :, :2] += _drift(rng, frames, count, artefacts.drift * torso)
    centre = depth[:, [INDEX["leftHip"], INDEX["rightHip"]]].mean(axis=1, keepdims=True)
    scale = camera.focal / depth.mean()
    if artefacts.depth == "true":
        out[:, :, 2] = (depth - centre) * scale
    elif artefacts.depth == "guessed":
        # BlazePose's z: flattened, and jittering several times more than x and y (DepthJitterCheck's 2.9–35).
        out[:, :, 2] = (depth - centre) * scale * float(rng.uniform(0.3, 0.7)) \
            + rng.normal(0, 6 * max(artefacts.noise, 0.01) * torso, (frames, count))
    inside = (out[:, :, 0] >= 0) & (out[:, :, 0] < camera.width) & (out[:, :, 1] >= 0) & \
        (out[:, :, 1] < camera.height_px)
    if artefacts.out_of_picture == "drop":
        out[:, :, 3] = np.where(inside, out[:, :, 3], 0.0)
    elif artefacts.out_of_picture == "keep":
        # A depth sensor's skeleton (layouts.py, kinect-25): the joint where it is, "inferred".
        out[:, :, 3] = np.where(inside, out[:, :, 3], 0.5)
    else:
        out[:, :, 0] = np.clip(out[:, :, 0], 0, camera.width - 1)
        out[:, :, 1] = np.clip(out[:, :, 1], 0, camera.height_px - 1)
        out[:, :, 3] = np.where(inside, out[:, :, 3], rng.uniform(0.05, 0.4, (frames, count)))
    result = []
    for f in range(frames):
        seen = out[f, :, 3] > 0.3
        if rng.random() < artefacts.missed_frames or seen.sum() < 6:
            result.append(None)
        else:
            result.append(out[f])
    return result


ARM = ["Elbow", "Wrist", "Pinky", "Index", "Thumb"]


def _hide_far_arm(out, depth, clip, rng):
    """The arm behind the trunk: low confidence, placed between where it is and where the near arm is."""
    left_far = depth[:, INDEX["leftShoulder"]] > depth[:, INDEX["rightShoulder"]] + 0.12
    right_far = depth[:, INDEX["rightShoulder"]] > depth[:, INDEX["leftShoulder"]] + 0.12
    pull = float(rng.uniform(0.2, 0.7))
    for far, near, mask in (("left", "right", left_far), ("right", "left", right_far)):
        if not mask.any():
            continue
        for joint in ARM:
            i, j = INDEX[far + joint], INDEX[near + joint]
            behind = mask & (depth[:, i] > depth[:, INDEX[far + "Shoulder"]] - 0.05)
            out[behind, i, :2] = (1 - pull) * out[behind, i, :2] + pull * out[behind, j, :2]
            out[behind, i, 3] = rng.uniform(0.2, 0.6, behind.sum())


def write_posetrack(path, clip, camera, observed, artefacts, fps, seed, extra=None, keypoints=None):
    """Writes the clip; `keypoints`: the layout's names when `observed` is in another layout than the 33 landmarks
    (layouts.py)."""
    labels = {"exercise": clip.exercise, "reps": 0 if clip.hold else len(clip.windows),
              "form": "good" if not clip.breached else "bad", "fault": clip.fault, "breached": clip.breached,
              "side": clip.side, "camera": camera.describe(), "body": clip.body.describe(), "seed": seed,
              "repWindows": [[round(a, 3), round(b, 3)] for a, b in clip.windows], "truth": clip.truth,
              "artefacts": dataclasses.asdict(artefacts)}
    labels.update(extra or {})
    dims = 2 if artefacts.depth == "none" else 3
    header = {"format": "pose-track", "version": 1, "keypoints": keypoints or LANDMARKS, "fps": fps, "width": camera.width,
              "height": camera.height_px, "source": f"generated by scripts/generate_motion.py (seed {seed})",
              "labels": labels}
    if dims == 3:
        header["dimensions"] = 3
    with open(path, "w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for t, frame in zip(clip.times, observed):
            if frame is None:
                out.write(json.dumps({"t": round(float(t), 4), "poses": []}) + "\n")
                continue
            cols = [0, 1, 2, 3] if dims == 3 else [0, 1, 3]
            flat = []
            for row in frame:
                flat.extend(round(float(row[c]), 1 if c < 3 else 2) for c in cols)
            out.write(json.dumps({"t": round(float(t), 4), "poses": [flat]}, separators=(",", ":")) + "\n")
