// touchfree.js — a body set without walking back to the laptop (as Action & Vision has no start button): the coach
// starts counting once the person is in position; the page says "paused" while they are out of the picture, and ends
// the set (saved, with the pain question) after both hands are held above the head for two seconds, or after a rest
// longer than the prescription's. The gesture is not offered when an exercise of the set raises the arms overhead.

const HOLD_SECONDS = 2; // both hands above the head this long ends the set
const AWAY_SECONDS = 1; // out of the picture this long shows "paused"
const MIN_CONFIDENCE = 0.3;

export class TouchFree {
  /**
   * @param {object} options `exercises` (the library), `ids` (the exercises of the set, or of the programme),
   *   `restSeconds` (the prescription's rest; `null` for none), `end()` to end the set, `say(text)`, `show(text)`
   */
  constructor({ exercises, ids, restSeconds, end, say, show }) {
    // Exercises whose own movement puts the hands above the head (a pull-up hangs from the bar; the library's
    // `handsOverhead`, from each definition): the gesture would end their sets by mistake.
    const overhead = ids.some((id) => exercises.find((e) => e.id === id)?.handsOverhead ?? true);
    this.gesture = !overhead && ids.length > 0;
    this.restSeconds = restSeconds;
    Object.assign(this, { end, say, show });
    this.raisedSince = null;
    this.awaySince = null;
    this.lastMoved = null;
    this.ended = false;
  }

  /** What the page says once at the start of the set, in words and voice. */
  get instructions() {
    const parts = ["Hands-free: the set starts when the coach sees you in position."];
    if (this.gesture) parts.push("To finish, raise both hands above your head and hold them there for two seconds.");
    if (this.restSeconds) parts.push(`It also finishes after a rest of more than ${Math.round(this.restSeconds)} seconds.`);
    return parts.join(" ");
  }

  /** Says how, once, in words (for the first seconds) and voice. */
  start() {
    this.show(this.instructions);
    this.say(this.instructions);
    this.intro = true;
  }

  /** One answered frame: `seconds` its capture time, `pose` its keypoints (or null), `reps` counted so far. */
  frame(seconds, pose, reps) {
    if (this.ended) return;
    if (this.intro && (seconds > 8 || reps > 0)) {
      this.intro = false;
      this.show(null);
    }
    if (this.lastMoved === null || reps !== this.reps) this.lastMoved = seconds;
    this.reps = reps;
    if (!pose) {
      this.awaySince ??= seconds;
      this.raisedSince = null;
      if (seconds - this.awaySince >= AWAY_SECONDS) this.show("Paused: step back into the picture to go on.");
    } else {
      if (this.awaySince !== null && !this.intro) this.show(null);
      this.awaySince = null;
      if (this.gesture && handsAboveHead(pose)) {
        this.raisedSince ??= seconds;
        const held = seconds - this.raisedSince;
        this.show(held >= HOLD_SECONDS ? null : `Hands up: finishing in ${Math.ceil(HOLD_SECONDS - held)} s…`);
        if (held >= HOLD_SECONDS) return this.finish("Set finished.");
      } else if (this.raisedSince !== null) {
        this.raisedSince = null;
        this.show(null);
      }
    }
    if (this.restSeconds && reps > 0 && seconds - this.lastMoved > this.restSeconds) {
      this.finish("Set finished after your rest.");
    }
  }

  finish(words) {
    this.ended = true;
    this.show(null);
    this.say(words);
    this.end();
  }
}

/** Both wrists seen above the top of the head (the nose, less the eyes-to-shoulders distance). */
export function handsAboveHead(pose) {
  const point = (name) => {
    const k = pose[name];
    return k && (k[2] ?? 1) >= MIN_CONFIDENCE ? k : null;
  };
  const nose = point("nose");
  const shoulders = [point("leftShoulder"), point("rightShoulder")].filter(Boolean);
  const wrists = [point("leftWrist"), point("rightWrist")];
  if (!nose || !shoulders.length || wrists.some((w) => !w)) return false;
  const shoulderY = shoulders.reduce((sum, s) => sum + s[1], 0) / shoulders.length;
  const headTop = nose[1] - Math.max(0, shoulderY - nose[1]) * 0.6;
  return wrists.every((w) => w[1] < headTop);
}
