// overlay.js — draws one answered frame: the picture it was computed from, the skeleton, the angle arc,
// the range-of-motion gauge and the hold timer. Keypoints are pixels of the frame sent, so the canvas takes
// the frame's size and CSS scales it.

const MIN_CONFIDENCE = 0.3;

// Bones between Apple Vision / BlazePose joint names (pose-track names). A bone is drawn when both ends are seen.
const BONES = [
  ["leftShoulder", "rightShoulder"], ["leftHip", "rightHip"],
  ["leftShoulder", "leftHip"], ["rightShoulder", "rightHip"],
  ["leftShoulder", "leftElbow"], ["leftElbow", "leftWrist"],
  ["rightShoulder", "rightElbow"], ["rightElbow", "rightWrist"],
  ["leftHip", "leftKnee"], ["leftKnee", "leftAnkle"],
  ["rightHip", "rightKnee"], ["rightKnee", "rightAnkle"],
  ["leftAnkle", "leftHeel"], ["leftHeel", "leftFootIndex"], ["leftAnkle", "leftFootIndex"],
  ["rightAnkle", "rightHeel"], ["rightHeel", "rightFootIndex"], ["rightAnkle", "rightFootIndex"],
  ["neck", "leftShoulder"], ["neck", "rightShoulder"], ["neck", "nose"],
  ["root", "leftHip"], ["root", "rightHip"], ["neck", "root"],
];

// The joints on either side of an angle's vertex, for the arc (the side prefix is added).
const ARC_ENDS = {
  Knee: ["Hip", "Ankle"], Elbow: ["Shoulder", "Wrist"], Hip: ["Shoulder", "Knee"],
  Shoulder: ["Hip", "Elbow"], Ankle: ["Knee", "FootIndex"], Wrist: ["Elbow", "Index"],
};

const COLORS = { left: "#3db8ff", right: "#ff9c40", middle: "#f2f2f2" };
const sideOf = (name) => (name.startsWith("left") ? "left" : name.startsWith("right") ? "right" : "middle");

/** The keypoint [x, y] of a joint when it is confidently seen, else null. */
function point(pose, name) {
  const k = pose?.[name];
  return k && k[2] >= MIN_CONFIDENCE ? k : null;
}

/**
 * Draws `image` (the frame sent) and the coach's answer for it onto `canvas`.
 * Returns true when a skeleton was drawn.
 */
export function drawAnswer(canvas, image, pose, state, hands = null, gesture = null, repPeak = null) {
  if (canvas.width !== image.width || canvas.height !== image.height) {
    canvas.width = image.width;
    canvas.height = image.height;
  }
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0);
  // Line widths and text scale with the frame, and grow when the canvas is shown small (a phone).
  const shown = canvas.clientWidth || canvas.width;
  const unit = Math.max(canvas.width / 640, Math.min(0.8 * canvas.width / shown, 2 * canvas.width / 640));
  let drawn = pose ? drawSkeleton(ctx, pose, unit) : false;
  if (hands?.length) drawn = drawHands(ctx, hands, gesture, unit) || drawn;
  if (state) {
    if (pose) drawAngle(ctx, pose, state, unit, repPeak);
    drawGauge(ctx, state, unit);
    drawHold(ctx, state.peakHold ?? state.hold, unit);
  }
  return drawn;
}

/** Draws the live picture before any answer came (nothing to draw over it yet). */
export function drawPreview(canvas, video) {
  if (!video.videoWidth) return;
  const w = Math.min(640, video.videoWidth);
  const h = Math.round((video.videoHeight * w) / video.videoWidth);
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  canvas.getContext("2d").drawImage(video, 0, 0, w, h);
}

