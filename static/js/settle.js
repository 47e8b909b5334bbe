// The settle-up page (/settle?table=… or /settle?player=…): who played in a span of time
// (tonight by default), each one's net (the ledger's: docs/review.md, "One truth"), what of it
// is apart from the payments (the house, bots, a pot: in words), and the fewest payments,
// person to person, that settle the rest, from GET /api/settle (docs/review.md, "Settling up"). The span goes to the server as local
// date-times with the browser's own time zone (tz), so "tonight" is the reader's night.
// The text to copy and the CSV are the server's: the page shows, copies and downloads them.
import { api } from "./api.js";
import { $, chips, fill, h } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { download, explain, getJson, netSpan, showBanner } from "./review-api.js";
import { showWhoami } from "./signin.js";

const page = $("#settle-page");
const tableId = page.dataset.tableId || null;
const around = page.dataset.around || null;
const roomId = page.dataset.roomId || null; // a room's evening: every table of the room
const form = $("#settle-form");
const VALUE_KEY = "t31_chip_value";

const zone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
})();

const state = {
  chosen: null, // null until the reader ticks a box: the server's default group
  last: null, // the last answer
  asked: 0, // the number of the last question, so an old answer never overwrites a newer one
};

/** "2026-11-24T12:00" in the browser's own zone, as a datetime-local input holds it. */
function localInput(iso) {
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function query() {
  const params = new URLSearchParams({ tz: zone });
  if (tableId) params.set("table_id", tableId);
  if (roomId) params.set("room", roomId);
  if (form.span.value === "custom") {
    if ($("#since").value) params.set("since", $("#since").value);
    // "to 02:16" includes that minute (the server's until is not included)
    const until = $("#until").value;
    if (until) params.set("until", until.length === 16 ? `${until}:59.999` : until);
  }
  if (state.chosen) for (const id of state.chosen) params.append("player", id);
  else if (around) params.set("around", around);
  const value = $("#chip-value").value.trim();
  if (value && Number(value) > 0) {
    params.set("chip_value", value);
    const currency = $("#currency").value.trim();
    if (currency) params.set("currency", currency);
  }
  return params;
}

function renderPlayers(data) {
  const box = $("#player-checks");
  if (!data.candidates.length) {
    fill(box, h("span", { class: "muted" }, t("Nobody played a hand in this span.")));
    return;
  }
  fill(box, data.candidates.map((c) =>
    h("label", { class: `player-check${c.bot ? " is-bot" : ""}` },
      h("input", { type: "checkbox", value: c.id, checked: c.chosen, onchange: onTick }),
      h("span", { class: "player-check-name" }, c.name),
      c.bot ? h("span", { class: "pill" }, t("bot")) : null,
      " ", netSpan(c.net))));
}

function onTick() {
  const chosen = [...$("#player-checks").querySelectorAll("input:checked")].map((i) => i.value);
  if (!chosen.length) {
    // nobody ticked: nothing to settle (no names would ask the server for everyone)
    state.asked++;
    state.last = null;
    fill($("#nets-table tbody"), h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("Tick the players who are settling."))));
    $("#apart-box").hidden = true;
    fill($("#payments"), h("li", { class: "payment payment-none muted" }, t("Nobody is settling.")));
    $("#settle-text").textContent = "";
    return;
  }
  state.chosen = chosen;
  refresh();
}

/** "2.25 €", "−3.30 €" (a real minus sign, as the chips have); the server's decimal ("2.25",
 *  its places kept) as the page's language writes it ("2,25" in Danish). */
function moneyOf(amount, data) {
  if (amount === null || amount === undefined) return "";
  const text = String(amount);
  const places = text.includes(".") ? text.length - text.indexOf(".") - 1 : 0;
  const number = Number(text);
  const written = Number.isFinite(number)
    ? formatNumber(Math.abs(number), { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: false })
    : text.replace(/^-/, "");
  return `${text.startsWith("-") ? "\u2212" : ""}${written}${data.currency ? ` ${data.currency}` : ""}`;
}

