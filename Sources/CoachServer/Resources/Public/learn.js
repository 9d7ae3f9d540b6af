// learn.js — the clinic page's "a new exercise from a demonstration" (docs/learn.md, "In the clinic"): uploads the
// video to POST /api/library/learn, then draws the preview the server sends (the demonstration's skeleton at the
// repetition's peak with the learned angle and band, as the coaching overlay draws them) and lists the clinic's own
// exercises.

import { drawAnswer } from "./overlay.js";

const $ = (id) => document.getElementById(id);

/** Draws a learned exercise's preview on the panel's canvas, on a neutral background. */
export function drawPreview(preview) {
  const background = document.createElement("canvas");
  Object.assign(background, { width: preview.width, height: preview.height });
  const ctx = background.getContext("2d");
  ctx.fillStyle = "#39424c";
  ctx.fillRect(0, 0, preview.width, preview.height);
  return drawAnswer($("learn-canvas"), background, preview.pose, preview.state);
}

/**
 * Sets up the panel for a therapist.
 * @param {object} o `csrf()` the login's token, `learned()` called after an exercise was learned (to reload the
 *   library the programme editor offers)
 */
export function setUpLearning({ csrf, learned }) {
  const panel = $("learn-panel");
  panel.hidden = false;
  window.ptcoach.learn = { result: null, error: null, drawn: false };
  const status = (text) => { $("learn-status").textContent = text; };
  const show = (exercise) => {
    window.ptcoach.learn.drawn = drawPreview(exercise.preview);
    $("learn-description").textContent =
      `${exercise.preview.description}\nCounted in its own demonstration: ${exercise.preview.repetitions} repetition(s).`;
    $("learn-preview").hidden = false;
  };
  const list = async () => {
    const response = await fetch("./api/library", { headers: { Accept: "application/json" } });
    const exercises = response.ok ? await response.json() : [];
    $("learned-list").replaceChildren(...exercises.map((exercise) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${exercise.name} (${exercise.definition.primary}, band ${exercise.definition.target?.min ?? "–"}–${exercise.definition.target?.max ?? "–"}°)`;
      button.addEventListener("click", () => show(exercise));
      item.append(button);
      return item;
    }));
    if (!exercises.length) $("learned-list").replaceChildren(Object.assign(document.createElement("li"), { textContent: "None yet." }));
  };
  $("learn-form").onsubmit = async (event) => {
    event.preventDefault();
    const file = $("learn-video").files[0];
    const name = $("learn-name").value.trim();
    if (!file || !name) return;
    $("learn-submit").disabled = true;
    status(`Learning ${name} from ${file.name}… (the pose model reads every frame: a few seconds a second of video)`);
    try {
      const url = `./api/library/learn?name=${encodeURIComponent(name)}&file=${encodeURIComponent(file.name)}`;
      const response = await fetch(url, {
        method: "POST", body: file,
        headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrf(), Accept: "application/json" },
      });
      const data = await response.json().catch(() => null);
      if (!response.ok) throw new Error(data?.error?.message ?? `${response.status} ${response.statusText}`);
      window.ptcoach.learn.result = data;
      show(data);
      status(`${data.name} is in your clinic's library (id ${data.id}): add it to a programme.`);
      await learned();
      await list();
    } catch (err) {
      window.ptcoach.learn.error = err.message;
      status(`Not learned: ${err.message}`);
    } finally {
      $("learn-submit").disabled = false;
    }
  };
  list().catch(() => {});
}
