// watch.js — a therapist watches a patient's set live (docs/live-watch.md): the watch socket gives the set's frames
// as skeleton and numbers (the patient's own `frame` messages), drawn on a neutral background at the patient's
// picture size, the overlay the patient sees, and the repetitions as they are counted. Messages, pause and end go
// back to the patient's page.

import { drawAnswer, formatAngle } from "./overlay.js";

const $ = (id) => document.getElementById(id);
const patientID = new URLSearchParams(location.search).get("patient") ?? "";
const canvas = $("view");
const background = document.createElement("canvas");
// The test hook (and scripts/watch-delay.py): what came, how big, what was drawn and when.
const hook = {
  types: {}, binary: 0, maxBytes: 0, frames: 0, drawn: 0, reps: 0, lastState: null, set: null, summary: null,
  repetitions: [], delivered: [], errors: [], shown: [], keys: [], status: "", reconnects: 0,
  drop() { ws?.close(); },  // the test's way to lose the socket
};
window.ptcoachWatch = hook;
let ws = null;
let retry = null;
let failures = 0;  // sockets lost in a row: the next try waits 1, 2, 4 … 30 s
let name = "the patient";
let paused = false;

function show(el, visible) { el.hidden = !visible; }
function setText(el, text) { if (el.textContent !== (text ?? "")) el.textContent = text ?? ""; }
function status(text) { hook.status = text; setText($("watch-status"), text); }
function controls(enabled) {
  for (const id of ["message", "send", "pause", "end"]) $(id).disabled = !enabled;
}

/** The neutral background at the patient's picture size (the keypoints are pixels of their picture). */
function resize(width, height) {
  const w = width || 640, h = height || 480;
  if (background.width === w && background.height === h) return;
  Object.assign(background, { width: w, height: h });
  const ctx = background.getContext("2d");
  ctx.fillStyle = "#39424c";
  ctx.fillRect(0, 0, w, h);
  canvas.width = w;
  canvas.height = h;
  canvas.getContext("2d").drawImage(background, 0, 0);
  $("viewport").style.setProperty("--aspect", (w / h).toFixed(4));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${scheme}//${location.host}/api/live/watch?patient=${encodeURIComponent(patientID)}`);
  ws.onmessage = (event) => {
    if (typeof event.data !== "string") { hook.binary++; return; }
    hook.maxBytes = Math.max(hook.maxBytes, event.data.length);
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    hook.types[msg.type] = (hook.types[msg.type] ?? 0) + 1;
    for (const key of Object.keys(msg)) if (!hook.keys.includes(key)) hook.keys.push(key);
    receive(msg);
  };
  ws.onclose = (event) => {
    controls(false);
    $("watch-status").classList.remove("watch-live");
    // A refusal (not logged in, not your patient, too many pages open) says why once and does not try again.
    if (hook.errors.length) return;
    const seconds = Math.min(30, 2 ** failures);
    failures++;
    status(`Connection lost (${event.code}${event.reason ? `: ${event.reason}` : ""}): reconnecting in ${seconds} s…`);
    clearTimeout(retry);
    retry = setTimeout(() => { hook.reconnects++; status("Reconnecting…"); connect(); }, seconds * 1000);
  };
}

function receive(msg) {
  switch (msg.type) {
    case "watching":
      failures = 0;
      name = msg.name;
      setText($("watch-title"), `Watching ${msg.name}`);
      document.title = `PT Coach — watching ${msg.name}`;
      status(`Waiting for ${msg.name} to open the coach and start a set…`);
      break;
    case "set": onSet(msg); break;
    case "frame": onFrame(msg); break;
    case "summary":
      hook.summary = msg;
      onSummary(msg);
      break;
    case "delivered":
      hook.delivered.push(msg);
      setText($("delivered"), msg.command === "message" ? `Shown to ${name}: “${msg.text}” (${msg.from})` : `${msg.from}: ${msg.command} reached ${name}'s page`);
      break;
    case "offline":
      controls(false);
      status(`${name}'s coaching page is closed.`);
      break;
    case "error":
      hook.errors.push(msg);
      $("error").textContent = msg.message;
      show($("error"), true);
      status("Not watching.");
      break;
  }
}

function onSet(msg) {
  hook.set = msg;
  paused = msg.paused;
  setText($("pause"), paused ? "Resume the set" : "Pause the set");
  resize(msg.width, msg.height);
  if (msg.session) {
    const programme = msg.programme?.set ? `, set ${msg.programme.set} of ${msg.programme.sets}` : "";
    status(`${paused ? "Paused" : "Live"}: ${msg.exercise?.name ?? "exercise being recognised"}${programme}`);
    $("watch-status").classList.toggle("watch-live", !paused);
    controls(true);
    hook.repetitions = msg.repetitions ?? [];
    renderTable();
  } else {
    controls(false);
    $("watch-status").classList.remove("watch-live");
    if (!hook.summary) status(`${name} has the coach open; no set is running.`);
  }
}

