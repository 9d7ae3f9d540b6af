// clinic.js — the clinic pages: log in or join, a therapist's patients (adherence, flags), one patient's
// programme, progress and sessions, exports and audit log; a patient's own programme and history.
// Everything shown goes through textContent: names and notes are never parsed as HTML.

import { setUpLearning } from "./learn.js";

const $ = (id) => document.getElementById(id);
const state = { me: null, csrf: null, library: [], patient: null };
window.ptcoach = { clinic: state };

function show(el, visible) { el.hidden = !visible; }
function text(tag, content, className) {
  const el = document.createElement(tag);
  el.textContent = content ?? "";
  if (className) el.className = className;
  return el;
}
function showError(message) {
  $("error").textContent = message ?? "";
  show($("error"), !!message);
}
const day = (iso) => iso ? new Date(iso).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short" }) : "–";
const dayTime = (iso) => iso ? new Date(iso).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) : "–";

async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && state.csrf) headers["X-CSRF-Token"] = state.csrf;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(data?.error?.message ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// MARK: - Log in, join, log out

async function start() {
  state.library = await api("GET", "./api/exercises").catch(() => []);
  const me = await api("GET", "./api/me").catch(() => null);
  if (me?.user) loggedIn(me);
  else showLogin();
}

function showLogin() {
  for (const id of ["patients-panel", "patient-panel", "learn-panel", "logout"]) show($(id), false);
  $("who").textContent = "";
  show($("login-panel"), true);
  const code = new URLSearchParams(location.hash.slice(1)).get("join");
  if (code) {
    $("join-code").value = code;
    $("join-login").focus();
  }
}

function loggedIn(me) {
  state.me = me.user;
  state.csrf = me.csrfToken;
  show($("login-panel"), false);
  show($("logout"), true);
  $("who").textContent = `${me.user.name} (${me.user.role})`;
  if (me.user.role === "therapist") {
    show($("patients-panel"), true);
    loadPatients();
    setUpLearning({
      csrf: () => state.csrf,
      learned: async () => { state.library = await api("GET", "./api/exercises").catch(() => state.library); },
    });
    // The list says who is doing a set now ("Live: watch"): kept fresh while it is shown.
    state.refresh ??= setInterval(() => {
      if (state.me?.role === "therapist" && !$("patients-panel").hidden) loadPatients().catch(() => {});
    }, 10000);
    const id = new URLSearchParams(location.hash.slice(1)).get("patient");
    if (id) openPatient(id);
  } else {
    openPatient(me.user.id);
  }
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  try {
    loggedIn(await api("POST", "./api/login", { login: $("login").value, password: $("password").value }));
    $("password").value = "";
  } catch (err) {
    showError(`Not logged in: ${err.message}.`);
  }
});

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  try {
    const me = await api("POST", "./api/join", {
      code: $("join-code").value, login: $("join-login").value, password: $("join-password").value,
    });
    history.replaceState(null, "", location.pathname);
    loggedIn(me);
  } catch (err) {
    showError(`Could not join: ${err.message}.`);
  }
});

$("logout").addEventListener("click", async () => {
  await api("POST", "./api/logout", {}).catch(() => {});
  Object.assign(state, { me: null, csrf: null, patient: null });
  history.replaceState(null, "", location.pathname);
  showLogin();
});

// MARK: - Therapist: patients

async function loadPatients() {
  const patients = await api("GET", "./api/patients");
  const rows = patients.map((p) => {
    const row = document.createElement("tr");
    const link = text("a", p.name);
    link.href = `#patient=${encodeURIComponent(p.id)}`;
    link.addEventListener("click", (event) => { event.preventDefault(); openPatient(p.id); });
    const nameCell = row.insertCell();
    nameCell.append(link);
    if (!p.joined) nameCell.append(text("span", " (invited)", "hint"));
    if (p.live) {
      // A set is running now: watch it live (skeleton and numbers only).
      const watch = text("a", "● Live: watch", "live-badge");
      watch.href = `./watch.html?patient=${encodeURIComponent(p.id)}`;
      nameCell.append(watch);
    }
    const a = p.adherence;
    // Each cell says what it holds, for the phone layout where the table's head is hidden.
    for (const [label, content] of [
      ["Days this week", p.hasProgramme ? `${a.daysDone} of ${a.daysPrescribed}` : "no programme"],
      ["Sets this week", p.hasProgramme ? `${a.setsDone} of ${a.setsPrescribed}` : "–"],
      ["Last session", day(p.lastSession)],
    ]) {
      const cell = row.insertCell();
      cell.textContent = content;
      cell.dataset.label = label;
    }
    const flags = row.insertCell();
    flags.setAttribute("data-label", "Flags");
    flags.className = "flags-cell";
    for (const f of p.flags) flags.append(text("span", f.message, `flag flag-${f.kind}`));
    if (p.needsReview) row.className = "needs-review";
    return row;
  });
  if (!rows.length) {
    const row = document.createElement("tr");
    const cell = row.insertCell();
    cell.colSpan = 5;
    cell.textContent = "No patients yet: add one below and give them their invitation code.";
    rows.push(row);
  }
  document.querySelector("#patients-table tbody").replaceChildren(...rows);
}

