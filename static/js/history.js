// A table's hand history (/tables/{id}/history): its hands, newest first, paged by cursor,
// filtered by date; each links to its replay. The table's ledger as CSV for its players.
import { api } from "./api.js";
import { $, fill, h } from "./dom.js";
import { filterTracker, handList } from "./hand-list.js";
import { download, showBanner } from "./review-api.js";
import { showWhoami } from "./signin.js";

const page = $("#history-page");
const tableId = page.dataset.tableId;
const invite = new URLSearchParams(location.search).get("invite");

async function start() {
  let me = null;
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  showWhoami(me);
  fill($("#downloads"), h("button", { type: "button", class: "btn btn-small btn-neutral", id: "btn-ledger",
    onclick: () => download(`/api/tables/${encodeURIComponent(tableId)}/ledger.csv`, `ledger-${tableId}.csv`)
      .catch((err) => showBanner(err.message)) }, "Ledger (CSV)"));
  const list = $("#hand-list");
  const filtered = filterTracker(list);
  await handList(list, {
    endpoint: `/api/tables/${encodeURIComponent(tableId)}/hands`,
    // a private table's history opened with its invite link: the list needs the invite too
    params: invite ? { invite } : {},
    games: [],
    resultKey: "your_net",
    resultLabel: "Your result",
    // read when a page comes back empty: with a date set, the filter left nothing
    get empty() {
      if (!me) return "Sign in (in the lobby) to see the hands.";
      return filtered() ? "No hands match the filter." : "No hands finished at this table yet.";
    },
  });
}

start();
