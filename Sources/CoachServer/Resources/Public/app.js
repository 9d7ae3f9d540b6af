// app.js — the coaching page: the exercise picker, the two ways to start (camera, sample video), the
// heads-up display over the answered frames, spoken cues and the end-of-set summary.

import { LiveSession } from "./live.js";
import { drawAnswer, drawPreview } from "./overlay.js";
import { Speaker } from "./speech.js";
import { TouchFree } from "./touchfree.js";
import { keepSet, loadProgramme, onReady, onSummary as programmeSummary, programme, saveRating } from "./programme.js";
import { formNotChecked, noIssues, plainProblem, repetitionRow } from "./summary.js";
import { watchCallbacks } from "./watched.js";

const $ = (id) => document.getElementById(id);
const ui = {
  exercise: $("exercise"), exerciseInfo: $("exercise-info"), reps: $("reps-input"), hold: $("hold-input"),
  startCamera: $("start-camera"), sampleArea: $("sample-area"), sample: $("sample"), startSample: $("start-sample"),
  stage: $("stage"), viewport: $("viewport"), canvas: $("view"), video: $("video"), endSet: $("end-set"), mute: $("mute"), status: $("status"),
  repCounter: $("rep-counter"), badge: $("exercise-badge"), warning: $("warning"), position: $("position"),
  setupText: $("setup-text"), cue: $("cue"), idle: $("idle"), gesture: $("gesture"),
  pinchField: $("pinch-field"), pinchStart: $("pinch-start"),
  summary: $("summary"), summaryTitle: $("summary-title"), summaryReps: $("summary-reps"),
  summaryHolds: $("summary-holds"), repRows: document.querySelector("#rep-table tbody"), issues: $("issues"),
  reportHtml: $("report-html"), reportPdf: $("report-pdf"), again: $("again"), error: $("error"),
  clinicLink: $("clinic-link"), banner: $("programme-banner"), bannerTitle: $("programme-title"),
  rating: $("rating"), keep: $("keep-set"),
};
// The developer line (frames sent, answered, latency) and the recogniser's certainty: behind ?debug=1.
const debug = new URLSearchParams(location.search).has("debug");

// The test hook: a test reads this with execute_script.
// `provisional`: the repetition shown as provisional (no exercise given), or null; `provisionalEvents`: how many
// were shown, confirmed and withdrawn.
// `repetitions`: the repetitions as the events tell them (a `rep` adds one, a `repsRevised` replaces them all).
const hook = {
  reps: 0, framesSent: 0, framesAnswered: 0, lastState: null, summary: null, summaryUnsure: null, posesDrawn: 0,
  repetitions: [],
  provisional: null, provisionalEvents: { shown: 0, confirmed: 0, withdrawn: 0 },
  // Hand sets: frames whose hands were drawn, the most hands received in one frame, the gesture states seen and the
  // colour drawn on the index tip when pinched.
  handsDrawn: 0, handsReceived: 0, gestures: [], pinchedPixel: null, pinchedFrame: null, setStates: [],
  // The judged peak the overlay showed for each repetition (`{index, value, side}`), in the order counted.
  repPeaksShown: [],
};
window.ptcoach = { state: hook };

const speaker = new Speaker();
let exercises = [];
let samples = [];
let session = null;
let stream = null; // the camera's MediaStream
let answeredOnce = false;
let prescribed = null;
let touchFree = null; // a body set from the camera: start, pause and end without touching the laptop
let lastUnsure = null; // the "can't tell which exercise" sentence last shown, so that it is said once
let exerciseGiven = false; // the set's exercise was given (picked, or the programme's), not recognised
let givenName = null; // its name, from the server's `ready`
// The last repetition's judged peak, drawn at its side's joint for `REP_PEAK_SECONDS` of capture time after it was
// counted: the number the summary, the report and the CLI give for it. The live angle is one frame's value of
// the side moving now, and at the end of a repetition it is already back at rest.
let repPeak = null;
const REP_PEAK_SECONDS = 1.5;