function onFrame(msg) {
  hook.frames++;
  const state = msg.state ?? null;
  hook.lastState = state;
  for (const event of msg.events ?? []) {
    if (event.type === "rep" || event.type === "handRep") hook.repetitions.push(event.repetition);
    if (event.type === "repsRevised") hook.repetitions = event.repetitions ?? [];
  }
  if (!background.width) resize(640, 480);
  if (drawAnswer(canvas, background, msg.pose ?? null, state, msg.hands ?? null, msg.gesture ?? null)) hook.drawn++;
  // When the drawn frame reaches the screen (the next paint), by its id: the delay script pairs it with the
  // patient page's capture time of the same frame.
  requestAnimationFrame(() => {
    hook.shown.push({ id: msg.id, at: Date.now() });
    if (hook.shown.length > 5000) hook.shown.shift();
  });
  if (state) renderState(state);
  if ((msg.events ?? []).some((e) => e.type === "rep" || e.type === "repsRevised" || e.type === "handRep")) renderTable();
}

/** The set's end: the counter ends on the summary's count (the end may withdraw a provisional repetition), and an
 * exercise recognised below the fitted confidence is not named. */
function onSummary(msg) {
  const reps = msg.summary?.reps ?? hook.reps;
  const total = hook.lastState?.prescribedReps ?? hook.set?.reps;
  const count = `${reps}${total ? ` / ${total}` : ""}`;
  setText($("rep-counter"), count);
  setText($("n-reps"), count);
  if (msg.unsure) setText($("exercise-badge"), typeof msg.unsure === "string" ? msg.unsure : msg.unsure.text);
  status(`The set ended: ${reps} repetition${reps === 1 ? "" : "s"}.`);
}

function renderState(state) {
  hook.reps = state.reps ?? 0;
  const total = state.prescribedReps ?? hook.set?.reps;
  const count = `${hook.reps + (state.provisionalReps ?? 0)}${total ? ` / ${total}` : ""}`;
  setText($("rep-counter"), count);
  show($("rep-counter"), true);
  setText($("n-reps"), count);
  const unsure = state.unsure == null || typeof state.unsure === "string" ? state.unsure : state.unsure.text;
  setText($("exercise-badge"), unsure ?? state.exerciseName ?? "Recognising…");
  show($("exercise-badge"), true);
  const unit = state.angleUnit ?? "°";
  setText($("n-angle"), state.angle == null ? "–" : `${formatAngle(state.angle, unit)} ${state.angleName ?? ""}`);
  const band = state.target?.length === 2 ? `${formatAngle(state.target[0], unit)}–${formatAngle(state.target[1], unit)}` : "–";
  setText($("n-band"), band);
  const outside = state.angle != null && state.target?.length === 2 && (state.angle < state.target[0] || state.angle > state.target[1]);
  $("n-angle").classList.toggle("outside", outside);
  setText($("n-cue"), state.cue ?? "–");
  setText($("n-warning"), state.warning ?? "–");
  setText($("n-setup"), state.setup ?? "–");
  setText($("cue"), state.cue ?? "");
  $("cue").dataset.kind = state.cueKind ?? "";
  show($("cue"), !!state.cue && state.cueKind !== "safety");
  setText($("warning"), state.warning ?? "");
  show($("warning"), !!state.warning);
}

function renderTable() {
  const rows = hook.repetitions.map((rep) => {
    const row = document.createElement("tr");
    const hand = rep.fingers != null;
    const cells = hand
      ? [String(rep.index), `${formatAngle(rep.rest)} → ${formatAngle(rep.peak)}`, formatAngle(rep.peak), rep.verdict ?? "–", rep.issues?.[0] ?? ""]
      : [String(rep.index), rep.range?.text ?? "–", formatAngle(rep.peakAngle), rep.verdict?.replace("-", " ") ?? "–", rep.issues?.[0]?.cue ?? ""];
    for (const text of cells) row.insertCell().textContent = text;
    return row;
  });
  document.querySelector("#rep-table tbody").replaceChildren(...rows);
}

function send(command) {
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(command));
}

$("message-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("message").value.trim();
  if (!text) return;
  send({ type: "message", text });
  $("message").value = "";
});
$("pause").addEventListener("click", () => send({ type: paused ? "resume" : "pause" }));
$("end").addEventListener("click", () => send({ type: "end" }));

if (!patientID) {
  status("No patient given: open this page from the clinic's patient list.");
} else {
  connect();
}
