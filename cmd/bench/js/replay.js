// Replays a sample in the Replay panel of the page as opened: picks it in
// #replay-sample, waits until #replay-source names it (source, a part of
// its text), presses #replay-run and waits for the new result. Returns what
// the panel measured: elapsedMs, the replay from the press to the result,
// and longestSliceMs, the longest the replay held the page's thread. A
// figure the result does not carry is an error, never a zero.
async (sample, source, timeoutMs) => {
  const deadline = performance.now() + timeoutMs;
  const until = async (what, ok) => {
    while (!ok()) {
      if (performance.now() > deadline) throw new Error(what + ": not within " + timeoutMs + " ms");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const el = (id) => {
    const e = document.getElementById(id);
    if (!e) throw new Error("no #" + id);
    return e;
  };
  const pick = el("replay-sample");
  pick.value = sample;
  pick.dispatchEvent(new Event("change", { bubbles: true }));
  await until("the sample " + sample + " as the log", () => el("replay-source").textContent.includes(source));
  const last = el("replay-result").dataset.run;
  el("replay-run").click();
  await until("the replay's result", () => {
    const d = el("replay-result").dataset;
    return d.done === "true" && d.run !== last;
  });
  const d = el("replay-result").dataset;
  const out = { elapsedMs: Number(d.elapsedMs), longestSliceMs: Number(d.longestSliceMs) };
  for (const [k, v] of Object.entries(out)) {
    if (!Number.isFinite(v)) throw new Error("the result's " + k + " is " + JSON.stringify(d[k]) + ", not a number");
  }
  return out;
}