/** Sets an element's text only when it changes (so live regions announce changes, not every frame). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
function show(el, visible) {
  el.hidden = !visible;
}
// Cue, warning and set-up fields may be plain strings or objects with a text.
const textOf = (v) => (v == null ? null : typeof v === "string" ? v : v.text ?? null);

function showError(message) {
  setText(ui.error, message);
  show(ui.error, !!message);
}

// MARK: - Library and samples

async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

async function loadLibrary() {
  try {
    exercises = await getJSON("./api/exercises");
  } catch (err) {
    showError(`Could not load the exercise library (${err.message}). Reload the page to try again.`);
    return;
  }
  for (const ex of exercises) {
    const option = new Option(`${ex.name} (${ex.hand ? "hand" : `${ex.view} view`})`, ex.id);
    option.title = ex.summary ?? "";
    ui.exercise.add(option);
  }
  describeExercise();
}

async function loadSamples() {
  try {
    samples = await getJSON("./api/samples");
  } catch {
    samples = [];
  }
  ui.sample.replaceChildren(...samples.map((s, i) => new Option(s.name, String(i))));
  show(ui.sampleArea, samples.length > 0);
  show($("idle-sample"), samples.length > 0);
}

function describeExercise() {
  const ex = exercises.find((e) => e.id === ui.exercise.value);
  setText(ui.exerciseInfo, ex
    ? `${ex.summary ?? ""} Camera: ${ex.hand ? "your hand near the camera, all of it in the picture" : `${ex.view} view`}${ex.kind === "hold" ? " · a hold" : ""}.`
    : "The coach names the exercise once it sees you move.");
  show(ui.pinchField, !!ex?.hand);
  ui.hold.disabled = !ex || session !== null || !!programme.entry;
  ui.hold.placeholder = ex ? "e.g. 2" : "pick an exercise";
}

function pickSample() {
  const sample = samples[Number(ui.sample.value)];
  // A programme's item keeps its exercise: the sample is practice of it.
  if (!sample || programme.entry) return;
  const known = exercises.some((e) => e.id === sample.exercise);
  ui.exercise.value = known ? sample.exercise : "";
  describeExercise();
}

// MARK: - Starting and ending a set

function isHandExercise() {
  return !!exercises.find((e) => e.id === ui.exercise.value)?.hand;
}

/** The start message; `sample`: the frames come from a sample video (practice, never the patient's set). */
function startMessage(sample) {
  const msg = { type: "start", input: "camera", exercise: ui.exercise.value || null };
  if (sample) msg.sample = true;
  if (programme.entry) {
    const start = { type: "start", input: "camera", programmeItem: programme.item };
    if (sample) start.sample = true;
    if (isHandExercise()) start.startOnPinch = ui.pinchStart.checked;
    return start;
  }
  const reps = parseInt(ui.reps.value, 10);
  if (reps >= 1) msg.reps = Math.min(reps, 1000);
  const hold = parseFloat(ui.hold.value);
  if (msg.exercise && hold > 0) msg.holdSeconds = hold;
  if (isHandExercise()) msg.startOnPinch = ui.pinchStart.checked;
  return msg;
}

async function startCamera() {
  showError("");
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      // A phone held upright gets an upright picture: the whole body, and all of the screen's width and height.
      video: innerHeight > innerWidth
        ? { width: { ideal: 480 }, height: { ideal: 640 }, facingMode: "user" }
        : { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: "user" },
      audio: false,
    });
  } catch (err) {
    showError(cameraProblem(err));
    return;
  }
  ui.video.srcObject = stream;
  ui.video.loop = false;
  ui.video.onended = null;
  await ui.video.play().catch(() => {});
  begin();
}

