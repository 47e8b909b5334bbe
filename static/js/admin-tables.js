// The host's page (static/js/admin.js): the open tables, each with its link, its seats (a
// person or a bot to remove), pause or resume, a bot to add, and a close confirmed with a reason.
// A refresh keeps what the host is typing in a reason. Each button goes through the page's
// `act` (disable, run, say what went wrong, redraw from the server).
import { $, fill, h, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { seatedWords } from "./seated-words.js";

const enc = encodeURIComponent;

function copyButton(text, label) {
  const button = h("button", { type: "button", class: "btn btn-small" }, t("Copy"));
  button.setAttribute("aria-label", label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast(t("Link copied."), "info");
    } catch {
      toast(t("Select the link and copy it."), "warn");
    }
  });
  return button;
}

/** A "bot" tag, unless the bot's name already says so ("Ada (bot)"). */
export function botTag(p) {
  return p.bot && !/\(bot\)\s*$/i.test(p.name) ? h("span", { class: "tag tag-bot" }, t("bot")) : null;
}

function seatItem(table, s, { host, act }) {
  const remove = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { seat: s.seat }, disabled: s.leaving || null }, t("Remove"));
  remove.setAttribute("aria-label", s.bot
    ? t("Remove the bot {name} from seat {seat}", { name: s.name, seat: s.seat })
    : t("Remove {name} from seat {seat}", { name: s.name, seat: s.seat }));
  remove.addEventListener("click", () => act(remove, async () => {
    if (s.bot) {
      await host.removeBot(table.table_id, s.seat);
      toast(t("The bot in seat {seat} stands up at the next moment the rules allow.", { seat: s.seat }), "info");
    } else {
      const r = await host.removeSeat(table.table_id, s.seat);
      toast(r.removed
        ? t("{name} stood up; their stack went back to their bankroll.", { name: s.name })
        : t("{name} stands up at the end of this hand; their stack then goes back to their bankroll.", { name: s.name }), "info");
    }
  }));
  return h("li", { class: "admin-seat", dataset: { seat: s.seat } },
    h("span", { class: "seat-no" }, t("Seat {seat}", { seat: s.seat })),
    h("span", { class: "admin-seat-name" }, s.name),
    botTag(s),
    s.leaving ? h("span", { class: "tag tag-leaving", title: t("stands up at the next moment the rules allow") }, t("leaving")) : null,
    remove);
}

function tableCard(table, ctx) {
  const { state, host, act } = ctx;
  const paused = table.status === "paused";
  const path = table.invite_path || `/tables/${enc(table.table_id)}`;
  const link = new URL(path, location.origin).href;
  const seats = Array.isArray(table.seats) ? table.seats : [];
  const state_ = paused ? "paused" : table.in_hand ? "playing" : "waiting";
  const STATE_WORDS = { paused: t("Paused"), playing: t("Playing"), waiting: t("Waiting") };

  const head = h("div", { class: "admin-table-head" },
    h("span", { class: "table-item-game" }, table.game_title || table.game),
    h("a", { class: "admin-table-name", href: path, target: "_blank", rel: "noopener" }, table.name),
    h("span", { class: `pill pill-${state_}` }, STATE_WORDS[state_]),
    table.private ? h("span", { class: "pill pill-private" }, t("Private")) : null,
    h("span", { class: "muted small" }, [
      seatedWords(table),
      tn("{n} watching", "{n} watching", table.spectators || 0),
      tn("{n} hand", "{n} hands", table.hands_played || 0),
    ].join(" · ")));

  const pauseNote = paused
    ? h("p", { class: "admin-paused" }, h("strong", {}, t("Paused")),
        table.pause_reason ? [" — ", h("span", { class: "admin-pause-reason" }, table.pause_reason)] : [" ", t("(no reason given)")])
    : null;

  const linkInput = h("input", { class: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
  linkInput.setAttribute("aria-label", table.private
    ? t("Invite link of {name}", { name: table.name }) : t("Link of {name}", { name: table.name }));
  const linkRow = h("div", { class: "admin-link" },
    h("span", { class: "small muted" }, table.private ? t("Invite link (the only way in):") : t("Link:")),
    h("div", { class: "invite-row" }, linkInput, copyButton(link, t("Copy the link of {name}", { name: table.name }))));

  const seatList = seats.length
    ? h("ul", { class: "admin-seats" }, seats.map((s) => seatItem(table, s, ctx)))
    : h("p", { class: "muted small" }, t("Nobody seated."));

  // Pause (with a reason) or resume; add a bot; close (confirmed, with a reason).
  const controls = h("div", { class: "admin-table-controls" });
  if (paused) {
    const resume = h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "resume" } }, t("Resume"));
    resume.addEventListener("click", () => act(resume, async () => {
      await host.resume(table.table_id);
      toast(t("{name} is playing again.", { name: table.name }), "info");
    }));
    controls.append(resume);
  } else {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: t("Reason (players see it)"), autocomplete: "off" });
    reason.setAttribute("aria-label", t("Why you pause {name}", { name: table.name }));
    const pause = h("button", { type: "submit", class: "btn btn-small", dataset: { act: "pause" } }, t("Pause"));
    const form = h("form", { class: "admin-inline-form", novalidate: true }, reason, pause);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(pause, async () => {
        await host.pause(table.table_id, reason.value.trim());
        toast(t("{name} is paused.", { name: table.name }), "info");
      });
    });
    controls.append(form);
  }
  const bot = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { act: "bot" } }, t("Add a bot"));
  bot.addEventListener("click", () => act(bot, async () => {
    const r = await host.addBot(table.table_id);
    toast(t("A bot sat down in seat {seat}.", { seat: r.seat }), "info");
  }));
  controls.append(bot);

  let closeBox;
  if (state.closing.has(table.table_id)) {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: t("The host closed this table"), autocomplete: "off" });
    reason.setAttribute("aria-label", t("Why you close {name}", { name: table.name }));
    const confirm = h("button", { type: "submit", class: "btn btn-small btn-danger", dataset: { act: "close-confirm" } }, t("Close for good"));
    const cancel = h("button", { type: "button", class: "btn btn-small btn-quiet" }, t("Cancel"));
    cancel.addEventListener("click", () => {
      state.closing.delete(table.table_id);
      renderTables(ctx);
    });
    closeBox = h("form", { class: "admin-close", novalidate: true },
      h("p", { class: "small" }, t("Closing voids the hand in play and sends every stack back to its bankroll. It cannot be undone.")),
      reason, h("div", { class: "admin-buttons" }, confirm, cancel));
    closeBox.addEventListener("submit", (event) => {
      event.preventDefault();
      act(confirm, async () => {
        await host.close(table.table_id, reason.value.trim());
        state.closing.delete(table.table_id);
        toast(t("{name} is closed.", { name: table.name }), "info");
      });
    });
  } else {
    const close = h("button", { type: "button", class: "btn btn-small btn-quiet btn-danger-quiet", dataset: { act: "close" } }, t("Close…"));
    close.addEventListener("click", () => {
      state.closing.add(table.table_id);
      renderTables(ctx);
      document.querySelector(`[data-table-id="${CSS.escape(table.table_id)}"] .admin-close input`)?.focus();
    });
    controls.append(close);
  }

  return h("li", { class: `admin-table-card${paused ? " is-paused" : ""}`, dataset: { tableId: table.table_id } },
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
  $("#tables-count").textContent = tn("{n} open", "{n} open", n);
  if (!n) {
    fill($("#admin-tables"), h("p", { class: "muted" }, t("No table is open.")));

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
