// Opens a case of the conformance report into the lanes view of its
// stream: joins the lanes page's shell (#lanes-shell) and the case's data
// block (#lanes-data) into an <iframe> on first opening. `#open=ID`
// opens a case on load. Marks <html data-error> on a script error and
// <body data-ready> when wired; copies an opened frame's first draw
// (<body data-lanes-first-draw-ms>, from this page's navigation start),
// its pins (data-lanes-pins) and script error (data-lanes-error) up here (read by the browser tests and
// scripts/report-100k.sh, since --dump-dom shows no frame's DOM).
"use strict";
window.addEventListener("error", (e) => document.documentElement.setAttribute("data-error", String(e.message)));

const SHELL = JSON.parse(document.getElementById("lanes-shell").textContent);
const DATA = JSON.parse(document.getElementById("lanes-data").textContent);

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** The whole lanes page of case `id`. The data is script-safe JSON, so it
 * goes in as it is; the title is escaped. */
function lanesPage(id) {
  const title = escapeHtml(id);
  return SHELL.head.split(SHELL.slot).join(title) + DATA[id] + SHELL.tail;
}

function rowOf(id) {
  return [...document.querySelectorAll("tr.lanes-row")].find((r) => r.dataset.for === id);
}

function toggle(button, open) {
  const id = button.dataset.case, row = rowOf(id);
  if (!row || !(id in DATA)) return;
  const show = open === undefined ? row.hidden : open;
  row.hidden = !show;
  button.setAttribute("aria-expanded", String(show));
  button.textContent = show ? "▾" : "▸";
  const frame = row.querySelector("iframe");
  if (show && !frame.dataset.filled) {
    // Written into the frame's own about:blank document, not set as
    // srcdoc: Chromium parsed a 12 MB srcdoc 2–3× slower (issue 18's
    // 100,000-event measurement, scripts/report-100k.sh).
    frame.dataset.filled = "true";
    const doc = frame.contentDocument;
    doc.open();
    doc.write(lanesPage(id));
    doc.close();
    report(frame);
  }
}

/** Copies what the lanes page in `frame` marked onto this page's body. */
function report(frame) {
  const doc = frame.contentDocument;
  if (!doc || !doc.body) return;
  const error = doc.documentElement.getAttribute("data-error");
  if (error !== null) document.body.dataset.lanesError = error;
  // The pins drawn (expected and answered indexes), for the browser tests.
  const pins = [...doc.querySelectorAll("[data-pin]")].map((p) => `${p.dataset.pin}@${p.dataset.index}: ${p.textContent}`);
  if (pins.length) document.body.dataset.lanesPins = pins.join(" | ");
  const drawn = parseFloat(doc.body.dataset.firstDrawMs);
  if (!Number.isNaN(drawn)) {
    const since = frame.contentWindow.performance.timeOrigin + drawn - performance.timeOrigin;
    document.body.dataset.lanesFirstDrawMs = since.toFixed(1);
  }
}

for (const b of document.querySelectorAll("button.open")) b.addEventListener("click", () => toggle(b));

const wanted = /open=([^&]*)/.exec(location.hash);
if (wanted) {
  const id = decodeURIComponent(wanted[1]);
  const b = [...document.querySelectorAll("button.open")].find((x) => x.dataset.case === id);
  if (b) {
    b.closest("details").open = true;
    toggle(b, true);
    b.scrollIntoView({ block: "start" });
  }
}
document.body.dataset.openable = String(Object.keys(DATA).length);
document.body.dataset.ready = "true";
