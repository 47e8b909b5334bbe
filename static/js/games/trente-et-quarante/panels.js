// Trente et Quarante's panels below the tableau (static/js/games/trente-et-quarante.js): the un
// après choice, prison, the standing bettors, and the clock bars of the window and the choice.
import { clock } from "../../http.js";
import { FRENCH, bettorsOf, choices, nameOf, templates } from "./common.js";
import { stackShown } from "./reveal.js";

const clockStart = new Map(); // deadline → when the page first saw it (for the clock's bar)

export function unApresBlock(view, ctx) {
  const { h } = ctx;
  if (view.phase !== "un_apres") return null;
  const pending = Array.isArray(view.un_apres) ? view.un_apres : [];
  const levels = view.limits?.max_apres;
  const yours = pending.filter((u) => u.seat === view.you);
  const can = (kind, chance) => templates(view, kind).some((t) => choices(t, "chance").includes(chance));
  // A stake already in prison is chosen for by its id (`stake`), not by its chance.
  const canHeld = (kind, id) => templates(view, kind).some((t) => choices(t, "stake").includes(id));
  const others = new Map();
  for (const u of pending.filter((x) => x.seat !== view.you)) {
    const name = bettorName(view, ctx, u.seat);
    const where = u.stake != null ? " in prison" : "";
    others.set(name, [...(others.get(name) || []), `${FRENCH[u.chance] || u.chance} ${ctx.chips(u.amount)}${where}`]);
  }
  return h("div", { class: "teq-apres teq-when-called", role: "region", "aria-label": "Un après: share or prison", "data-testid": "teq-apres" },
    h("p", { class: "teq-apres-title" }, h("strong", { lang: "fr" }, "Un après"),
      " — both rows made 31. Insured stakes are untouched; the owner of every other stake chooses:"),
    h("ul", { class: "teq-apres-rules" },
      h("li", {}, h("strong", {}, "Share"), ": half the stake (rounded down) comes back now; the house keeps the rest."),
      h("li", {}, h("strong", {}, "Prison"), `: the whole stake stays on its chance, level 1${levels ? ` of ${levels}` : ""}. `,
        "If that chance wins the next coup the stake comes back (without winnings); if it loses, the stake is lost. ",
        "No choice before the clock runs out: prison.")),
    typeof view.deadline === "number" ? clockBar(h, view.deadline, "Prison by default in") : null,
    yours.length
      ? h("ul", { class: "teq-apres-list" }, yours.map((u) => {
          const name = FRENCH[u.chance] || u.chance;
          const back = Math.floor(u.amount / 2);
          if (u.stake != null) return heldRow(view, ctx, u, name, back, canHeld);
          return h("li", { class: "is-you", dataset: { chance: u.chance } },
            h("span", {}, "Your ", h("strong", {}, ctx.chips(u.amount)), ` on ${name}:`),
            can("share", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-neutral", dataset: { apres: "share", chance: u.chance },
              onclick: () => ctx.act({ kind: "share", chance: u.chance }) }, `Share: ${ctx.chips(back)} back`) : null,
            can("prison", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { apres: "prison", chance: u.chance },
              onclick: () => ctx.act({ kind: "prison", chance: u.chance }) }, `Prison: ${ctx.chips(u.amount)} stays on ${name}`) : null);
        }))
      : null,
    others.size
      ? h("p", { class: "teq-apres-others muted" }, "Choosing: ",
          [...others].map(([name, list], i) => [i ? "; " : "", h("strong", {}, name), ` (${list.join(", ")})`]))
      : null);
}

/** The row of a stake already in prison at an un après: share it, or leave it one level deeper. */
function heldRow(view, ctx, u, name, back, canHeld) {
  const { h } = ctx;
  const level = (bettorsOf(view).find((b) => b.seat === view.you)?.prison || [])
    .find((p) => p.id === u.stake)?.level;
  const deeper = typeof level === "number" ? `, level ${level + 1}` : ", one level deeper";
  const data = (apres) => ({ apres, chance: u.chance, stake: String(u.stake) });
  return h("li", { class: "is-you is-held", dataset: { chance: u.chance, stake: String(u.stake) } },
    h("span", {}, "Your ", h("strong", {}, ctx.chips(u.amount)), ` in prison on ${name}${typeof level === "number" ? ` (level ${level})` : ""}:`),
    canHeld("share", u.stake) ? h("button", { type: "button", class: "btn btn-small btn-neutral", dataset: data("share"),
      onclick: () => ctx.act({ kind: "share", stake: u.stake }) }, `Share: ${ctx.chips(back)} back`) : null,
    canHeld("prison", u.stake) ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: data("prison"),
      onclick: () => ctx.act({ kind: "prison", stake: u.stake }) }, `Prison: ${ctx.chips(u.amount)} stays on ${name}${deeper}`) : null);
}