/** What the patient can do when the camera does not open, in their words. */
function cameraProblem(err) {
  const words = {
    NotFoundError: "No camera was found. Plug in a camera, or use a laptop or phone that has one, then press Start camera again.",
    NotAllowedError: "The camera is blocked for this page. Allow it (the camera icon in the address bar), then press Start camera again.",
    NotReadableError: "The camera is busy in another app (a video call?). Close that app, then press Start camera again.",
    OverconstrainedError: "This camera cannot give a picture the coach can use. Try another camera.",
    SecurityError: "The browser allows the camera only on a secure (https) address. Ask whoever set up PT Coach for it.",
  };
  return words[err?.name] ?? "The camera could not be opened. Close other apps that use it and try again.";
}

async function startSample() {
  const sample = samples[Number(ui.sample.value)];
  if (!sample) return;
  showError("");
  pickSample();
  ui.video.srcObject = null;
  ui.video.src = sample.url;
  ui.video.loop = false;
  ui.video.muted = true;
  ui.video.onended = endSet; // one pass, then the summary
  ui.video.onerror = () => showError(`The sample video could not be played (${sample.url}).`);
  begin({ playOnReady: true, sample: true });
}

/** The same path for both sources: a <video> whose frames the live session sends. */
function begin({ playOnReady = false, sample = false } = {}) {
  resetHud();
  setRunning(true);
  const start = startMessage(sample);
  prescribed = start.reps ?? null;
  exerciseGiven = !!(start.exercise || start.programmeItem != null);
  session = new LiveSession(ui.video, {
    ...watchCallbacks({ session: () => session, say: (text) => speaker.say(text, "timing"), video: ui.video, sample, hook }),
    ready(msg) {
      prescribed = msg.reps ?? prescribed;
      onReady(msg);
      if (!sample && !msg.exercise?.hand) startTouchFree(msg);
      if (msg.exercise?.name) setText(ui.badge, msg.exercise.name);
      givenName = msg.exercise?.name ?? null;
      if (playOnReady) ui.video.play().catch((err) => showError(`The sample video could not be played: ${err.message}`));
    },
    frame: onFrame,
    summary: onSummary,
    error(msg) {
      showError(msg.message || `Error: ${msg.code}`);
    },
    status: renderStatus,
    closed(event, finished) {
      if (!finished && event.code !== 1000) {
        showError(event.code === 1013
          ? "The coach is busy with other sessions. Try again in a minute."
          : `The connection to the coach was lost (${event.code}${event.reason ? `: ${event.reason}` : ""}).`);
      }
      stopSource();
      setRunning(false);
      session = null;
      touchFree = null;
      describeExercise();
    },
  });
  session.open(start);
  ui.stage.scrollIntoView({ block: "start", behavior: "smooth" });
  ui.endSet.focus({ preventScroll: true });
  requestAnimationFrame(preview);
}

/** Shows the live picture until the first answer comes (after that only answered frames are drawn). */
function preview() {
  if (!session || answeredOnce) return;
  drawPreview(ui.canvas, ui.video);
  fitViewport();
  requestAnimationFrame(preview);
}

/** Tells the CSS the picture's shape, so a short screen shows all of it (see .viewport in style.css). */
function fitViewport() {
  const aspect = (ui.canvas.width / ui.canvas.height).toFixed(4);
  if (ui.viewport.dataset.aspect !== aspect) {
    ui.viewport.dataset.aspect = aspect;
    ui.viewport.style.setProperty("--aspect", aspect);
  }
}

function startTouchFree(msg) {
  touchFree = new TouchFree({
    exercises,
    ids: msg.exercise?.id ? [msg.exercise.id] : [],
    restSeconds: msg.programme?.restSeconds ?? null,
    end: endSet,
    say: (text) => speaker.say(text, "timing"),
    show: (text) => { setText(ui.gesture, text ?? ""); ui.gesture.classList.toggle("touchfree", !!text); show(ui.gesture, !!text); },
  });
  touchFree.start();
  hook.touchFree = touchFree.instructions;
}

function endSet() {
  if (!session) return;
  session.end();
  ui.endSet.disabled = true;
  setText(ui.endSet, "Finishing…");
  ui.video.pause();
}