function drawSkeleton(ctx, pose, unit) {
  let bones = 0;
  ctx.lineCap = "round";
  for (const [a, b] of BONES) {
    const p = point(pose, a), q = point(pose, b);
    if (!p || !q) continue;
    // A bone takes its side's colour; a bone across the body (or to the midline) is white.
    const side = sideOf(a) === sideOf(b) ? sideOf(a) : "middle";
    ctx.strokeStyle = "rgba(0,0,0,0.6)";
    ctx.lineWidth = 7 * unit;
    line(ctx, p, q);
    ctx.strokeStyle = COLORS[side];
    ctx.lineWidth = 4 * unit;
    line(ctx, p, q);
    bones++;
  }
  for (const [name, k] of Object.entries(pose)) {
    if (!Array.isArray(k) || k[2] < MIN_CONFIDENCE) continue;
    ctx.fillStyle = COLORS[sideOf(name)];
    ctx.strokeStyle = "rgba(0,0,0,0.7)";
    ctx.lineWidth = 1.5 * unit;
    ctx.beginPath();
    ctx.arc(k[0], k[1], 4.5 * unit, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  return bones > 0;
}

// A hand's bones (Apple Vision's joint names, as the server sends them): each finger from the wrist, and the palm.
const FINGERS = ["thumb", "index", "middle", "ring", "little"];
const HAND_BONES = [
  ...FINGERS.flatMap((f) => {
    const joints = f === "thumb" ? ["CMC", "MP", "IP", "Tip"] : ["MCP", "PIP", "DIP", "Tip"];
    const names = ["wrist", ...joints.map((j) => f + j)];
    return names.slice(1).map((n, i) => [names[i], n]);
  }),
  ["indexMCP", "middleMCP"], ["middleMCP", "ringMCP"], ["ringMCP", "littleMCP"],
];
// The pinch's evidence on the thumb and index tips, as Apple's sample colours them.
export const PINCH_COLORS = { possiblePinch: "#ff9c40", pinched: "#3ddc84" };
const HAND_COLORS = { coached: "#3db8ff", other: "#f2f2f2" };

/**
 * Draws each hand's skeleton (the coached hand blue, others white) and, on the hand the gestures are read from, the
 * thumb and index tips orange while a pinch's evidence builds and green once pinched. Returns true when a hand
 * was drawn.
 */
function drawHands(ctx, hands, gesture, unit) {
  let drawn = false;
  ctx.lineCap = "round";
  for (const hand of hands) {
    const k = hand.keypoints ?? {};
    const color = hand.coached ? HAND_COLORS.coached : HAND_COLORS.other;
    for (const [a, b] of HAND_BONES) {
      const p = k[a], q = k[b];
      if (!p || !q) continue;
      ctx.strokeStyle = "rgba(0,0,0,0.6)";
      ctx.lineWidth = 5 * unit;
      line(ctx, p, q);
      ctx.strokeStyle = color;
      ctx.lineWidth = 2.5 * unit;
      line(ctx, p, q);
      drawn = true;
    }
    for (const p of Object.values(k)) dot(ctx, p, 3 * unit, color, unit);
    const tips = hand.gesture && PINCH_COLORS[gesture?.state];
    if (tips) for (const name of ["thumbTip", "indexTip"]) if (k[name]) dot(ctx, k[name], 8 * unit, tips, unit);
  }
  return drawn;
}

function dot(ctx, p, r, color, unit) {
  ctx.fillStyle = color;
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.lineWidth = 1.5 * unit;
  ctx.beginPath();
  ctx.arc(p[0], p[1], r, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

function line(ctx, p, q) {
  ctx.beginPath();
  ctx.moveTo(p[0], p[1]);
  ctx.lineTo(q[0], q[1]);
  ctx.stroke();
}

/** Formats the primary angle: whole degrees, or two decimals for a ratio (no unit). */
export function formatAngle(value, unit = "°") {
  if (value == null || !Number.isFinite(value)) return "–";
  return unit ? `${Math.round(value)}${unit}` : value.toFixed(2);
}

/** The arc at the measured joint between its two bones, with the angle in degrees beside it; just after a
 * repetition, its judged peak (`repPeak`: `{index, value, side}`) under it, at the joint of the side it was
 * measured on. */
function drawAngle(ctx, pose, state, unit, repPeak = null) {
  const joint = repPeak?.side && state.angleJoint ? state.angleJoint.replace(/^(left|right)/, repPeak.side) : state.angleJoint;
  if (repPeak && joint) {
    const at = point(pose, joint);
    const size = 16 * unit;
    if (at) label(ctx, `Rep ${repPeak.index}: ${formatAngle(repPeak.value, state.angleUnit ?? "°")}`,
      at[0] + 34 * unit, at[1] + 26 * unit, size, "#fff");
  }
  const vertex = state.angleJoint && point(pose, state.angleJoint);
  if (!vertex || state.angle == null) return;
  const m = /^(left|right)(.+)$/.exec(state.angleJoint);
  const ends = m && ARC_ENDS[m[2]];
  const a = ends && point(pose, m[1] + ends[0]);
  const b = ends && point(pose, m[1] + ends[1]);
  const target = state.target;
  const inTarget = Array.isArray(target) && state.angle >= target[0] && state.angle <= target[1];
  const color = inTarget ? "#3ddc84" : "#ffc94d";
  const r = 28 * unit;

  ctx.lineWidth = 4 * unit;
  ctx.strokeStyle = color;
  ctx.fillStyle = inTarget ? "rgba(61,220,132,0.25)" : "rgba(255,201,77,0.25)";
  ctx.beginPath();
  if (a && b) {
    // The arc runs the short way round from one bone to the other.
    let from = Math.atan2(a[1] - vertex[1], a[0] - vertex[0]);
    let to = Math.atan2(b[1] - vertex[1], b[0] - vertex[0]);
    let sweep = to - from;
    while (sweep > Math.PI) sweep -= 2 * Math.PI;
    while (sweep < -Math.PI) sweep += 2 * Math.PI;
    ctx.moveTo(vertex[0], vertex[1]);
    ctx.arc(vertex[0], vertex[1], r, from, from + sweep, sweep < 0);
    ctx.closePath();
    ctx.fill();
    ctx.beginPath();
    ctx.arc(vertex[0], vertex[1], r, from, from + sweep, sweep < 0);
  } else {
    ctx.arc(vertex[0], vertex[1], r, 0, Math.PI * 2);
  }
  ctx.stroke();

  const text = formatAngle(state.angle, state.angleUnit ?? "°");
  label(ctx, text, vertex[0] + r + 6 * unit, vertex[1], 22 * unit, color);
}

/** Text with a dark backing so it reads on any picture; kept inside the canvas. `x` is its left edge, or
 * its centre or right edge with `align`. */
function label(ctx, text, x, y, size, color, align = "left") {
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width;
  const pad = size * 0.25;
  if (align === "center") x -= w / 2;
  else if (align === "right") x -= w;
  x = Math.max(pad, Math.min(x, ctx.canvas.width - w - pad));
  y = Math.max(size, Math.min(y, ctx.canvas.height - pad));
  ctx.fillStyle = "rgba(0,0,0,0.65)";
  ctx.fillRect(x - pad, y - size * 0.85, w + 2 * pad, size * 1.15);
  ctx.fillStyle = color;
  ctx.fillText(text, x, y);
}

/**
 * The range-of-motion gauge on the right edge: the current repetition's progress toward its peak (0…1;
 * 1 = the usual peak), with the band at and past 100 % shaded as the target.
 */
function drawGauge(ctx, state, unit) {
  if (state.rangeOfMotion == null) return;
  const top = 1.25; // the gauge's scale runs to 125 %
  const h = ctx.canvas.height * 0.45, w = 16 * unit;
  const x = ctx.canvas.width - w - 14 * unit, y = ctx.canvas.height * 0.32; // below the name badge
  const at = (f) => y + h - (Math.min(f, top) / top) * h;
  const rom = Math.max(0, state.rangeOfMotion);

  ctx.fillStyle = "rgba(0,0,0,0.55)";
  ctx.fillRect(x - 4 * unit, y - 4 * unit, w + 8 * unit, h + 8 * unit);
  ctx.fillStyle = "rgba(61,220,132,0.3)"; // target band
  ctx.fillRect(x, at(top), w, at(1) - at(top));
  // Past a safety limit the bar is red, whatever the range: at 100 % it read green, "good", at the crossing.
  const unsafe = !!state.warning;
  ctx.fillStyle = unsafe ? "#ff4d4d" : rom >= 1 ? "#3ddc84" : "#3db8ff";
  ctx.fillRect(x, at(rom), w, y + h - at(rom));
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 2 * unit;
  ctx.beginPath();
  ctx.moveTo(x - 4 * unit, at(1));
  ctx.lineTo(x + w + 4 * unit, at(1));
  ctx.stroke();

  const size = 13 * unit;
  label(ctx, "Range", x + w / 2, y - 10 * unit, size, "#fff", "center");
  label(ctx, unsafe ? "⚠ limit" : `${Math.round(rom * 100)}%`, x + w / 2, y + h + 8 * unit + size, size,
    unsafe ? "#ff4d4d" : "#fff", "center");
  if (Array.isArray(state.target) && state.angleUnit !== "") {
    const unitText = state.angleUnit ?? "°";
    label(ctx, `target ${Math.round(state.target[0])}–${Math.round(state.target[1])}${unitText}`,
      x - 10 * unit, at(1) + size / 3, size, "#3ddc84", "right");
  }
}

/** The hold timer: a ring filling toward the target seconds, with "1.2 / 2 s". */
function drawHold(ctx, hold, unit) {
  if (!hold || !hold.targetSeconds) return;
  const r = 30 * unit, cx = 14 * unit + r, cy = ctx.canvas.height / 2;
  const f = Math.min(1, hold.heldSeconds / hold.targetSeconds);
  const done = f >= 1;
  ctx.fillStyle = "rgba(0,0,0,0.55)";
  ctx.beginPath();
  ctx.arc(cx, cy, r + 6 * unit, 0, Math.PI * 2);
  ctx.fill();
  ctx.lineWidth = 7 * unit;
  ctx.strokeStyle = "rgba(255,255,255,0.2)";
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.stroke();
  ctx.strokeStyle = done ? "#3ddc84" : hold.holding ? "#3db8ff" : "#9fb0bd";
  ctx.beginPath();
  ctx.arc(cx, cy, r, -Math.PI / 2, -Math.PI / 2 + f * 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = "#fff";
  ctx.textAlign = "center";
  ctx.font = `700 ${15 * unit}px system-ui, sans-serif`;
  ctx.fillText(`${hold.heldSeconds.toFixed(1)}`, cx, cy + 2 * unit);
  ctx.font = `${11 * unit}px system-ui, sans-serif`;
  ctx.fillText(`of ${+hold.targetSeconds.toFixed(1)} s`, cx, cy + 15 * unit);
  ctx.textAlign = "start";
  label(ctx, "HOLD", cx, cy - r - 12 * unit, 12 * unit, "#fff", "center");
}
