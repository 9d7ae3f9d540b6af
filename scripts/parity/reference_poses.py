#!/usr/bin/env python3
"""The parity reference: MediaPipe's legacy Python `solutions.pose` (mediapipe==0.10.21,
model_complexity=1, the same BlazePose "full" model) on the frames of a video, written as a
pose-track file (pose-track.md) with the same keypoint names as `ptcoach poses`.

Frames are decoded exactly as `ptcoach poses` decodes them: ffmpeg, autorotation, all frames
(-fps_mode passthrough), rgb24 on a pipe; frame times from ffmpeg's showinfo filter.

Usage (inside runtime/cache/parity-venv, see scripts/parity/README.md):
    python reference_poses.py VIDEO -o reference.jsonl
Prints one line on stderr: frames, frames with a person, ms/frame (wall, from model load to the
last frame, decoding included) and ms/frame inside pose.process().
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

NAMES = [
    "nose", "leftEyeInner", "leftEye", "leftEyeOuter", "rightEyeInner", "rightEye", "rightEyeOuter",
    "leftEar", "rightEar", "mouthLeft", "mouthRight",
    "leftShoulder", "rightShoulder", "leftElbow", "rightElbow", "leftWrist", "rightWrist",
    "leftPinky", "rightPinky", "leftIndex", "rightIndex", "leftThumb", "rightThumb",
    "leftHip", "rightHip", "leftKnee", "rightKnee", "leftAnkle", "rightAnkle",
    "leftHeel", "rightHeel", "leftFootIndex", "rightFootIndex",
]


def probe(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "V",
         "-show_entries", "stream=width,height,avg_frame_rate,r_frame_rate,start_time:stream_side_data=rotation",
         "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    stream = json.loads(out)["streams"][0]
    width, height = stream["width"], stream["height"]
    rotation = 0
    for side in stream.get("side_data_list", []):
        rotation = int(side.get("rotation", rotation))
    if rotation % 180 != 0:
        width, height = height, width

    def rate(text):
        n, d = (float(x) for x in text.split("/"))
        return n / d if n > 0 and d > 0 else None

    fps = rate(stream.get("avg_frame_rate", "0/0")) or rate(stream.get("r_frame_rate", "0/0")) or 30.0
    return width, height, fps, float(stream.get("start_time", 0) or 0)


def frames(path, width, height):
    """Yields (pts_time, rgb bytes) like ptcoach's VideoDecoder."""
    process = subprocess.Popen(
        ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", "-threads", "0",
         "-copyts", "-i", path, "-map", "0:V:0", "-an", "-sn", "-dn", "-fps_mode", "passthrough",
         "-vf", "showinfo", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    times = []
    condition = threading.Condition()
    done = [False]

    def drain():
        pattern = re.compile(rb"\[Parsed_showinfo.* n:\s*\d+ .*pts_time:(\S+)")
        for line in process.stderr:
            match = pattern.search(line)
            if match:
                with condition:
                    times.append(float(match.group(1)))
                    condition.notify()
        with condition:
            done[0] = True
            condition.notify()

    threading.Thread(target=drain, daemon=True).start()
    size = width * height * 3
    index = 0
    while True:
        data = process.stdout.read(size)
        if len(data) < size:
            break
        with condition:
            while len(times) <= index and not done[0]:
                condition.wait()
            t = times[index] if index < len(times) else float("nan")
        yield t, data
        index += 1
    process.wait()


def fmt(value, decimals):
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("video")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    import numpy as np
    import mediapipe as mp

    width, height, fps, start_time = probe(args.video)
    started = time.perf_counter()
    pose = mp.solutions.pose.Pose(
        static_image_mode=False, model_complexity=1, smooth_landmarks=True,
        enable_segmentation=False, min_detection_confidence=0.5, min_tracking_confidence=0.5)
    count = with_person = 0
    inference = 0.0
    with open(args.output, "w") as out:
        header = {"format": "pose-track", "version": 1, "keypoints": NAMES, "fps": fps,
                  "width": width, "height": height, "dimensions": 3,
                  "source": os.path.basename(args.video) + " (mediapipe 0.10.21 solutions.pose)"}
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for t, data in frames(args.video, width, height):
            image = np.frombuffer(data, np.uint8).reshape(height, width, 3)
            before = time.perf_counter()
            result = pose.process(image)
            inference += time.perf_counter() - before
            count += 1
            poses = []
            if result.pose_landmarks:
                with_person += 1
                values = []
                for lm in result.pose_landmarks.landmark:
                    values += [fmt(lm.x * width, 2), fmt(lm.y * height, 2), fmt(lm.z * width, 2),
                               fmt(lm.visibility, 3)]
                poses.append("[" + ",".join(values) + "]")
            out.write('{"t":%s,"poses":[%s]}\n' % (fmt(t - start_time, 4), ",".join(poses)))
    wall = time.perf_counter() - started
    print(f"reference: {count} frames, {with_person} with a person, "
          f"{wall * 1000 / max(count, 1):.1f} ms/frame (wall), "
          f"{inference * 1000 / max(count, 1):.1f} ms/frame in pose.process()", file=sys.stderr)


if __name__ == "__main__":
    main()
