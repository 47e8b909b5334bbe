// The player page (/players/{id}): the bankroll chart (SVG drawn by the server), hands played,
// net result per game, biggest win and loss, the sessions (sat down, buy-in, left, cash-out,
// net) and the hands, newest first; on the player's own page, their signed-in devices.
import { api } from "./api.js";
import { DevicesPanel } from "./devices.js";
import { $, chips, fill, h } from "./dom.js";
import { filterTracker, handList } from "./hand-list.js";
import { t } from "./i18n.js";
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
    h("a", { href: `/hands/${encodeURIComponent(hand.hand_id)}`, class: "small" },
      t("{game}, {when}", { game: GAME_TITLES[hand.game] || hand.game, when: when(hand.ended_at) })));
}

async function renderChart() {
  const holder = $("#chart");
  try {
    const svg = await getText(`/api/players/${encodeURIComponent(playerId)}/chart.svg`);
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    const img = h("img", { src: url, alt: t("The player's bankroll plus chips at tables, over time"), id: "chart-img", width: 720, height: 260 });
    holder.prepend(img);
  } catch (err) {
    holder.prepend(h("p", { class: "muted" }, explain(err, "chart")));
  }
}

function renderFigures(data) {
  fill($("#figures"),
    figure(t("Hands played"), chips(data.hands)),
    figure(t("Net result"), netSpan(data.net)),
    figure(t("Biggest win"), handLink(data.biggest_win)),
    figure(t("Biggest loss"), handLink(data.biggest_loss)));
  const body = $("#games-table tbody");
  fill(body, data.games.length
    ? data.games.map((g) => h("tr", {},
        h("td", {}, GAME_TITLES[g.game] || g.game), h("td", { class: "num" }, chips(g.hands)),
        h("td", { class: "num" }, netSpan(g.net)), h("td", { class: "num" }, g.biggest_win ? netSpan(g.biggest_win) : "–"),
        h("td", { class: "num" }, g.biggest_loss ? netSpan(g.biggest_loss) : "–")))
    : h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("No hands played yet."))));
}

function renderSessions(data) {
  const body = $("#sessions-table tbody");
  fill(body, data.sessions.length
    ? data.sessions.map((s) => h("tr", {},
        h("td", {}, h("a", { href: `/tables/${encodeURIComponent(s.table_id)}/history` }, s.table),
          h("span", { class: "muted small" }, ` ${GAME_TITLES[s.game] || s.game}`)),
        h("td", {}, when(s.sat_down)),
        h("td", {}, s.status === "playing" ? h("span", { class: "pill pill-playing" }, t("playing")) : when(s.left)),
        h("td", { class: "num" }, chips(s.buy_in)),
        h("td", { class: "num" }, chips(s.buy_out)),
        h("td", { class: "num" }, s.status === "playing" ? chips(s.stack) : "–"),
        h("td", { class: "num" }, netSpan(s.net)),
        h("td", {}, h("button", { type: "button", class: "btn btn-chip btn-quiet", title: t("The table's ledger as CSV"),
          onclick: () => download(`/api/tables/${encodeURIComponent(s.table_id)}/ledger.csv`, `ledger-${s.table_id}.csv`)
            .catch((err) => showBanner(err.message)) }, t("CSV")))))
    : h("tr", {}, h("td", { colspan: 8, class: "muted" }, t("No sessions yet."))));
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
  document.title = t("{name} · Table 31", { name: data.name });
  $("#bankroll-now").textContent = t("bankroll {chips} chips", { chips: chips(data.bankroll) });
  // The chart's line ends at the bankroll plus the chips at tables, not the bankroll alone.
  const last = data.chart && typeof data.chart.last === "number" ? data.chart.last : null;
  $("#chart-now").textContent = last === null ? "" : t(": now {chips} chips", { chips: chips(last) });
  $("#player-body").hidden = false;
  renderFigures(data);
  renderSessions(data);
  if (me && me.player_id === playerId) {
    await new DevicesPanel(me).load();
    fill($("#downloads"), h("button", { type: "button", class: "btn btn-small btn-neutral", id: "btn-jsonl",
      onclick: () => download(`/api/players/${encodeURIComponent(playerId)}/hands.jsonl`, `hands-${playerId}.jsonl`)
        .catch((err) => showBanner(err.message)) }, t("All my hands (JSON lines)")));
  }
  await renderChart();
  const games = data.games.map((g) => g.game);
  const list = $("#hand-list");
  const filtered = filterTracker(list);
  await handList(list, {
    endpoint: `/api/players/${encodeURIComponent(playerId)}/hands`,
    games,
    resultKey: "player_net",
    resultLabel: me && me.player_id === playerId ? t("Your result") : t("{name}'s result", { name: data.name }),
    // read when a page comes back empty: with a game or a date set, the filter left nothing
    get empty() {
      return filtered() ? t("No hands match the filter.") : t("No hands played yet.");

    },
  });
}

start();
