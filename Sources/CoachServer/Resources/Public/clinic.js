// clinic.js — the clinic pages: log in or join, a therapist's patients (adherence, flags), one patient's
// programme, progress and sessions, exports and audit log; a patient's own programme and history.
// Everything shown goes through textContent: names and notes are never parsed as HTML.

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
  for (const id of ["patients-panel", "patient-panel", "logout"]) show($(id), false);
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
    const a = p.adherence;
    row.insertCell().textContent = p.hasProgramme ? `${a.daysDone} of ${a.daysPrescribed}` : "no programme";
    row.insertCell().textContent = p.hasProgramme ? `${a.setsDone} of ${a.setsPrescribed}` : "–";
    row.insertCell().textContent = day(p.lastSession);
    const flags = row.insertCell();
    flags.className = "flags-cell";
    for (const f of p.flags) flags.append(text("span", f.message, `flag flag-${f.kind}`));
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
  $("patient-flags").replaceChildren(...data.flags.map((f) => text("li", f.message, `flag flag-${f.kind}`)));
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
      if (!therapist) {
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
  row.insertCell().append(select);
  const number = (name, value, label, step = "1") => {
    const input = document.createElement("input");
    Object.assign(input, { type: "number", name, step, value: value ?? "" });
    input.setAttribute("aria-label", label);
    row.insertCell().append(input);
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
  row.insertCell().append(side);
  number("targetMin", item.targetMin, "Target minimum degrees");
  number("targetMax", item.targetMax, "Target maximum degrees");
  number("safetyMax", item.safetyMax, "Stop past degrees");
  const note = document.createElement("input");
  Object.assign(note, { name: "note", value: item.note ?? "", maxLength: 500 });
  note.setAttribute("aria-label", "Note");
  row.insertCell().append(note);
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
    const cells = [day(s.startedAt), s.exerciseName ?? s.exercise ?? "–",
      s.setNumber ? String(s.setNumber) : "free", `${s.reps}${s.prescribedReps ? ` of ${s.prescribedReps}` : ""}`,
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
  const charts = Object.entries(progress ?? {}).map(([exercise, points]) => chart(exerciseName(exercise), points));
  $("charts").replaceChildren(...(charts.length ? charts : [text("p", "No sets yet.", "hint")]));
}

/** Peak angle per set (line), repetitions done vs prescribed (bars) and pain (dots, 0–10) over time. */
function chart(name, points) {
  const figure = document.createElement("figure");
  figure.className = "chart";
  const w = 560, h = 200, left = 40, right = 40, top = 16, bottom = 28;
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": `${name}: progress over ${points.length} sets` });
  const x = (i) => left + (points.length === 1 ? (w - left - right) / 2 : i * (w - left - right) / (points.length - 1));
  const angles = points.map((p) => p.peakAngle).filter((a) => a != null);
  const maxAngle = Math.max(90, ...angles.map((a) => Math.ceil(a / 30) * 30));
  const yAngle = (a) => top + (1 - a / maxAngle) * (h - top - bottom);
  const maxReps = Math.max(1, ...points.map((p) => Math.max(p.reps, p.prescribedReps ?? 0)));
  for (const a of [0, maxAngle / 2, maxAngle]) {
    root.append(svg("line", { x1: left, x2: w - right, y1: yAngle(a), y2: yAngle(a), class: "grid" }));
    root.append(svg("text", { x: left - 6, y: yAngle(a) + 4, "text-anchor": "end", class: "axis" }, `${Math.round(a)}°`));
  }
  const barWidth = Math.max(4, Math.min(24, (w - left - right) / points.length / 2));
  points.forEach((p, i) => {
    const hReps = (p.reps / maxReps) * (h - top - bottom) * 0.5;
    root.append(svg("rect", { x: x(i) - barWidth / 2, y: h - bottom - hReps, width: barWidth, height: hReps, class: "bar" },));
    if (p.prescribedReps) {
      const yP = h - bottom - (p.prescribedReps / maxReps) * (h - top - bottom) * 0.5;
      root.append(svg("line", { x1: x(i) - barWidth, x2: x(i) + barWidth, y1: yP, y2: yP, class: "prescribed" }));
    }
    if (p.pain != null) {
      const yPain = top + (1 - p.pain / 10) * (h - top - bottom);
      root.append(svg("circle", { cx: x(i), cy: yPain, r: 4, class: "pain" }, ));
    }
  });
  const line = points.map((p, i) => p.peakAngle == null ? null : `${x(i)},${yAngle(p.peakAngle)}`).filter(Boolean);
  if (line.length) root.append(svg("polyline", { points: line.join(" "), class: "angle" }));
  for (const [i, p] of points.entries()) {
    if (p.peakAngle != null) root.append(svg("circle", { cx: x(i), cy: yAngle(p.peakAngle), r: 3, class: "angle-dot" }));
  }
  root.append(svg("text", { x: w - right + 6, y: top + 4, class: "axis" }, "pain 10"));
  root.append(svg("text", { x: left, y: h - 8, class: "axis" }, day(points[0].date)));
  root.append(svg("text", { x: w - right, y: h - 8, "text-anchor": "end", class: "axis" }, day(points[points.length - 1].date)));
  const caption = text("figcaption", `${name}: peak angle (line), repetitions done (bars) against prescribed (ticks), pain (orange dots)`);
  figure.append(caption, root);
  return figure;
}

// An invitation link opened while this page is already open only changes the hash.
window.addEventListener("hashchange", () => { if (!state.me) showLogin(); });

start();