$("add-patient").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  try {
    const patient = await api("POST", "./api/patients", { name: $("patient-name").value });
    $("patient-name").value = "";
    const note = $("invitation");
    const link = new URL(patient.invitation.link, location.href).href;
    note.replaceChildren(
      text("span", `${patient.name}'s invitation code: `),
      text("strong", patient.invitation.code, "code"),
      text("span", ` (valid until ${day(patient.invitation.expiresAt)}). Link: ${link}`),
    );
    show(note, true);
    await loadPatients();
  } catch (err) {
    showError(`The patient was not added: ${err.message}.`);
  }
});

// MARK: - One patient

async function openPatient(id) {
  showError("");
  let data;
  try {
    data = await api("GET", `./api/patients/${encodeURIComponent(id)}`);
  } catch (err) {
    showError(`This patient could not be opened: ${err.message}.`);
    return;
  }
  state.patient = data;
  const therapist = state.me.role === "therapist";
  if (therapist) history.replaceState(null, "", `#patient=${encodeURIComponent(id)}`);
  $("patient-title").textContent = therapist ? data.name : "Your programme and progress";
  const a = data.adherence;
  $("patient-adherence").textContent = data.programme
    ? `This week: ${a.daysDone} of ${a.daysPrescribed} days, ${a.setsDone} of ${a.setsPrescribed} sets.`
    : "No programme yet.";
  // A patient sees only what stops an exercise, in their words; the therapist every flag.
  const flags = therapist ? data.flags : data.flags.filter((f) => f.kind === "stop").map((f) => ({ ...f,
    message: `${exerciseName(f.exercise)}: stop it for now and contact your therapist. It will be offered again once they have seen your last set.` }));
  $("patient-flags").replaceChildren(...flags.map((f) => flagItem(f, therapist, id)));
  show($("export-fhir"), therapist);
  $("export-csv").href = `./api/patients/${encodeURIComponent(id)}/export/sets.csv`;
  $("export-fhir").href = `./api/patients/${encodeURIComponent(id)}/export/fhir.json`;
  const iso = (d) => d.toISOString().slice(0, 10);
  if (!$("report-to").value) $("report-to").value = iso(new Date());
  if (!$("report-from").value) $("report-from").value = iso(new Date(Date.now() - 27 * 86400000));
  updateReportLinks();
  renderProgramme(data, therapist);
  renderCharts(data.progress);
  renderSets(data.sets);
  show($("audit-area"), therapist);
  if (therapist) renderAudit(id);
  show($("patient-panel"), true);
  $("patient-title").focus();
}

/** A flag; a stopped exercise gets, for the therapist, the button that offers it to the patient again. */
function flagItem(flag, therapist, patientID) {
  const li = text("li", flag.message, `flag flag-${flag.kind}`);
  if (flag.kind === "stop" && therapist && flag.set) {
    const report = text("a", "open the set");
    report.href = `./api/sessions/${encodeURIComponent(flag.set)}/report.html`;
    const seen = text("button", "Seen: I will contact the patient");
    seen.type = "button";
    seen.className = "review";
    seen.addEventListener("click", async () => {
      seen.disabled = true;
      try {
        await api("POST", `./api/sessions/${encodeURIComponent(flag.set)}/review`, {});
        await openPatient(patientID);
        await loadPatients();
      } catch (err) {
        seen.disabled = false;
        showError(`Not marked seen: ${err.message}.`);
      }
    });
    li.append(" ", report, " ", seen);
  }
  return li;
}

