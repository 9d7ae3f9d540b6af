// watched.js — the coaching page's side of a therapist watching the set (docs/live-watch.md): who watches, and
// what the therapist sends — a message shown and said, pause and resume (no frames meanwhile), end (the server has
// ended the set; its summary follows). The page never sends a picture to the therapist: the server passes on only
// the skeleton and the numbers it computed.

const $ = (id) => document.getElementById(id);

/**
 * The LiveSession callbacks for a watched set.
 * @param {object} o `session()` the running LiveSession, `say(text)`, `video` the frames' source, `sample` whether
 *   it is a sample video (paused with the set), `hook` the page's test hook
 */
export function watchCallbacks({ session, say, video, sample, hook }) {
  const watched = $("watched"), message = $("therapist-message");
  Object.assign(hook, { watchers: [], therapist: [], sentAt: {} });
  const show = (el, text) => { el.textContent = text ?? ""; el.hidden = !text; };
  show(watched, "");
  show(message, "");
  return {
    watchers(msg) {
      hook.watchers = msg.watchers ?? [];
      const names = hook.watchers;
      show(watched, names.length ? `👁 ${names.join(" and ")} ${names.length === 1 ? "is" : "are"} watching this set (your skeleton and numbers, never the video)` : "");
    },
    therapist(msg) {
      hook.therapist.push(msg);
      const from = msg.from || "Your therapist";
      if (msg.command === "message") {
        show(message, `${from}: ${msg.text}`);
        say(`${from} says: ${msg.text}`);
      } else if (msg.command === "pause") {
        session()?.pause();
        if (sample) video.pause();
        show(message, `${from} paused the set. Rest until they resume it.`);
        say("Your therapist paused the set");
      } else if (msg.command === "resume") {
        session()?.resume();
        if (sample) video.play().catch(() => {});
        show(message, `${from} resumed the set.`);
        say("Go on");
      } else if (msg.command === "end") {
        show(message, `${from} ended the set.`);
        say("Your therapist ended the set");
      }
    },
    // Capture times by frame id, for scripts/watch-delay.py (the last 3000 frames).
    sent(id) {
      hook.sentAt[id] = Date.now();
      delete hook.sentAt[id - 3000];
    },
  };
}
