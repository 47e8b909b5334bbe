// Trente et Quarante's panels below the tableau (static/js/games/trente-et-quarante.js): the un
// après choice, prison, the standing bettors, and the clock bars of the window and the choice.
import { clock } from "../../http.js";
import { formatNumber, t, tn } from "../../i18n.js";
import { FRENCH, bettorsOf, choices, nameOf, templates } from "./common.js";
import { stackShown } from "./reveal.js";

const clockStart = new Map(); // deadline → when the page first saw it (for the clock's bar)

export function unApresBlock(view, ctx) {
  const { h } = ctx;
  if (view.phase !== "un_apres") return null;
  const pending = Array.isArray(view.un_apres) ? view.un_apres : [];
  const levels = view.limits?.max_apres;
  const yours = pending.filter((u) => u.seat === view.you);
  const can = (kind, chance) => templates(view, kind).some((tp) => choices(tp, "chance").includes(chance));
  // A stake already in prison is chosen for by its id (`stake`), not by its chance.
  const canHeld = (kind, id) => templates(view, kind).some((tp) => choices(tp, "stake").includes(id));
  const others = new Map();
  for (const u of pending.filter((x) => x.seat !== view.you)) {
    const name = bettorName(view, ctx, u.seat);
    const stake = { chance: FRENCH[u.chance] || u.chance, chips: ctx.chips(u.amount) };
    const what = u.stake != null ? t("{chance} {chips} in prison", stake) : t("{chance} {chips}", stake);
    others.set(name, [...(others.get(name) || []), what]);
  }
  return h("div", { class: "teq-apres teq-when-called", role: "region", "aria-label": t("Un après: share or prison"), "data-testid": "teq-apres" },
    h("p", { class: "teq-apres-title" }, h("strong", { lang: "fr" }, "Un après"),
      " — ", t("both rows made 31. Insured stakes are untouched; the owner of every other stake chooses:")),
    h("ul", { class: "teq-apres-rules" },
      h("li", {}, h("strong", {}, t("Share")), ": ", t("half the stake (rounded down) comes back now; the house keeps the rest.")),
      h("li", {}, h("strong", {}, t("Prison")), ": ",
        levels ? t("the whole stake stays on its chance, level 1 of {levels}.", { levels }) : t("the whole stake stays on its chance, level 1."), " ",
        t("If that chance wins the next coup the stake comes back (without winnings); if it loses, the stake is lost."), " ",
        t("No choice before the clock runs out: prison."))),
    typeof view.deadline === "number" ? clockBar(h, view.deadline, t("Prison by default in {seconds} s"), t("Prison by default")) : null,
    yours.length
      ? h("ul", { class: "teq-apres-list" }, yours.map((u) => {
          const name = FRENCH[u.chance] || u.chance;
          const back = Math.floor(u.amount / 2);
          if (u.stake != null) return heldRow(view, ctx, u, name, back, canHeld);
          return h("li", { class: "is-you", dataset: { chance: u.chance } },
            h("span", {}, t("Your {chips} on {chance}:", { chips: ctx.chips(u.amount), chance: name })),
            can("share", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-neutral", dataset: { apres: "share", chance: u.chance },
              onclick: () => ctx.act({ kind: "share", chance: u.chance }) }, t("Share: {chips} back", { chips: ctx.chips(back) })) : null,
            can("prison", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { apres: "prison", chance: u.chance },
              onclick: () => ctx.act({ kind: "prison", chance: u.chance }) }, t("Prison: {chips} stays on {chance}", { chips: ctx.chips(u.amount), chance: name })) : null);
        }))
      : null,
    others.size
      ? h("p", { class: "teq-apres-others muted" }, t("Choosing:"), " ",
          [...others].map(([name, list], i) => [i ? "; " : "", h("strong", {}, name), ` (${list.join(", ")})`]))
      : null);
}

/** The row of a stake already in prison at an un après: share it, or leave it one level deeper. */
function heldRow(view, ctx, u, name, back, canHeld) {
  const { h } = ctx;
  const level = (bettorsOf(view).find((b) => b.seat === view.you)?.prison || [])
    .find((p) => p.id === u.stake)?.level;
  const known = typeof level === "number";
  const values = { chips: ctx.chips(u.amount), chance: name, level, deeper: known ? level + 1 : null };
  const data = (apres) => ({ apres, chance: u.chance, stake: String(u.stake) });
  return h("li", { class: "is-you is-held", dataset: { chance: u.chance, stake: String(u.stake) } },
    h("span", {}, known ? t("Your {chips} in prison on {chance} (level {level}):", values) : t("Your {chips} in prison on {chance}:", values)),
    canHeld("share", u.stake) ? h("button", { type: "button", class: "btn btn-small btn-neutral", dataset: data("share"),
      onclick: () => ctx.act({ kind: "share", stake: u.stake }) }, t("Share: {chips} back", { chips: ctx.chips(back) })) : null,
    canHeld("prison", u.stake) ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: data("prison"),
      onclick: () => ctx.act({ kind: "prison", stake: u.stake }) },
      known ? t("Prison: {chips} stays on {chance}, level {deeper}", values) : t("Prison: {chips} stays on {chance}, one level deeper", values)) : null);
}

/** A bar that empties until `deadline`, with `running` on it ("Prison by default in {seconds} s",
 *  the seconds left filled in), then `done`. */