function updateReportLinks() {
  if (!state.patient) return;
  const range = `from=${$("report-from").value}&to=${$("report-to").value}`;
  const base = `./api/patients/${encodeURIComponent(state.patient.id)}/report`;
  $("report-html-range").href = `${base}/report.html?${range}`;
  $("report-pdf-range").href = `${base}/report.pdf?${range}`;
}
$("report-from").addEventListener("change", updateReportLinks);
$("report-to").addEventListener("change", updateReportLinks);

function exerciseName(id) { return state.library.find((e) => e.id === id)?.name ?? id; }

function describeItem(item) {
  const parts = [`${item.sets} set${item.sets === 1 ? "" : "s"}`];
  if (item.reps) parts.push(`${item.reps} reps`);
  if (item.holdSeconds) parts.push(`hold ${item.holdSeconds} s`);
  parts.push(`rest ${item.restSeconds} s`);
  if (item.side) parts.push(`${item.side} side`);
  if (item.targetMin != null && item.targetMax != null) parts.push(`target ${item.targetMin}–${item.targetMax}°`);
  if (item.safetyMax != null) parts.push(`stop past ${item.safetyMax}°`);
  return parts.join(" · ");
}

function renderProgramme(data, therapist) {
  const view = $("programme-view");
  const programme = data.programme;
  if (!programme) {
    view.replaceChildren(text("p", therapist ? "No programme yet: add exercises below." : "Your therapist has not set a programme yet.", "hint"));
  } else {
    const list = document.createElement("ol");
    list.className = "programme-list";
    programme.items.forEach((item, index) => {
      const li = document.createElement("li");
      li.append(text("strong", programme.names[index] ?? exerciseName(item.exercise)), text("span", ` — ${describeItem(item)}`));
      if (item.note) li.append(text("p", item.note, "hint"));
      const stopped = data.flags.some((f) => f.kind === "stop" && f.exercise === item.exercise);
      if (!therapist && stopped) li.append(" ", text("span", "stopped: contact your therapist", "flag flag-stop"));
      else if (!therapist) {
        const go = text("a", "Start", "button-link");
        go.href = `./?item=${index}`;
        li.append(" ", go);
      }
      list.append(li);
    });
    view.replaceChildren(text("p", `${programme.daysPerWeek} day(s) a week · version ${programme.version}`, "hint"), list);
  }
  show($("programme-form"), therapist);
  if (therapist) {
    $("days").value = programme?.daysPerWeek ?? 3;
    document.querySelector("#programme-table tbody").replaceChildren();
    for (const item of programme?.items ?? []) addItemRow(item);
    if (!programme) addItemRow();
  }
}

function addItemRow(item = {}) {
  const row = document.createElement("tr");
  const select = document.createElement("select");
  select.name = "exercise";
  select.setAttribute("aria-label", "Exercise");
  for (const ex of state.library) {
    const option = text("option", ex.name);
    option.value = ex.id;
    select.append(option);
  }
  select.value = item.exercise ?? state.library[0]?.id ?? "";
  // Each cell says what it holds, for the phone layout where the table's head is hidden.
  const cell = (label) => { const c = row.insertCell(); c.dataset.label = label; return c; };
  cell("Exercise").append(select);
  const number = (name, value, label, step = "1") => {
    const input = document.createElement("input");
    Object.assign(input, { type: "number", name, step, value: value ?? "" });
    input.setAttribute("aria-label", label);
    cell(label).append(input);
  };
  number("sets", item.sets ?? 3, "Sets");
  number("reps", item.reps === undefined ? 10 : item.reps, "Repetitions");
  number("holdSeconds", item.holdSeconds, "Hold seconds", "0.5");
  number("restSeconds", item.restSeconds ?? 60, "Rest seconds");
  const side = document.createElement("select");
  side.name = "side";
  side.setAttribute("aria-label", "Side");
  for (const [value, label] of [["", "as defined"], ["left", "left"], ["right", "right"]]) {
    const option = text("option", label);
    option.value = value;
    side.append(option);
  }
  side.value = item.side ?? "";
  cell("Side").append(side);
  number("targetMin", item.targetMin, "Target minimum degrees");
  number("targetMax", item.targetMax, "Target maximum degrees");
  number("safetyMax", item.safetyMax, "Stop past degrees");
  const note = document.createElement("input");
  Object.assign(note, { name: "note", value: item.note ?? "", maxLength: 500 });
  note.setAttribute("aria-label", "Note");
  cell("Note").append(note);
  const remove = text("button", "Remove");
  remove.type = "button";
  remove.addEventListener("click", () => row.remove());
  row.insertCell().append(remove);
  document.querySelector("#programme-table tbody").append(row);
}

