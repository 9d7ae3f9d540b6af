// summary.js — the end-of-set summary's words about form: it praises only what was judged (a set whose
// repetitions were all "not checked", or where nobody was seen, said "None — well done.").

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