function stopSource() {
  ui.video.pause();
  stream?.getTracks().forEach((t) => t.stop());
  stream = null;
  ui.video.srcObject = null;
}

function setRunning(running) {
  for (const el of [ui.exercise, ui.reps, ui.startCamera, ui.sample, ui.startSample, ui.pinchStart]) el.disabled = running;
  ui.hold.disabled = running || !ui.exercise.value;
  ui.endSet.disabled = !running;
  // The programme's prescription is not the patient's to change; a stopped exercise waits for the therapist.
  if (programme.entry) for (const el of [ui.exercise, ui.reps, ui.hold]) el.disabled = true;
  if (programme.stopped) ui.startCamera.disabled = true;
  document.body.classList.toggle("running", running);
  setText(ui.endSet, "End set");
  if (running) show(ui.summary, false);
}

// MARK: - Heads-up display

function resetHud() {
  answeredOnce = false;
  show(ui.idle, false);
  Object.assign(hook, {
    reps: 0, framesSent: 0, framesAnswered: 0, lastState: null, summary: null, summaryUnsure: null, repetitions: [],
    provisional: null, provisionalEvents: { shown: 0, confirmed: 0, withdrawn: 0 },
    handsDrawn: 0, handsReceived: 0, gestures: [], pinchedPixel: null, pinchedFrame: null, setStates: [],
    repPeaksShown: [],
  });
  repPeak = null;
  ui.repCounter.classList.remove("provisional");
  for (const el of [ui.gesture, ui.warning, ui.cue, ui.repCounter]) show(el, false);
  setText(ui.setupText, "Connecting to the coach…");
  show(ui.position, true);
  delete ui.repCounter.dataset.count;
  delete ui.badge.dataset.text;
  setText(ui.badge, ui.exercise.value ? ui.exercise.selectedOptions[0].text.replace(/ \(.*\)$/, "") : "Recognising…");
  show(ui.badge, true);
}

function onFrame(msg, image, stats) {
  const state = msg.state ?? null;
  hook.framesAnswered = stats.answered;
  hook.lastState = state;
  const hands = msg.hands ?? null;
  if (hands) hook.handsReceived = Math.max(hook.handsReceived, hands.length);
  const events = msg.events ?? [];
  noteRepPeak(events, msg.t);
  if (image) {
    answeredOnce = true;
    if (drawAnswer(ui.canvas, image, msg.pose, state, hands, msg.gesture, repPeak)) {
      if (hands?.length) hook.handsDrawn++;
      else hook.posesDrawn++;
    }
    if (msg.gesture) notePinch(hands, msg.gesture);
    fitViewport();
  }
  // A repetition that confirms the provisional one shown was counted already: no second bump.
  const confirms = events.some((e) => e.type === "repProvisionalEnded" && e.confirmed);
  for (const event of events) {
    // A revision that withdraws or adds a repetition (not one that re-measures them) makes a waiting cue about
    // one ("Rep 3", "Squat a little deeper") untrue: it is not said.
    if (event.type === "repsRevised" && (event.repetitions ?? []).length !== hook.repetitions.length) {
      speaker.withdraw(["form", "encouragement"]);
    }
    applyRepetitionEvent(event);
    if (event.type === "cue") speaker.say(event.text, event.kind);
    if ((event.type === "rep" && !confirms) || event.type === "handRep") bump();
    if (event.type === "repProvisional") onProvisional(event.repetition);
    if (event.type === "repProvisionalEnded") onProvisionalEnded(event.confirmed);
  }
  if (msg.gesture) renderGesture(msg.gesture);
  if (state) renderState(state, msg.pose ?? (hands?.length ? hands : null));
  touchFree?.frame(msg.t ?? 0, msg.pose ?? null, state?.reps ?? 0);
}

/** Keeps the judged peak of a repetition counted in this frame (a revision withdraws the one shown) until
 * `REP_PEAK_SECONDS` of capture time `t` have passed. */