$("add-item").addEventListener("click", () => addItemRow());

$("programme-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const items = [...document.querySelectorAll("#programme-table tbody tr")].map((row) => {
    const value = (name) => row.querySelector(`[name=${name}]`).value;
    const num = (name) => value(name) === "" ? null : Number(value(name));
    const item = { exercise: value("exercise"), sets: num("sets"), reps: num("reps"), holdSeconds: num("holdSeconds"),
      restSeconds: num("restSeconds") ?? 60, targetMin: num("targetMin"), targetMax: num("targetMax"),
      safetyMax: num("safetyMax"), note: value("note") };
    if (value("side")) item.side = value("side");
    if (state.library.find((e) => e.id === item.exercise)?.kind === "hold") item.reps = null;
    return item;
  });
  try {
    const saved = await api("PUT", `./api/patients/${encodeURIComponent(state.patient.id)}/programme`,
      { daysPerWeek: Number($("days").value), items });
    $("programme-status").textContent = `Saved: version ${saved.version}.`;
    await openPatient(state.patient.id);
    await loadPatients();
  } catch (err) {
    $("programme-status").textContent = `Not saved: ${err.message}.`;
  }
});

function renderSets(sets) {
  const rows = sets.map((s) => {
    const row = document.createElement("tr");
    const sets = s.prescription?.sets;
    const cells = [dayTime(s.startedAt), s.exerciseName ?? s.exercise ?? "–",
      s.setNumber ? (sets && s.setNumber > sets ? `${s.setNumber} (extra)` : `${s.setNumber}${sets ? ` of ${sets}` : ""}`) : "kept practice", `${s.reps}${s.prescribedReps ? ` of ${s.prescribedReps}` : ""}`,
      s.peakAngle == null ? "–" : `${Math.round(s.peakAngle)}°`, String(s.safetyWarnings ?? 0),
      s.pain ?? "–", s.difficulty ?? "–"];
    for (const c of cells) row.insertCell().textContent = String(c);
    const report = row.insertCell();
    if (s.report) {
      const link = text("a", "report");
      link.href = s.report.html;
      report.append(link);
    }
    return row;
  });
  document.querySelector("#sets-table tbody").replaceChildren(...rows);
}

async function renderAudit(id) {
  const entries = await api("GET", `./api/patients/${encodeURIComponent(id)}/audit`).catch(() => []);
  $("audit").replaceChildren(...entries.slice(0, 50).map((e) => text("li", `${new Date(e.at).toLocaleString()} — ${e.who}: ${e.action}`)));
}

// MARK: - Progress charts (SVG)

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attributes, content) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  if (content !== undefined) el.textContent = content;
  return el;
}

function renderCharts(progress) {
  state.progress = progress;
  state.chartWidth = chartWidth();
  const charts = Object.entries(progress ?? {}).map(([exercise, points]) => chart(exerciseName(exercise), points));
  $("charts").replaceChildren(...(charts.length ? charts : [text("p", "No sets yet.", "hint")]));
}

/** Per exercise, three charts over the sets, one measure each: the peak angle against the prescribed band (and the
 * stop-past limit), the repetitions done against prescribed, pain and difficulty (0–10). */
function chart(name, points) {
  const figure = document.createElement("figure");
  figure.className = "chart";
  // Dates that differ: a day's sets are told apart by their time.
  const days = points.map((p) => day(p.date));
  const time = (iso) => new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  // A day with several sets: its first labelled with the day and time, the others with the time.
  const labels = points.map((p, i) => days.filter((d) => d === days[i]).length === 1 ? days[i]
    : days.indexOf(days[i]) === i ? dayTime(p.date) : time(p.date));
  const span = days[0] === days[days.length - 1] ? days[0] : `${days[0]} to ${days[days.length - 1]}`;
  const panels = [
    panel("Peak angle against the prescribed target", points, labels, {
      values: [{ key: "peakAngle", cls: "angle", label: "peak angle" }], unit: "°",
      band: (p) => p.targetMin != null && p.targetMax != null ? [p.targetMin, p.targetMax] : null,
      limit: (p) => p.safetyMax,
    }),
    panel("Repetitions: done and prescribed", points, labels, {
      values: [{ key: "reps", cls: "reps", label: "done" }, { key: "prescribedReps", cls: "prescribed", label: "prescribed" }], bars: true,
    }),
    panel("Pain and difficulty (0–10)", points, labels, {
      values: [{ key: "pain", cls: "pain", label: "pain" }, { key: "difficulty", cls: "difficulty", label: "difficulty" }], max: 10,
    }),
  ];
  figure.append(text("figcaption", `${name}: ${points.length} set${points.length === 1 ? "" : "s"}, ${span}`), ...panels);
  return figure;
}