/** A bar that empties until `deadline`, with "<label> N s" on it. */
export function clockBar(h, deadline, label) {
  return h("div", { class: "teq-clock", dataset: { deadline: String(deadline), label }, role: "timer", "aria-label": label },
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
  const moves = new Map(templates(view, "move_prison").map((t) => [choices(t, "stake")[0], choices(t, "to")]));
  const levels = view.limits?.max_apres;
  return h("div", { class: "teq-prison teq-reveal-settle", role: "region", "aria-label": "Stakes in prison", "data-testid": "teq-prison" },
    h("p", { class: "teq-section-title" }, h("span", { lang: "fr" }, "En prison"),
      h("span", { class: "muted small" }, " · freed when its chance wins, lost when it loses")),
    h("ul", { class: "teq-prison-list" }, held.map((p) => {
      const to = moves.get(p.id) || [];
      return h("li", { class: p.seat === view.you ? "is-you" : "", dataset: { stake: p.id } },
        h("strong", {}, p.name), ` ${ctx.chips(p.amount)} on `, h("span", { class: `teq-word teq-word-${p.chance}` }, FRENCH[p.chance] || p.chance),
        h("span", { class: "teq-level", title: "Prison level: each un après puts it one deeper; a win moves it one up" },
          `level ${p.level}${levels ? `/${levels}` : ""}`),
        to.length ? h("span", { class: "teq-move" }, h("span", { class: "muted small" }, "move to"),
          to.map((c) => h("button", { type: "button", class: "btn btn-chip", dataset: { moveTo: c },
            onclick: () => ctx.act({ kind: "move_prison", stake: p.id, to: c }) }, FRENCH[c] || c))) : null);
    })));
}

export function standingBlock(view, ctx) {
  const { h } = ctx;
  const standing = bettorsOf(view).filter((b) => b.role === "standing");
  const t = view.table || {};
  const seated = view.you !== null && view.you !== undefined;
  const room = typeof t.standing_room === "number" ? t.standing_room : 0;
  const canStand = !seated && room > 0 && t.status !== "closed";
  if (!standing.length && !canStand) return null;
  const tableSeats = Number.isInteger(t.table_seats) ? t.table_seats : 7;
  const taken = new Set(bettorsOf(view).map((b) => b.seat));
  const onStand = () => {
    // Standing positions are seat numbers from the table's seats up; with no seat free the
    // server picks one itself (seat null).
    const free = Array.isArray(t.free_seats) && t.free_seats.length > 0;
    let place = null;
    if (free) for (place = tableSeats; taken.has(place); place += 1);
    ctx.sit(place, "Bet standing");
  };
  return h("div", { class: "teq-standing", role: "region", "aria-label": "Standing bettors" },
    h("p", { class: "teq-section-title" }, "Standing",
      h("span", { class: "muted small" }, ` · ${standing.length} bettor${standing.length === 1 ? "" : "s"} behind the seats`)),
    standing.length
      ? h("ul", { class: "teq-standing-list" }, standing.map((b) => h("li", { class: b.seat === view.you ? "is-you" : "", dataset: { seat: b.seat, stack: b.stack } },
          h("strong", {}, nameOf(b, view, ctx)), " ", h("span", { class: "muted teq-stack" }, ctx.chips(stackShown(b.seat, b.stack))),
          (b.stakes || []).map((s) => h("span", { class: `teq-mini teq-mini-${s.chance}` }, `${FRENCH[s.chance]} ${ctx.chips(s.amount)}`)))))
      : null,
    canStand ? h("button", { type: "button", class: "btn btn-small btn-sit teq-stand", "data-testid": "bet-standing", onclick: onStand },
      "Bet standing") : null);
}

// The clock bars empty as their deadline nears.
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
    el.querySelector(".teq-clock-bar").style.width = `${Math.min(100, (left / whole) * 100).toFixed(1)}%`;
    const label = el.dataset.label || "";
    el.querySelector(".teq-clock-text").textContent = left > 0 ? `${label} ${Math.ceil(left)} s` : label.replace(/ in$/, "");
    el.classList.toggle("is-urgent", left <= 5);
  }
}, 250);
