// Opens a case of the conformance report into the lanes view of its
// stream: joins the lanes page's shell (#lanes-shell) and the case's data
// block (#lanes-data) into an <iframe srcdoc> on first opening. `#open=ID`
// opens a case on load. Marks <html data-error> on a script error and
// <body data-ready> when wired (read by the browser tests).
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
  if (show && !frame.hasAttribute("srcdoc")) frame.setAttribute("srcdoc", lanesPage(id));
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