/** The charts' drawing width: the page's, so that a phone's labels stay as large as a laptop's. */
function chartWidth() {
  return Math.round(Math.max(320, Math.min(640, document.documentElement.clientWidth - 72)));
}
window.addEventListener("resize", () => {
  if (state.progress && chartWidth() !== state.chartWidth) renderCharts(state.progress);
});

function panel(title, points, labels, { values, unit = "", band, limit, bars = false, max }) {
  const w = state.chartWidth ?? 640, h = 210, left = 48, right = 16, top = 46, bottom = 34;
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": title, class: "progress-chart" });
  root.append(svg("text", { x: 8, y: 16, class: "chart-title" }, title));
  const numbers = points.flatMap((p) => [...values.map((v) => p[v.key]), ...(band?.(p) ?? []), limit?.(p)]).filter((v) => v != null);
  if (!numbers.length) {
    root.append(svg("text", { x: w / 2, y: h / 2, "text-anchor": "middle", class: "axis" }, "nothing recorded"));
    return root;
  }
  const high = max ?? Math.max(1, Math.ceil(Math.max(...numbers) * 1.1 / 10) * 10);
  const low = max != null || bars ? 0 : Math.max(0, Math.floor(Math.min(...numbers) * 0.9 / 10) * 10);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (h - top - bottom);
  const step = (w - left - right) / points.length;
  const x = (i) => left + step * (i + 0.5);
  for (const v of [low, (low + high) / 2, high]) {
    root.append(svg("line", { x1: left, x2: w - right, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, `${Math.round(v)}${unit}`));
  }
  points.forEach((p, i) => {
    const b = band?.(p);
    if (b) root.append(svg("rect", { x: x(i) - step / 2, width: step, y: y(b[1]), height: y(b[0]) - y(b[1]), class: "band" }));
    const stop = limit?.(p);
    if (stop != null) root.append(svg("line", { x1: x(i) - step / 2, x2: x(i) + step / 2, y1: y(stop), y2: y(stop), class: "limit" }));
  });
  values.forEach((v, k) => {
    const width = Math.min(28, step / (values.length + 1));
    points.forEach((p, i) => {
      if (p[v.key] == null) return;
      if (bars) {
        const bx = x(i) + (k - (values.length - 1) / 2) * width - width / 2;
        root.append(svg("rect", { x: bx, width: width * 0.9, y: y(p[v.key]), height: y(low) - y(p[v.key]), class: `bar ${v.cls}` }));
      } else root.append(svg("circle", { cx: x(i) + (values.length > 1 ? (k - 0.5) * 6 : 0), cy: y(p[v.key]), r: 5, class: v.cls }));
    });
    if (!bars) {
      const line = points.map((p, i) => p[v.key] == null ? null : `${x(i)},${y(p[v.key])}`).filter(Boolean);
      if (line.length > 1) root.append(svg("polyline", { points: line.join(" "), class: `line ${v.cls}` }));
    }
  });
  // One date label per set, thinned when crowded.
  const every = Math.ceil(points.length / Math.max(1, Math.floor((w - left) / 150)));
  labels.forEach((label, i) => {
    if (i % every === 0 || i === points.length - 1) root.append(svg("text", { x: x(i), y: h - 12, "text-anchor": "middle", class: "axis" }, label));
  });
  const legend = [...values.map((v) => [`■ ${v.label}`, v.cls])];
  if (points.some((p) => band?.(p))) legend.push(["■ target", "band-key"]);
  if (points.some((p) => limit?.(p) != null)) legend.push(["– – stop past", "limit-key"]);
  // The key on its own line under the title, left to right.
  let lx = 8;
  for (const [label, cls] of legend) {
    root.append(svg("text", { x: lx, y: 34, class: `legend ${cls}` }, label));
    lx += 16 + 7 * label.length;
  }
  return root;
}

// An invitation link opened while this page is already open only changes the hash.
window.addEventListener("hashchange", () => { if (!state.me) showLogin(); });

start();