function noteRepPeak(events, t) {
  for (const event of events) {
    const rep = event.repetition;
    if (event.type === "rep" && rep && Number.isFinite(rep.peakAngle)) {
      repPeak = { index: rep.index, value: rep.peakAngle, side: rep.side ?? null, until: (t ?? 0) + REP_PEAK_SECONDS };
      hook.repPeaksShown.push({ index: rep.index, value: rep.peakAngle, side: rep.side ?? null });
    }
    if (event.type === "repsRevised") repPeak = null;
  }
  if (repPeak && (t ?? 0) > repPeak.until) repPeak = null;
}

/** Follows the repetitions as docs/live-protocol.md tells them: a `rep` adds one, a `repsRevised` replaces all. */
function applyRepetitionEvent(event) {
  if (event.type === "rep" || event.type === "handRep") hook.repetitions.push(event.repetition);
  if (event.type === "repsRevised") hook.repetitions = event.repetitions ?? [];
}

/** Records the gesture state (for the test hook) and, when pinched, the colour drawn on the index tip. */
function notePinch(hands, gesture) {
  if (hook.gestures.at(-1) !== gesture.state) hook.gestures.push(gesture.state);
  if (hook.setStates.at(-1) !== gesture.set) hook.setStates.push(gesture.set);
  const tip = gesture.state === "pinched" && hands?.[gesture.hand]?.keypoints?.indexTip;
  if (tip && !hook.pinchedPixel) {
    const [r, g, b] = ui.canvas.getContext("2d").getImageData(Math.round(tip[0]), Math.round(tip[1]), 1, 1).data;
    hook.pinchedPixel = [r, g, b];
    hook.pinchedFrame = ui.canvas.toDataURL("image/png"); // the first pinched frame, as drawn
  }
}

/** The gesture line of a hand set: what a pinch or an open palm does now, coloured by the pinch's evidence. */
function renderGesture(gesture) {
  const words = { possiblePinch: "Pinch… hold it", pinched: "Pinched", openPalm: "Open palm… hold it" };
  const text = words[gesture.state] ? `${words[gesture.state]} · ${gesture.hint}` : gesture.hint;
  setText(ui.gesture, text ?? "");
  ui.gesture.dataset.state = gesture.state;
  show(ui.gesture, !!text);
}

// No exercise given: the recognised exercise's counter found a repetition the movement has not counted yet. It
// shows at once, marked provisional, until a `repProvisionalEnded` confirms it (it stays) or withdraws it.
function onProvisional(repetition) {
  if (!hook.provisional) bump();
  hook.provisional = repetition;
  hook.provisionalEvents.shown++;
  ui.repCounter.classList.add("provisional");
}

function onProvisionalEnded(confirmed) {
  hook.provisional = null;
  hook.provisionalEvents[confirmed ? "confirmed" : "withdrawn"]++;
  ui.repCounter.classList.remove("provisional");
}

/** The big counter: `shown` repetitions, "of `total`" when a number was prescribed. */
function showCount(shown, total) {
  const count = total ? `${shown} / ${total}` : `${shown}`;
  if (ui.repCounter.dataset.count !== count) {
    ui.repCounter.dataset.count = count;
    const label = document.createElement("span");
    label.className = "sr-only";
    label.textContent = "Repetitions: ";
    ui.repCounter.replaceChildren(label, count);
  }
  show(ui.repCounter, true);
}

