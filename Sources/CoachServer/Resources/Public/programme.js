// programme.js — a logged-in patient on the coaching page: their programme's item (?item=N) and its set number,
// practice sets (a sample video, or not from the programme), the pain and difficulty question, the stop advice after
// pain 7 or more or a safety stop, and the rest between sets.

const $ = (id) => document.getElementById(id);
function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
function show(el, visible) { el.hidden = !visible; }

// The item, the server's answer, the CSRF token, the set running or just done.
export const programme = {
  item: null, entry: null, name: "", csrf: null, setNumber: null, sets: null, rest: 0, timer: null,
  session: null, stopped: null, practice: null, next: 1,
};

const ui = {
  banner: $("programme-banner"), bannerTitle: $("programme-title"), bannerDetail: $("programme-detail"),
  stop: $("stop-advice"), stopSummary: $("stop-summary"), rating: $("rating"), pain: $("pain"), difficulty: $("difficulty"),
  ratingStatus: $("rating-status"), rest: $("rest"), practice: $("practice-note"), keep: $("keep-set"),
  startCamera: $("start-camera"), clinicLink: $("clinic-link"),
};

/** "Squat: set 2 of 3", or an extra set past the prescription. */
function setTitle(number) {
  if (number == null) return `${programme.name}: practice — it does not count`;
  return number <= programme.sets
    ? `${programme.name}: set ${number} of ${programme.sets}`
    : `${programme.name}: an extra set (${programme.sets} prescribed, all done today)`;
}

/** Shows the plain stop advice (pain 7 or more, a safety stop) and keeps the next set of this exercise from starting. */
export function showStop(text) {
  programme.stopped = text;
  for (const el of [ui.stop, ui.stopSummary]) {
    setText(el, text ?? "");
    show(el, !!text);
  }
  if (text) {
    if (programme.entry) {
      ui.startCamera.disabled = true;
      setText(ui.bannerTitle, `${programme.name}: stopped until your therapist has seen your last set`);
    }
    show(ui.rest, false);
    show($("again"), false);
    clearInterval(programme.timer);
  }
  window.ptcoach.state.stop = text ?? null;
}

/** Reads the patient's programme item from `?item=N`; `exercises` is the library, `choose(id)` picks one. */
export async function loadProgramme(exercises, choose, showError) {
  const item = new URLSearchParams(location.search).get("item");
  let me = null;
  try {
    const response = await fetch("./api/me", { headers: { Accept: "application/json" } });
    if (response.ok) me = await response.json();
  } catch {}
  if (me?.user) {
    setText(ui.clinicLink, me.user.role === "patient" ? "My programme" : "Clinic");
    programme.csrf = me.user.role === "patient" ? me.csrfToken : null;
  }
  if (item === null || !programme.csrf) return;
  const response = await fetch("./api/me/programme", { headers: { Accept: "application/json" } }).catch(() => null);
  const current = response?.ok ? await response.json() : null;
  const entry = current?.items?.[Number(item)];
  if (!entry) {
    showError("That exercise is not in your current programme. Open “My programme” to choose one.");
    return;
  }
  Object.assign(programme, { item: Number(item), entry, name: current.names[Number(item)], sets: entry.sets });
  choose(entry);
  programme.next = (current.doneToday?.[Number(item)] ?? 0) + 1;
  setText(ui.bannerTitle, setTitle(programme.next));
  const parts = [];
  if (entry.reps) parts.push(`${entry.reps} repetitions`);
  if (entry.holdSeconds) parts.push(`hold ${entry.holdSeconds} s`);
  // A hand exercise's thumb distances are in hand lengths, its other targets in degrees.
  const primary = exercises.find((e) => e.id === entry.exercise)?.primary ?? "";
  const unit = primary === "thumbGap" || primary === "thumbOpposition" ? " hand lengths" : "°";
  if (entry.targetMin != null && entry.targetMax != null) parts.push(`aim for ${entry.targetMin}–${entry.targetMax}${unit}`);
  if (entry.safetyMax != null) parts.push(`never past ${entry.safetyMax}°`);
  if (entry.side) parts.push(`${entry.side} side`);
  parts.push(`rest ${entry.restSeconds} s between sets`);
  setText(ui.bannerDetail, parts.join(" · ") + (entry.note ? ` — ${entry.note}` : ""));
  show(ui.banner, true);
  showStop(current.stopped?.[Number(item)] ?? null);
}

