"""Frame sources of scripts/live-load.py: a video as JPEG frames (camera mode), a pose-track (keypoint mode), and
a list of clips, each a video with its exercise and its true count, one per client (--clips)."""
from __future__ import annotations

import csv
import json
import os
import shutil
import struct
import subprocess
import sys
from bisect import bisect_right

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
    """The video's frames at `rate` per video second, as JPEG images of exactly `size` (WxH, aspect kept, padded),
    or `size` pixels wide with the video's own aspect ratio (a bare width: "640"; a portrait video stays portrait)."""
    if not shutil.which("ffmpeg"):
        sys.exit("camera mode needs ffmpeg (apt-get install ffmpeg)")
    if "x" in size.lower():
        w, h = size.lower().split("x")
        scale = f"scale={w}:{h}:force_original_aspect_ratio=decrease,pad={w}:{h}:(ow-iw)/2:(oh-ih)/2"
    else:
        scale = f"scale={int(size)}:-2"
    vf = f"{scale},fps={rate:g},format=yuvj420p"
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




class ClipSource(CameraSource):
    """One client's video, played once from its start (never looped: the count it gets is compared with the
    video's true count), with its exercise."""

    def __init__(self, path: str, exercise: str, truth: int, frames: list[bytes], rate: float):
        super().__init__(frames, rate)
        self.path = path
        self.exercise = exercise
        self.truth = truth
        self.frame_count = len(frames)

    def dimensions(self) -> str:
        """The frames' WxH, read from the first JPEG's SOF marker."""
        data = self.frames[0]
        i = 2
        while i + 9 < len(data):
            marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = int.from_bytes(data[i + 5:i + 7], "big"), int.from_bytes(data[i + 7:i + 9], "big")
                return f"{w}x{h}"
            i += 2 + length
        return "?"

    def describe(self) -> str:
        return (f"{os.path.basename(self.path)} ({self.exercise}, true count {self.truth}, {self.dimensions()}, "
                f"{self.frame_count} frames = {self.frame_count / self.rate:.1f} s)")


def clip_sources(path: str, rate: float, size: str, quality: int) -> list[ClipSource]:
    """The clips listed in the CSV file `path`: columns `video` (or `file`), `exercise` and `truth` (or
    `reps_labelled`, as in the shared data's labels.csv); a relative video path is read from the CSV's folder.
    Client k streams clip k mod the number of clips."""
    clips = []
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, newline="", encoding="utf-8") as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            video = row.get("video") or row.get("file")
            truth = row.get("truth") or row.get("reps_labelled")
            if not video or not row.get("exercise") or truth is None or not truth.strip().isdigit():
                sys.exit(f"{path}:{n}: needs video, exercise and a whole-number truth")
            video = video if os.path.isabs(video) else os.path.join(folder, video)
            if not os.path.isfile(video):
                sys.exit(f"{path}:{n}: no video {video}")
            clips.append(ClipSource(video, row["exercise"], int(truth), decode_video(video, rate, size, quality), rate))
    if not clips:
        sys.exit(f"{path}: no clips")
    return clips