function renderState(state, pose) {
  hook.reps = state.reps ?? 0;
  const total = state.prescribedReps ?? prescribed;
  // A repetition found by the recognised exercise's counter and not yet confirmed shows at once.
  const shown = hook.reps + (state.provisionalReps ?? 0);
  showCount(shown, total);

  // An exercise recognised below the fitted confidence is not named: the coach says it cannot tell, once aloud.
  const unsure = textOf(state.unsure);
  if (unsure && unsure !== lastUnsure) speaker.say(unsure, "setup");
  lastUnsure = unsure;
  const name = unsure ?? state.exerciseName ?? (state.recognition === "noPerson" ? "Looking for you…" : "Recognising…");
  // How sure the recogniser is: only of an exercise it recognised in someone it sees (an exercise given is not a
  // guess, and "100% sure" beside nobody seen is no truth).
  const recognised = !exerciseGiven && !unsure && state.exercise && state.recognition === "exercise" && !!pose;
  const confidence = debug && recognised && Number.isFinite(state.confidence) ? `${Math.round(state.confidence * 100)}% sure` : "";
  if (ui.badge.dataset.text !== name + confidence) {
    ui.badge.dataset.text = name + confidence;
    const small = document.createElement("small");
    small.textContent = confidence;
    ui.badge.replaceChildren(name, ...(confidence ? [small] : []));
  }

  const warning = textOf(state.warning);
  setText(ui.warning, warning ?? "");
  show(ui.warning, !!warning);

  // Touch-free start: until the coach sees the person properly, a big "Get into position".
  const setup = textOf(state.setup);
  show(ui.position, !pose || !!setup);
  // Once repetitions are being counted and the person is seen, set-up guidance never covers the body: one small
  // line at the bottom, without the big "Get into position".
  ui.position.classList.toggle("line", !!pose && (state.reps ?? 0) > 0);
  setText(ui.setupText, setup ?? (pose ? "" : state.hand
    ? "Hold your hand up to the camera, all of it in the picture"
    : "Stand where the camera can see all of you"));

  // One message at a time: a cue that repeats the set-up guidance shown above is not shown twice, and a safety
  // crossing is the warning banner's alone (it was shown in both at once).
  const cue = textOf(state.cue);
  setText(ui.cue, cue ?? "");
  ui.cue.dataset.kind = state.cueKind ?? "";
  show(ui.cue, !!cue && cue !== setup && cue !== warning && state.cueKind !== "safety");
}

function bump() {
  ui.repCounter.classList.remove("bump");
  void ui.repCounter.offsetWidth; // restart the animation
  ui.repCounter.classList.add("bump");
}

function renderStatus(s) {
  hook.framesSent = s.sent;
  hook.framesAnswered = s.answered;
  const ms = (v) => (v == null ? "–" : `${Math.round(v)} ms`);
  const words = { connecting: "Connecting", starting: "Starting", live: "Live", finishing: "Finishing", finished: "Set finished", closed: "Not connected" };
  setText(ui.status, !debug ? words[s.connection] ?? s.connection : `${words[s.connection] ?? s.connection} · sent ${s.sent} · answered ${s.answered} · ` +
    `dropped ${s.dropped}${s.lost ? ` · lost ${s.lost}` : ""} · latency ${ms(s.latencyMs)} (server ${ms(s.serverMs)})`);
}

// MARK: - Summary

