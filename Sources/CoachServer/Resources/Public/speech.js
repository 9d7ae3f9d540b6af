// speech.js — says the coach's cues one at a time. At most one cue waits; a newer cue replaces the waiting
// one unless that one is more important, and a safety cue cuts off anything less important being said.

const RANK = { safety: 0, timing: 1, setup: 2, form: 3, encouragement: 4 };
const rank = (kind) => RANK[kind] ?? 3;

export class Speaker {
  constructor() {
    this.synth = window.speechSynthesis ?? null;
    this.muted = false;
    this.current = null; // {text, kind, utterance}
    this.pending = null; // {text, kind}
    this.watchdog = 0;
  }

  setMuted(muted) {
    this.muted = muted;
    if (muted) {
      this.pending = null;
      this.current = null;
      clearTimeout(this.watchdog);
      this.synth?.cancel();
    }
  }

  say(text, kind) {
    if (!this.synth || this.muted || !text) return;
    const cue = { text, kind };
    if (!this.current) return this.#speak(cue);
    if (kind === "safety" && rank(this.current.kind) > 0) {
      // Cut off a less important cue for a safety one.
      this.pending = null;
      this.current = null;
      this.synth.cancel();
      return this.#speak(cue);
    }
    if (!this.pending || rank(kind) <= rank(this.pending.kind)) this.pending = cue;
  }

  /** Drops the waiting cue when it is of one of `kinds` (a form cue or praise about a repetition withdrawn or
   * renumbered: no longer true). What is being said goes on. */
  withdraw(kinds) {
    if (this.pending && kinds.includes(this.pending.kind)) this.pending = null;
  }

  #speak(cue) {
    const utterance = new SpeechSynthesisUtterance(cue.text);
    utterance.rate = 1.05;
    this.current = { ...cue, utterance };
    const done = () => {
      if (this.current?.utterance !== utterance) return; // an old utterance, cancelled
      clearTimeout(this.watchdog);
      this.current = null;
      const next = this.pending;
      this.pending = null;
      if (next) this.#speak(next);
    };
    utterance.onend = done;
    utterance.onerror = done;
    // Some engines (headless, no voices) never report the end: give up waiting after a generous time.
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(done, 1500 + cue.text.length * 90);
    this.synth.speak(utterance);
  }
}