export function clockBar(h, deadline, running, done) {
  return h("div", { class: "teq-clock", dataset: { deadline: String(deadline), running, done }, role: "timer", "aria-label": done },
    h("span", { class: "teq-clock-bar" }), h("span", { class: "teq-clock-text" }, ""));
}

function bettorName(view, ctx, seat) {
  const b = bettorsOf(view).find((x) => x.seat === seat);
  return b ? nameOf(b, view, ctx) : ctx.seatName(seat);
}

export function prisonBlock(view, ctx) {
  const { h } = ctx;
  const held = bettorsOf(view).flatMap((b) => (b.prison || []).map((p) => ({ ...p, seat: b.seat, name: nameOf(b, view, ctx) })));
  if (!held.length) return null;
  const moves = new Map(templates(view, "move_prison").map((tp) => [choices(tp, "stake")[0], choices(tp, "to")]));
  const levels = view.limits?.max_apres;
  return h("div", { class: "teq-prison teq-reveal-settle", role: "region", "aria-label": t("Stakes in prison"), "data-testid": "teq-prison" },
    h("p", { class: "teq-section-title" }, h("span", { lang: "fr" }, "En prison"),
      h("span", { class: "muted small" }, " · ", t("freed when its chance wins, lost when it loses"))),
    h("ul", { class: "teq-prison-list" }, held.map((p) => {
      const to = moves.get(p.id) || [];
      return h("li", { class: p.seat === view.you ? "is-you" : "", dataset: { stake: p.id } },
        h("strong", {}, p.name), " ", t("{chips} on", { chips: ctx.chips(p.amount) }), " ",
        h("span", { class: `teq-word teq-word-${p.chance}` }, FRENCH[p.chance] || p.chance),
        h("span", { class: "teq-level", title: t("Prison level: each un après puts it one deeper; a win moves it one up") },
          levels ? t("level {level}/{levels}", { level: p.level, levels }) : t("level {level}", { level: p.level })),
        to.length ? h("span", { class: "teq-move" }, h("span", { class: "muted small" }, t("move to")),
          to.map((c) => h("button", { type: "button", class: "btn btn-chip", dataset: { moveTo: c },
            onclick: () => ctx.act({ kind: "move_prison", stake: p.id, to: c }) }, FRENCH[c] || c))) : null);
    })));
}

export function standingBlock(view, ctx) {
  const { h } = ctx;
  const standing = bettorsOf(view).filter((b) => b.role === "standing");
  const table = view.table || {};
  const seated = view.you !== null && view.you !== undefined;
  const room = typeof table.standing_room === "number" ? table.standing_room : 0;
  const canStand = !seated && room > 0 && table.status !== "closed";
  if (!standing.length && !canStand) return null;
  const tableSeats = Number.isInteger(table.table_seats) ? table.table_seats : 7;
  const taken = new Set(bettorsOf(view).map((b) => b.seat));
  const onStand = () => {
    // Standing positions are seat numbers from the table's seats up; with no seat free the
    // server picks one itself (seat null).
    const free = Array.isArray(table.free_seats) && table.free_seats.length > 0;
    let place = null;
    if (free) for (place = tableSeats; taken.has(place); place += 1);
    ctx.sit(place, t("Bet standing"));
  };
  return h("div", { class: "teq-standing", role: "region", "aria-label": t("Standing bettors") },
    h("p", { class: "teq-section-title" }, t("Standing"),
      h("span", { class: "muted small" }, " · ", tn("{n} bettor behind the seats", "{n} bettors behind the seats", standing.length))),
    standing.length
      ? h("ul", { class: "teq-standing-list" }, standing.map((b) => h("li", { class: b.seat === view.you ? "is-you" : "", dataset: { seat: b.seat, stack: b.stack } },
          h("strong", {}, nameOf(b, view, ctx)), " ", h("span", { class: "muted teq-stack" }, ctx.chips(stackShown(b.seat, b.stack))),
          (b.stakes || []).map((s) => h("span", { class: `teq-mini teq-mini-${s.chance}` }, h("span", { lang: "fr" }, FRENCH[s.chance]), ` ${ctx.chips(s.amount)}`)))))
      : null,
    canStand ? h("button", { type: "button", class: "btn btn-small btn-sit teq-stand", "data-testid": "bet-standing", onclick: onStand },
      t("Bet standing")) : null);
}

// The clock bars empty as their deadline nears (scaled, not resized: the browser moves a layer
// and lays nothing out again)
setInterval(() => {
  for (const el of document.querySelectorAll(".teq-clock[data-deadline]")) {
    const deadline = Number(el.dataset.deadline);
    if (!clockStart.has(deadline)) {
      if (clockStart.size > 50) clockStart.clear();
      clockStart.set(deadline, clock.now());
    }
    const start = clockStart.get(deadline);
    const left = Math.max(0, deadline - clock.now());
    const whole = Math.max(1, deadline - start);
    el.querySelector(".teq-clock-bar").style.transform = `scaleX(${Math.min(1, left / whole).toFixed(3)})`;
    const running = el.dataset.running || "";
    el.querySelector(".teq-clock-text").textContent = left > 0
      ? running.replace("{seconds}", formatNumber(Math.ceil(left)))
      : el.dataset.done || "";
    el.classList.toggle("is-urgent", left <= 5);
  }
}, 250);