function onSummary(msg) {
  touchFree = null;
  const summary = msg.summary ?? {};
  // The set's end may withdraw (or confirm) the provisional repetition shown.
  for (const event of msg.events ?? []) {
    applyRepetitionEvent(event);
    if (event.type === "repProvisionalEnded") onProvisionalEnded(event.confirmed);
  }
  hook.summary = summary;
  hook.summaryUnsure = msg.unsure ?? null;
  for (const el of [ui.warning, ui.cue, ui.position, ui.gesture]) show(el, false);
  hook.reps = summary.reps ?? hook.reps;
  const unit = hook.lastState?.angleUnit ?? "°";
  // An exercise given keeps its name when nothing was coached (a hand set that waited for a pinch): "No exercise
  // recognised" is only true when the coach was asked to recognise one.
  const reps = summary.reps ?? 0;
  const target = summary.prescribedReps ?? prescribed;
  const counted = `${reps}${target ? ` of ${target}` : ""} repetition${(target ?? reps) === 1 ? "" : "s"}`;
  // An exercise recognised below the fitted confidence is not named here either (the set's badge said so).
  const name = msg.unsure ? null : summary.exerciseName ?? summary.exercise ?? givenName ?? "No exercise recognised";
  setText(ui.summaryReps, name ? `${name}: ${counted}` : `${counted} (exercise not recognised: pick it)`);
  // The counter ends on the summary's count: the set's end may have withdrawn the provisional repetition shown,
  // or counted one more. One number for the set: the counter, the summary, the saved set, the events.
  showCount(reps, target);
  setText(ui.summaryHolds, (summary.holds ?? [])
    .map((h) => `Held ${h.heldSeconds.toFixed(1)} s of ${h.targetSeconds} s${h.completed ? " ✓" : ""}`).join(" · "));

  ui.repRows.replaceChildren(...(summary.repetitions ?? []).map((rep) => repetitionRow(rep, msg.hand, unit)));
  if (!summary.repetitions?.length) {
    const cell = ui.repRows.insertRow().insertCell();
    cell.colSpan = 5;
    // Why nothing was counted, when the coach knows (nobody seen, the exercise's joints never in view).
    cell.textContent = msg.message ? `No repetitions counted: ${plainProblem(msg.message)}` : "No repetitions counted.";
  }

  // Each form issue once, with how many repetitions it came up in.
  const issues = new Map();
  for (const issue of summary.formIssues ?? []) issues.set(issue.cue, (issues.get(issue.cue) ?? 0) + 1);
  if (msg.hand) for (const rep of summary.repetitions ?? []) for (const cue of rep.issues ?? []) issues.set(cue, (issues.get(cue) ?? 0) + 1);
  for (const w of summary.safetyWarnings ?? []) issues.set(`⚠ ${w.text}`, (issues.get(`⚠ ${w.text}`) ?? 0) + 1);
  const notChecked = msg.hand ? null : formNotChecked(summary, msg.message);
  if (notChecked) issues.set(`Form not checked: ${notChecked}`, 0);
  hook.formNotChecked = notChecked;
  ui.issues.replaceChildren(...(issues.size ? [...issues] : [[noIssues(summary, msg.hand), 0]]).map(([text, n]) => {
    const li = document.createElement("li");
    li.textContent = n > 1 ? `${text} (×${n})` : text;
    return li;
  }));

  for (const [link, href] of [[ui.reportHtml, msg.report?.html], [ui.reportPdf, msg.report?.pdf]]) {
    show(link, !!href);
    if (href) link.href = href;
  }
  programmeSummary(msg);
  setRunning(false); // first: the set-up form coming back moves the page
  show(ui.summary, true);
  ui.summaryTitle.focus();
}

// MARK: - Wiring

ui.exercise.addEventListener("change", describeExercise);
ui.sample.addEventListener("change", pickSample);
ui.startCamera.addEventListener("click", startCamera);
ui.startSample.addEventListener("click", startSample);
ui.endSet.addEventListener("click", endSet);
ui.rating.addEventListener("submit", saveRating);
ui.keep.addEventListener("click", keepSet);
ui.again.addEventListener("click", () => {
  clearInterval(programme.timer);
  show(ui.summary, false);
  ui.startCamera.focus();
});
ui.mute.addEventListener("click", () => {
  const muted = ui.mute.getAttribute("aria-pressed") !== "true";
  ui.mute.setAttribute("aria-pressed", String(muted));
  speaker.setMuted(muted);
  try { localStorage.setItem("ptcoach.muted", muted ? "1" : "0"); } catch {}
});
try {
  if (localStorage.getItem("ptcoach.muted") === "1") {
    ui.mute.setAttribute("aria-pressed", "true");
    speaker.setMuted(true);
  }
} catch {}
window.addEventListener("pagehide", () => session?.close());

/** A programme's item chosen: its exercise and numbers shown, not the patient's to change. */
function choose(entry) {
  ui.exercise.value = entry.exercise;
  describeExercise();
  for (const el of [ui.exercise, ui.reps, ui.hold]) el.disabled = true;
  ui.reps.value = entry.reps ?? "";
  ui.hold.value = entry.holdSeconds ?? "";
}

loadLibrary().then(() => loadProgramme(exercises, choose, showError)).then(loadSamples);
