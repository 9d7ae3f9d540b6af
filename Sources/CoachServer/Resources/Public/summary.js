// summary.js — the end-of-set summary: its repetition table rows, and its words about form (it praises only what
// was judged: a set whose repetitions were all "not checked", or where nobody was seen, said "None — well done.").

import { formatAngle } from "./overlay.js";

/**
 * Why no repetition's form was checked (the repetitions' own reasons, nobody seen, none counted), or null when one
 * was judged: the summary never praises what nobody looked at.
 */
export function formNotChecked(summary, message) {
  const reps = summary.repetitions ?? [];
  if (!reps.length) {
    if (message) return message.replace(/^this set: /, "");
    return (summary.secondsWithPerson ?? 0) > 0 ? "no repetitions counted" : "nobody was seen";
  }
  if (reps.some((rep) => rep.verdict && rep.verdict !== "not-checked")) return null;
  const reasons = new Map();
  for (const rep of reps) {
    for (const reason of (rep.uncheckedReason ?? "no form rule could be checked").split("; ")) {
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  return [...reasons].sort((a, b) => b[1] - a[1]).map(([reason]) => reason).join("; ");
}

/** The issues list when nothing was flagged: of the repetitions judged only. */
export function noIssues(summary, hand) {
  const reps = summary.repetitions ?? [];
  if (!reps.length) return "No repetitions counted.";
  const judged = hand ? reps.length : reps.filter((rep) => rep.verdict && rep.verdict !== "not-checked").length;
  if (judged === reps.length) return "None — well done.";
  return `None in the ${judged} repetition${judged === 1 ? "" : "s"} checked (${reps.length - judged} not checked).`;
}

/** One row of the summary's repetition table: a body repetition, or a hand one (its measure from rest to peak). */
export function repetitionRow(rep, hand, unit) {
  const row = document.createElement("tr");
  // A hand set's repetitions: the primary measure from rest to peak, the verdict and the first cue (strings).
  const verdict = hand ? { good: "good", needsWork: "needs-work" }[rep.verdict] : rep.verdict;
  const cells = hand ? [
    String(rep.index),
    `${formatAngle(rep.rest, unit)} → ${formatAngle(rep.peak, unit)}`,
    formatAngle(rep.peak, unit),
    verdict?.replace("-", " ") ?? "–",
    rep.issues?.[0] ?? "",
  ] : [
    String(rep.index),
    // The coach's own judgement of the range, in its words ("82% of target (74° of 90–120°)").
    rep.range?.text ?? (rep.rangeOfMotion == null ? "–" : `${Math.round(Math.min(rep.rangeOfMotion, 1) * 100)}%`),
    formatAngle(rep.peakAngle, unit),
    rep.verdict?.replace("-", " ") ?? "–",
    // A repetition not checked says why ("too close to call from this view", "the camera view does not suit…").
    rep.issues?.[0]?.cue ?? (rep.verdict === "not-checked" ? rep.uncheckedReason ?? "" : ""),
  ];
  for (const text of cells) row.insertCell().textContent = text;
  row.cells[3].className = verdict ?? "";
  return row;
}

/** The coach's reason for counting nothing, in words a patient can act on. */
export function plainProblem(message) {
  if (/no person was seen/.test(message)) {
    return "the camera did not see you. Stand 2 to 3 metres back, so that all of you is in the picture, and try again.";
  }
  if (/needs .* never seen/.test(message)) {
    return "the camera never saw the joints this exercise needs. Turn as the exercise's camera view says, all of you in the picture.";
  }
  if (/^no pinch seen/.test(message)) {
    return "no pinch was seen, so the set never started. Touch your thumb and index finger together and hold them a moment to start.";
  }
  return message.replace(/^this set: /, "");
}