function renderNets(data) {
  const money = data.chip_value !== null;
  $("#nets-table").classList.toggle("no-money", !money);
  fill($("#nets-table tbody"), data.parties.length
    ? data.parties.map((p) => h("tr", {},
        h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(p.id)}` }, p.name),
          p.bot ? h("span", { class: "pill" }, t("bot")) : null),
        h("td", { class: "num" }, chips(p.hands)),
        h("td", { class: "num" }, netSpan(p.net)),
        h("td", { class: "num" }, p.settle === p.net ? "" : netSpan(p.settle)),
        h("td", { class: "num money-col" }, money ? `${p.net > 0 ? "+" : ""}${moneyOf(p.money, data)}` : "")))
    : h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("No hands in this span."))));
  // What no payment settles (the house, bots, a pot), in the server's words.
  const apart = data.apart_text || [];
  $("#apart-box").hidden = !apart.length;
  fill($("#apart"), apart.map((line) => h("li", {}, line)));
  $("#hands-count").textContent = tn("{n} hand", "{n} hands", data.hands);
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderPayments(data) {
  fill($("#payments"), data.payments.length
    ? data.payments.map((p) => h("li", { class: "payment" },
        h("span", { class: "payment-who" }, ...placed(t("{payer} pays {payee}"), {
          payer: h("strong", {}, capital(p.payer_name)), payee: h("strong", {}, p.payee_name) })),
        h("span", { class: "payment-amount" }, tn("{n} chip", "{n} chips", p.amount),
          p.money !== null && p.money !== undefined ? h("span", { class: "payment-money" }, ` (${moneyOf(p.money, data)})`) : null)))
    : h("li", { class: "payment payment-none muted" }, data.hands ? t("Nobody owes anything.") : t("No hands to settle.")));
  $("#settle-text").textContent = data.text;
}

/** A sentence's parts: its text, each {name} in it replaced by the node `nodes[name]` (a
 *  sentence with markup inside stays one message). */
function placed(text, nodes) {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
  });
}

async function refresh() {
  const number = ++state.asked;
  let data;
  try {
    data = await getJson(`/api/settle?${query()}`);
  } catch (err) {
    if (number !== state.asked) return;
    showBanner(explain(err, "settlement"), true);
    return;
  }
  if (number !== state.asked) return;
  $("#banner").hidden = true;
  state.last = data;
  if (form.span.value === "tonight") {
    $("#since").value = localInput(data.since);
    $("#until").value = localInput(data.until);
  }
  renderPlayers(data);
  renderNets(data);
  renderPayments(data);
  $("#settle-body").hidden = false;
}

/** Copy through the clipboard API, or (an insecure page, an older browser) a selection. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "copy-buffer", readonly: true, "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}

$("#copy-text").addEventListener("click", async () => {
  if (!state.last) return;
  const status = $("#copy-status");
  if (await copyText(state.last.text)) {
    status.textContent = t("Copied: paste it in your chat.");
  } else {
    $(".settle-text").open = true;
    status.textContent = t("Copying is blocked here: select the text below and copy it.");

  }
});

$("#download-csv").addEventListener("click", () => {
  if (!state.last) return;
  const day = localInput(state.last.since).slice(0, 10);
  download(`/api/settle.csv?${query()}`, `settle-up-${day}.csv`).catch((err) => showBanner(err.message));
});

let timer = null;
function soon() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 300);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  refresh();
});
for (const radio of form.querySelectorAll("input[name=span]")) radio.addEventListener("change", refresh);
for (const input of [$("#since"), $("#until")]) {
  input.addEventListener("change", () => {
    form.span.value = "custom";
    refresh();
  });
}
for (const input of [$("#chip-value"), $("#currency")]) {
  input.addEventListener("input", () => {
    try {
      localStorage.setItem(VALUE_KEY, JSON.stringify({ value: $("#chip-value").value, currency: $("#currency").value }));
    } catch {
      // private mode: the value is not remembered
    }
    soon();
  });
}

async function start() {
  try {
    showWhoami(await api.me());
  } catch {
    showWhoami(null);
  }
  try {
    const saved = JSON.parse(localStorage.getItem(VALUE_KEY) || "null");
    if (saved) {
      $("#chip-value").value = saved.value || "";
      $("#currency").value = saved.currency || "";
    }
  } catch {
    // nothing remembered
  }
  await refresh();
}

start();