/** The server's `ready`: the set's number (none for practice). */
export function onReady(msg) {
  programme.practice = msg.practice ?? null;
  if (!msg.programme) return;
  programme.setNumber = msg.programme.set ?? null;
  programme.sets = msg.programme.sets;
  programme.rest = msg.programme.restSeconds ?? 0;
  setText(ui.bannerTitle, setTitle(programme.setNumber));
}

/** The set's summary: practice said plainly (with "keep it" for the patient's own camera), the stop advice, the
 * pain question for a set the patient did. */
export function onSummary(msg) {
  programme.session = msg.session ?? null;
  programme.practice = msg.practice ?? programme.practice;
  // The banner names the next set that counts: after practice, the same one as before.
  if (programme.entry && !programme.stopped) {
    if (!programme.practice && programme.setNumber) programme.next = programme.setNumber + 1;
    setText(ui.bannerTitle, setTitle(programme.next));
  }
  const practice = programme.csrf ? msg.practice : null;
  setText(ui.practice, practice === "sample-video"
    ? "This was practice with a sample video: it is not saved as your set and does not count."
    : practice === "unprescribed"
      ? "This was a practice set, not one of your programme: it does not count unless you keep it."
      : "");
  show(ui.practice, !!practice);
  show(ui.keep, practice === "unprescribed");
  ui.keep.disabled = false;
  show(ui.rating, !!(programme.csrf && msg.session) && practice !== "sample-video" && !msg.stop);
  setText(ui.ratingStatus, "");
  show(ui.rest, false);
  if (msg.stop) showStop(msg.stop);
}

export async function saveRating(event) {
  event.preventDefault();
  if (!programme.session) return;
  const body = { pain: Number(ui.pain.value), difficulty: Number(ui.difficulty.value) };
  const response = await post(`./api/sessions/${encodeURIComponent(programme.session)}/rating`, body);
  if (!response?.ok) {
    const message = response ? (await response.json().catch(() => ({})))?.error?.message : null;
    setText(ui.ratingStatus, `Not saved: ${message ?? "the server could not be reached"}. Try again.`);
    return;
  }
  const answer = await response.json().catch(() => ({}));
  window.ptcoach.state.rated = body;
  if (answer.stop) {
    setText(ui.ratingStatus, "Saved.");
    showStop(answer.stop);
    return;
  }
  setText(ui.ratingStatus, "Saved. Thank you.");
  if (!programme.entry || programme.practice) return;
  if (programme.setNumber && programme.setNumber < programme.sets) startRest();
  else {
    show(ui.rest, true);
    setText(ui.rest, `All ${programme.sets} sets of ${programme.name} done. Back to your programme for the next exercise.`);
  }
}

export async function keepSet() {
  if (!programme.session) return;
  ui.keep.disabled = true;
  const response = await post(`./api/sessions/${encodeURIComponent(programme.session)}/keep`, {});
  if (!response?.ok) {
    ui.keep.disabled = false;
    setText(ui.practice, "Not kept: the server could not be reached. Try again.");
    return;
  }
  setText(ui.practice, "Kept: this set is now one of yours, and your therapist sees it.");
  show(ui.keep, false);
}

function post(url, body) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": programme.csrf },
    body: JSON.stringify(body),
  }).catch(() => null);
}

function startRest() {
  clearInterval(programme.timer);
  let left = Math.round(programme.rest);
  const next = programme.setNumber + 1;
  show(ui.rest, true);
  const tick = () => {
    setText(ui.rest, left > 0
      ? `Rest: ${left} s, then set ${next} of ${programme.sets}.`
      : `Ready for set ${next} of ${programme.sets}: start when you are.`);
    if (left-- <= 0) clearInterval(programme.timer);
  };
  tick();
  programme.timer = setInterval(tick, 1000);
}
