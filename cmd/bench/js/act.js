// Times n repetitions of one interaction, measured inside the page so that
// no DevTools round trip is counted. Each action runs in an animation
// frame's callbacks, where Chrome dispatches a drag's pointer events (and
// where a click lands at best): that frame draws what the action changed
// in it. For each: t0 just before the action (`at`, the page's clock);
// `handler` when the action returns (go-app's Go handler has run: a JS
// event listener resumes Go, which runs until every goroutine waits; the
// wasm's go-app renders then too, in the same task, unless its last render
// ended less than 1 ms before: patches/goapp/render-at-once.patch); `dom` when the observer
// hears of the first mutation under #playground; `frame` at the next
// animation frame; `painted` when the frame that drew the change has done
// its style, layout and paint: a task posted while that frame runs, which
// runs once it is done.
// A change made during the action is drawn by the action's own frame. One
// made later (a render on a timer, or after a frame) is drawn by the first
// frame after it, and painted is stamped from a task posted from that
// frame's callback, which is asked for before the action so that it runs
// ahead of the page's own after-paint work (the address bar, the panels
// that follow a change: web/dom/afterpaint.go); that work is not counted.
// kind "send" clicks #send; kind "preset:<slug>" picks a preset in #preset;
// "step" clicks Back and Next in turn; "scrub" moves the timeline back and
// forth between the middle step and the one before the latest, as a drag
// does (input events).
// settleFrames animation frames pass before each repetition.
async (kind, n, settleFrames, timeoutMs) => {
  const raf = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const afterFrame = () =>
    new Promise((r) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => r(performance.now());
      ch.port2.postMessage(0);
    });
  // A reference page (cmd/bench/floor.go) has no #playground.
  const root = document.getElementById("playground") || document.body;
  let act;
  if (kind === "send") {
    const send = document.getElementById("send");
    if (!send) throw new Error("no #send button");
    act = () => send.click();
  } else if (kind.startsWith("preset:")) {
    const sel = document.getElementById("preset");
    if (!sel) throw new Error("no #preset select");
    const slug = kind.slice("preset:".length);
    act = () => {
      sel.value = slug;
      sel.dispatchEvent(new Event("change", { bubbles: true }));
    };
  } else if (kind === "step") {
    let back = true;
    act = () => {
      document.getElementById(back ? "step-back" : "step-next").click();
      back = !back;
    };
  } else if (kind === "scrub") {
    const s = document.getElementById("scrubber");
    if (!s) throw new Error("no #scrubber");
    const last = Number(s.max), steps = [Math.max(1, Math.floor(last / 2)), Math.max(1, last - 1)];
    let i = 0;
    act = () => {
      s.value = String(steps[i++ % 2]);
      s.dispatchEvent(new Event("input", { bubbles: true }));
    };
  } else {
    throw new Error("unknown action " + kind);
  }
  const out = [];
  for (let i = 0; i < n; i++) {
    // At least one: the action must run inside a frame's callbacks.
    for (let f = 0; f < Math.max(1, settleFrames); f++) await raf();
    const r = await new Promise((resolve, reject) => {
      let t0 = 0, handler = 0;
      // The first frame after the action, and the task posted from it.
      const first = new Promise((r) => requestAnimationFrame(() => {
        const frame = performance.now();
        afterFrame().then((painted) => r({ frame, painted }));
      }));
      const timer = setTimeout(() => {
        mo.disconnect();
        reject(new Error(kind + " #" + (i + 1) + ": no DOM update within " + timeoutMs + " ms"));
      }, timeoutMs);
      let during = false; // the DOM changed while the action ran
      const mo = new MutationObserver(async () => {
        const dom = performance.now();
        mo.disconnect();
        clearTimeout(timer);
        // Still inside the action's frame: a task posted now runs when the
        // frame is done.
        const own = during ? afterFrame() : null;
        let { frame, painted } = await first;
        if (own) {
          painted = await own;
        } else if (frame < dom) { // the change came after that frame: time the next
          frame = await raf();
          painted = await afterFrame();
        }
        resolve({ at: t0, handler: handler - t0, dom: dom - t0, frame: frame - t0, painted: painted - t0 });
      });
      const watch = { subtree: true, childList: true, attributes: true, characterData: true };
      const probe = new MutationObserver(() => {}); // read, not called back
      mo.observe(root, watch);
      probe.observe(root, watch);
      t0 = performance.now();
      act();
      handler = performance.now();
      during = probe.takeRecords().length > 0;
      probe.disconnect();
    });
    out.push(r);
  }
  return out;
}
