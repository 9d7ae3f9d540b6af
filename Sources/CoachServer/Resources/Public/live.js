// live.js — one live set over the /live WebSocket (docs/live-protocol.md): sends the start message, pumps
// frames from a <video> element as JPEGs with the 12-byte header, and matches each answer to the picture it
// was computed from.

const MAX_FPS = 15;
const MAX_IN_FLIGHT = 2; // unanswered frames; the server keeps only the newest waiting one anyway
const MAX_WIDTH = 640;
const JPEG_QUALITY = 0.7;
const STALE_MS = 5000; // a frame unanswered this long is given up (so a lost answer cannot stall the pump)

export class LiveSession {
  /**
   * @param {HTMLVideoElement} video the frames' source (camera or sample video)
   * @param {object} on callbacks: ready(msg), frame(msg, image, stats), summary(msg), error(msg),
   *   status(stats), closed(event, wasExpected); a patient's set: watchers(msg), therapist(msg) (who watches, what
   *   the therapist sent: docs/live-protocol.md section 6), sent(id) when a frame is captured
   */
  constructor(video, on) {
    this.video = video;
    this.on = on;
    this.canvas = document.createElement("canvas");
    this.ctx = this.canvas.getContext("2d");
    this.inFlight = new Map(); // frame id -> {image: ImageBitmap, sentAt: ms}
    this.stats = { connection: "connecting", sent: 0, answered: 0, dropped: 0, lost: 0, latencyMs: null, serverMs: null };
    this.nextId = 1;
    this.ended = false;
    this.ready = false;
    this.capturing = false;
    this.lastSentAt = -Infinity;
    this.lastMediaTime = -1;
    this.paused = false; // the therapist paused the set: no frames until resumed
  }

  /** Stops sending frames (the set stays open) until `resume()`. */
  pause() { this.paused = true; }

  resume() { this.paused = false; }

  /** Opens the socket and starts the set with `start` (the protocol's start message). */
  open(start) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(`${scheme}//${location.host}/live`);
    this.ws.onopen = () => {
      this.t0 = performance.now(); // frame times are seconds since here
      this.ws.send(JSON.stringify(start));
      this.#status("starting");
    };
    this.ws.onmessage = (event) => this.#receive(event);
    this.ws.onclose = (event) => {
      this.#stopPump();
      this.#release();
      this.#status(this.finished ? "finished" : "closed");
      this.on.closed?.(event, this.finished === true);
    };
  }

  /** Ends the set: no more frames; the server answers with a summary. */
  end() {
    if (this.ended) return;
    this.ended = true;
    this.#stopPump();
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "end" }));
      this.#status("finishing");
    } else {
      this.finished = true; // ended before the set began: nothing to summarise
      this.ws?.close();
    }
  }

  /** Closes the socket (closing without `end` also finishes and saves the set on the server). */
  close() {
    this.ended = true;
    this.#stopPump();
    this.ws?.close(1000);
  }

  #receive(event) {
    if (typeof event.data !== "string") return;
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    switch (msg.type) {
      case "ready":
        this.ready = true;
        this.#status("live");
        this.on.ready?.(msg);
        if (!this.ended) this.timer = setInterval(() => this.#tick(), 1000 / (2 * MAX_FPS));
        break;
      case "frame":
        this.#answer(msg);
        break;
      case "summary":
        this.finished = true;
        this.on.summary?.(msg);
        this.ws.close(1000);
        break;
      case "error":
        this.on.error?.(msg);
        break;
      case "watchers":
        this.on.watchers?.(msg);
        break;
      case "therapist":
        this.on.therapist?.(msg);
        break;
    }
  }

  #answer(msg) {
    const entry = this.inFlight.get(msg.id);
    // Older frames still in flight were dropped by the server (latest frame wins): forget them.
    for (const [id, older] of this.inFlight) {
      if (id < msg.id) { older.image.close(); this.inFlight.delete(id); }
    }
    this.inFlight.delete(msg.id);
    const s = this.stats;
    s.answered++;
    if (Number.isFinite(msg.dropped)) s.dropped = msg.dropped;
    if (Number.isFinite(msg.serverMs)) s.serverMs = msg.serverMs;
    if (entry) s.latencyMs = performance.now() - entry.sentAt;
    this.on.frame?.(msg, entry?.image ?? null, s);
    entry?.image.close();
    this.#status();
    this.#tick(); // room for the next frame now
  }

  #tick() {
    if (!this.ready || this.ended || this.capturing || this.paused) return;
    const now = performance.now();
    for (const [id, e] of this.inFlight) {
      if (now - e.sentAt > STALE_MS) { e.image.close(); this.inFlight.delete(id); this.stats.lost++; }
    }
    const v = this.video;
    if (this.inFlight.size >= MAX_IN_FLIGHT || now - this.lastSentAt < 1000 / MAX_FPS - 4) return;
    // Only new pictures: a paused or stalled video would send the same one again.
    if (v.readyState < 2 || !v.videoWidth || v.currentTime === this.lastMediaTime) return;
    this.#capture(now).catch((err) => console.error("frame capture failed", err));
  }

  async #capture(now) {
    this.capturing = true;
    this.lastSentAt = now;
    const v = this.video;
    this.lastMediaTime = v.currentTime;
    const w = Math.min(MAX_WIDTH, v.videoWidth);
    const h = Math.round((v.videoHeight * w) / v.videoWidth);
    if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
    this.ctx.drawImage(v, 0, 0, w, h);
    const id = this.nextId++;
    const seconds = (now - this.t0) / 1000;
    this.on.sent?.(id);
    try {
      // Both take their copy of the canvas now, before it is drawn again.
      const [image, jpeg] = await Promise.all([
        createImageBitmap(this.canvas),
        new Promise((resolve) => this.canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY)),
      ]);
      if (!jpeg || this.ended || this.ws.readyState !== WebSocket.OPEN) { image.close(); return; }
      const header = new DataView(new ArrayBuffer(12));
      header.setUint32(0, id, false); // big-endian
      header.setFloat64(4, seconds, false);
      this.inFlight.set(id, { image, sentAt: performance.now() });
      this.ws.send(new Blob([header.buffer, jpeg]));
      this.stats.sent++;
    } finally {
      this.capturing = false;
    }
  }

  #stopPump() {
    clearInterval(this.timer);
    this.timer = 0;
  }

  #release() {
    for (const e of this.inFlight.values()) e.image.close();
    this.inFlight.clear();
  }

  #status(connection) {
    if (connection) this.stats.connection = connection;
    this.on.status?.(this.stats);
  }
}
