// The host's page (static/js/admin.js): the open tables, each with its link, its seats (a
// person or a bot to remove), pause or resume, a bot to add, and a close confirmed with a reason.
// A refresh keeps what the host is typing in a reason. Each button goes through the page's
// `act` (disable, run, say what went wrong, redraw from the server).
import { $, chips, fill, h, toast } from "./dom.js";
import { seatedWords } from "./seated-words.js";

const enc = encodeURIComponent;

function copyButton(text, label) {
  const button = h("button", { type: "button", class: "btn btn-small" }, "Copy");
  button.setAttribute("aria-label", label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast("Link copied.", "info");
    } catch {
      toast("Select the link and copy it.", "warn");
    }
  });
  return button;
}

/** A "bot" tag, unless the bot's name already says so ("Ada (bot)"). */
export function botTag(p) {
  return p.bot && !/\(bot\)\s*$/i.test(p.name) ? h("span", { class: "tag tag-bot" }, "bot") : null;
}

function seatItem(t, s, { host, act }) {
  const remove = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { seat: s.seat }, disabled: s.leaving || null }, "Remove");
  remove.setAttribute("aria-label", `${s.bot ? "Remove the bot" : "Remove"} ${s.name} from seat ${s.seat}`);
  remove.addEventListener("click", () => act(remove, async () => {
    if (s.bot) {
      await host.removeBot(t.table_id, s.seat);
      toast(`The bot in seat ${s.seat} stands up at the next moment the rules allow.`, "info");
    } else {
      const r = await host.removeSeat(t.table_id, s.seat);
      toast(r.removed
        ? `${s.name} stood up; their stack went back to their bankroll.`
        : `${s.name} stands up at the end of this hand; their stack then goes back to their bankroll.`, "info");
    }
  }));
  return h("li", { class: "admin-seat", dataset: { seat: s.seat } },
    h("span", { class: "seat-no" }, `Seat ${s.seat}`),
    h("span", { class: "admin-seat-name" }, s.name),
    botTag(s),
    s.leaving ? h("span", { class: "tag tag-leaving", title: "stands up at the next moment the rules allow" }, "leaving") : null,
    remove);
}

