// The player page (/players/{id}): the bankroll chart (SVG drawn by the server), hands played,
// net result per game, biggest win and loss, the sessions (sat down, buy-in, left, cash-out,
// net) and the hands, newest first; on the player's own page, their signed-in devices.
import { api } from "./api.js";
import { DevicesPanel } from "./devices.js";
import { $, chips, fill, h } from "./dom.js";
import { filterTracker, handList } from "./hand-list.js";
import { GAME_TITLES, download, explain, getJson, getText, netSpan, showBanner, when } from "./review-api.js";
import { showWhoami } from "./signin.js";

const page = $("#player-page");
const playerId = page.dataset.playerId;

function figure(label, value, extra = null) {
  return h("div", { class: "figure" }, h("span", { class: "figure-label" }, label), h("span", { class: "figure-value" }, value), extra);
}

function handLink(hand) {
  if (!hand) return h("span", { class: "muted" }, "–");
  return h("span", {}, netSpan(hand.net), " ",
    h("a", { href: `/hands/${encodeURIComponent(hand.hand_id)}`, class: "small" }, `${GAME_TITLES[hand.game] || hand.game}, ${when(hand.ended_at)}`));
}

async function renderChart() {
  const holder = $("#chart");
  try {
    const svg = await getText(`/api/players/${encodeURIComponent(playerId)}/chart.svg`);
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    const img = h("img", { src: url, alt: "The player's bankroll plus chips at tables, over time", id: "chart-img", width: 720, height: 260 });
    holder.prepend(img);
  } catch (err) {
    holder.prepend(h("p", { class: "muted" }, explain(err, "chart")));
  }
}

function renderFigures(data) {
  fill($("#figures"),
    figure("Hands played", chips(data.hands)),
    figure("Net result", netSpan(data.net)),
    figure("Biggest win", handLink(data.biggest_win)),
    figure("Biggest loss", handLink(data.biggest_loss)));
  const body = $("#games-table tbody");
  fill(body, data.games.length
    ? data.games.map((g) => h("tr", {},
        h("td", {}, GAME_TITLES[g.game] || g.game), h("td", { class: "num" }, chips(g.hands)),
        h("td", { class: "num" }, netSpan(g.net)), h("td", { class: "num" }, g.biggest_win ? netSpan(g.biggest_win) : "–"),
        h("td", { class: "num" }, g.biggest_loss ? netSpan(g.biggest_loss) : "–")))
    : h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No hands played yet.")));
}

function renderSessions(data) {
  const body = $("#sessions-table tbody");
  fill(body, data.sessions.length
    ? data.sessions.map((s) => h("tr", {},
        h("td", {}, h("a", { href: `/tables/${encodeURIComponent(s.table_id)}/history` }, s.table),
          h("span", { class: "muted small" }, ` ${GAME_TITLES[s.game] || s.game}`)),
        h("td", {}, when(s.sat_down)),
        h("td", {}, s.status === "playing" ? h("span", { class: "pill pill-playing" }, "playing") : when(s.left)),
        h("td", { class: "num" }, chips(s.buy_in)),
        h("td", { class: "num" }, chips(s.buy_out)),
        h("td", { class: "num" }, s.status === "playing" ? chips(s.stack) : "–"),
        h("td", { class: "num" }, netSpan(s.net)),
        h("td", {}, h("button", { type: "button", class: "btn btn-chip btn-quiet", title: "The table's ledger as CSV",
          onclick: () => download(`/api/tables/${encodeURIComponent(s.table_id)}/ledger.csv`, `ledger-${s.table_id}.csv`)
            .catch((err) => showBanner(err.message)) }, "CSV"))))
    : h("tr", {}, h("td", { colspan: 8, class: "muted" }, "No sessions yet.")));
}

async function start() {
  let me = null;
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  showWhoami(me);
  let data;
  try {
    data = await getJson(`/api/players/${encodeURIComponent(playerId)}`);
  } catch (err) {
    showBanner(explain(err, "player page"), true);
    return;
  }
  $("#player-name").textContent = data.name;
  document.title = `${data.name} · Table 31`;
  $("#bankroll-now").textContent = `bankroll ${chips(data.bankroll)} chips`;
  // The chart's line ends at the bankroll plus the chips at tables, not the bankroll alone.
  const last = data.chart && typeof data.chart.last === "number" ? data.chart.last : null;
  $("#chart-now").textContent = last === null ? "" : `: now ${chips(last)} chips`;
  $("#player-body").hidden = false;
  renderFigures(data);
  renderSessions(data);
  if (me && me.player_id === playerId) {
    await new DevicesPanel(me).load();
    fill($("#downloads"), h("button", { type: "button", class: "btn btn-small btn-neutral", id: "btn-jsonl",
      onclick: () => download(`/api/players/${encodeURIComponent(playerId)}/hands.jsonl`, `hands-${playerId}.jsonl`)
        .catch((err) => showBanner(err.message)) }, "All my hands (JSON lines)"));
  }
  await renderChart();
  const games = data.games.map((g) => g.game);
  const list = $("#hand-list");
  const filtered = filterTracker(list);
  await handList(list, {
    endpoint: `/api/players/${encodeURIComponent(playerId)}/hands`,
    games,
    resultKey: "player_net",
    resultLabel: me && me.player_id === playerId ? "Your result" : `${data.name}'s result`,
    // read when a page comes back empty: with a game or a date set, the filter left nothing
    get empty() {
      return filtered() ? "No hands match the filter." : "No hands played yet.";
    },
  });
}

start();