function tableCard(t, ctx) {
  const { state, host, act } = ctx;
  const paused = t.status === "paused";
  const path = t.invite_path || `/tables/${enc(t.table_id)}`;
  const link = new URL(path, location.origin).href;
  const seats = Array.isArray(t.seats) ? t.seats : [];
  const state_ = paused ? "Paused" : t.in_hand ? "Playing" : "Waiting";

  const head = h("div", { class: "admin-table-head" },
    h("span", { class: "table-item-game" }, t.game_title || t.game),
    h("a", { class: "admin-table-name", href: path, target: "_blank", rel: "noopener" }, t.name),
    h("span", { class: `pill pill-${state_.toLowerCase()}` }, state_),
    t.private ? h("span", { class: "pill pill-private" }, "Private") : null,
    h("span", { class: "muted small" },
      `${seatedWords(t)} · ${chips(t.spectators || 0)} watching · ${chips(t.hands_played || 0)} ${t.hands_played === 1 ? "hand" : "hands"}`));

  const pauseNote = paused
    ? h("p", { class: "admin-paused" }, h("strong", {}, "Paused"), t.pause_reason ? ` — ${t.pause_reason}` : " (no reason given)")
    : null;

  const linkInput = h("input", { class: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
  linkInput.setAttribute("aria-label", t.private ? `Invite link of ${t.name}` : `Link of ${t.name}`);
  const linkRow = h("div", { class: "admin-link" },
    h("span", { class: "small muted" }, t.private ? "Invite link (the only way in):" : "Link:"),
    h("div", { class: "invite-row" }, linkInput, copyButton(link, `Copy the link of ${t.name}`)));

  const seatList = seats.length
    ? h("ul", { class: "admin-seats" }, seats.map((s) => seatItem(t, s, ctx)))
    : h("p", { class: "muted small" }, "Nobody seated.");

  // Pause (with a reason) or resume; add a bot; close (confirmed, with a reason).
  const controls = h("div", { class: "admin-table-controls" });
  if (paused) {
    const resume = h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "resume" } }, "Resume");
    resume.addEventListener("click", () => act(resume, async () => {
      await host.resume(t.table_id);
      toast(`${t.name} is playing again.`, "info");
    }));
    controls.append(resume);
  } else {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: "Reason (players see it)", autocomplete: "off" });
    reason.setAttribute("aria-label", `Why you pause ${t.name}`);
    const pause = h("button", { type: "submit", class: "btn btn-small", dataset: { act: "pause" } }, "Pause");
    const form = h("form", { class: "admin-inline-form", novalidate: true }, reason, pause);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(pause, async () => {
        await host.pause(t.table_id, reason.value.trim());
        toast(`${t.name} is paused.`, "info");
      });
    });
    controls.append(form);
  }
  const bot = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { act: "bot" } }, "Add a bot");
  bot.addEventListener("click", () => act(bot, async () => {
    const r = await host.addBot(t.table_id);
    toast(`A bot sat down in seat ${r.seat}.`, "info");
  }));
  controls.append(bot);

  let closeBox;
  if (state.closing.has(t.table_id)) {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: "The host closed this table", autocomplete: "off" });
    reason.setAttribute("aria-label", `Why you close ${t.name}`);
    const confirm = h("button", { type: "submit", class: "btn btn-small btn-danger", dataset: { act: "close-confirm" } }, "Close for good");
    const cancel = h("button", { type: "button", class: "btn btn-small btn-quiet" }, "Cancel");
    cancel.addEventListener("click", () => {
      state.closing.delete(t.table_id);
      renderTables(ctx);
    });
    closeBox = h("form", { class: "admin-close", novalidate: true },
      h("p", { class: "small" }, "Closing voids the hand in play and sends every stack back to its bankroll. It cannot be undone."),
      reason, h("div", { class: "admin-buttons" }, confirm, cancel));
    closeBox.addEventListener("submit", (event) => {
      event.preventDefault();
      act(confirm, async () => {
        await host.close(t.table_id, reason.value.trim());
        state.closing.delete(t.table_id);
        toast(`${t.name} is closed.`, "info");
      });
    });
  } else {
    const close = h("button", { type: "button", class: "btn btn-small btn-quiet btn-danger-quiet", dataset: { act: "close" } }, "Close…");
    close.addEventListener("click", () => {
      state.closing.add(t.table_id);
      renderTables(ctx);
      document.querySelector(`[data-table-id="${CSS.escape(t.table_id)}"] .admin-close input`)?.focus();
    });
    controls.append(close);
  }

  return h("li", { class: `admin-table-card${paused ? " is-paused" : ""}`, dataset: { tableId: t.table_id } },
    head, pauseNote, linkRow, seatList, controls, closeBox);
}

/** The open tables, each a card (`ctx`: {state, host, act} of the admin page). */
export function renderTables(ctx) {
  const { state } = ctx;
  // Keep what the host is typing in a pause or close reason across a refresh.
  const typed = new Map();
  for (const input of document.querySelectorAll("#admin-tables .admin-reason")) {
    const card = input.closest("[data-table-id]");
    if (card && input.value) typed.set(`${card.dataset.tableId}|${input.closest(".admin-close") ? "close" : "pause"}`, input.value);
  }
  const focused = document.activeElement?.closest?.("#admin-tables [data-table-id]");
  const focusKey = focused && document.activeElement.classList.contains("admin-reason")
    ? `${focused.dataset.tableId}|${document.activeElement.closest(".admin-close") ? "close" : "pause"}` : null;

  const n = state.tables.length;
  $("#tables-count").textContent = `${n} open`;
  if (!n) {
    fill($("#admin-tables"), h("p", { class: "muted" }, "No table is open."));
    return;
  }
  fill($("#admin-tables"), h("ul", { class: "admin-table-list" }, state.tables.map((table) => tableCard(table, ctx))));
  for (const input of document.querySelectorAll("#admin-tables .admin-reason")) {
    const card = input.closest("[data-table-id]");
    const key = `${card.dataset.tableId}|${input.closest(".admin-close") ? "close" : "pause"}`;
    if (typed.has(key)) input.value = typed.get(key);
    if (key === focusKey) input.focus();
  }
}
