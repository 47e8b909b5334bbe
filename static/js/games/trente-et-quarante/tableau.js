// Trente et Quarante's tableau (static/js/games/trente-et-quarante.js): the four chances, each
// with its stakes (yours first), the chip-value selector, and the stakes a tap makes. Chips go
// down by tapping a chance: the selected chip sets how much one tap adds; every action sent
// (ctx.act) fits a template of `legal` (stake, remove, insure). After the deal the tableau shows
// how each stake of the last window fared.
import { formatNumber, t } from "../../i18n.js";
import { CHANCES, ENGLISH, FRENCH, OPPOSITE, bettorsOf, choices, mine, nameOf, shortName, templates, winning } from "./common.js";

const DENOMINATIONS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000];
const MAX_CHIPS = 6;
const PILLS_SHOWN = 3;

/** What the tableau remembers between views: the chip chosen, the stakes of the last window. */
const memory = {
  chip: null,
  window: null, // {coup, stakes: [{seat, name, chance, amount, insured}]}: the last window's stakes
};

function stakeTemplate(view, chance) {
  return templates(view, "stake").find((tp) => choices(tp, "chance").includes(chance)) || null;
}

function freeStake(bettor, chance) {
  return (bettor?.stakes || []).find((s) => s.chance === chance) || null;
}

/** The chip values offered: the smallest stake, then usual denominations up to the largest. */
function chipValues(limits) {
  const least = Number.isInteger(limits?.min_stake) ? limits.min_stake : 1;
  const most = Number.isInteger(limits?.max_stake) ? limits.max_stake : least * 100;
  return [least, ...DENOMINATIONS.filter((d) => d > least && d <= most)].slice(0, MAX_CHIPS);
}

function currentChip(view) {
  const values = chipValues(view.limits);
  if (!values.includes(memory.chip)) memory.chip = values[0];
  return memory.chip;
}

/** How a stake of the last window fared in the coup shown (null while it is not known). */
function outcome(stake, view) {
  const result = view.result;
  if (!result) return null;
  if (result.void) return { text: t("void: returned"), delta: 0, tone: "even" };
  if (result.tie === "apres") return { text: t("après: stands off"), delta: 0, tone: "even" };
  if (result.tie === "un_apres") {
    if (stake.insured) return { text: t("insured: untouched"), delta: 0, tone: "even" };
    const waiting = (view.un_apres || []).some((u) => u.seat === stake.seat && u.chance === stake.chance);
    if (waiting) return { text: t("share or prison?"), delta: null, tone: "wait" };
    const held = bettorsOf(view).find((b) => b.seat === stake.seat)?.prison || [];
    if (held.some((p) => p.chance === stake.chance && p.amount === stake.amount && p.level === 1)) {
      return { text: t("in prison"), delta: null, tone: "wait" };
    }
    return { text: t("shared"), delta: -(stake.amount - Math.floor(stake.amount / 2)), tone: "lose" };
  }
  const won = stake.chance === result.winner || stake.chance === result.colour;
  return won ? { text: t("wins"), delta: stake.amount, tone: "win" } : { text: t("loses"), delta: -stake.amount, tone: "lose" };
}

/** The stakes to draw on the tableau: the window's own, or after the deal those it settled. */
function shownStakes(view, ctx) {
  if (view.phase === "betting" || view.phase === "un_apres") {
    // In the window the stakes are the bettors' own; at an un après they wait on the tableau.
    return bettorsOf(view).flatMap((b) => (b.stakes || []).map((s) => {
      const stake = { seat: b.seat, name: nameOf(b, view, ctx), chance: s.chance, amount: s.amount, insured: s.insured };
      return { ...stake, result: view.phase === "un_apres" ? outcome(stake, view) : null };
    }));
  }
  if (memory.window && memory.window.coup === view.coup && view.result) {
    return memory.window.stakes.map((s) => ({ ...s, name: s.seat === view.you ? t("You") : s.name, result: outcome(s, view) }));
  }
  return [];
}

// ------------------------------------------------------------------ acting

function stakeBy(view, ctx, chance, delta) {
  const template = stakeTemplate(view, chance);
  const stake = freeStake(mine(view), chance);
  const current = stake ? stake.amount : 0;
  if (delta < 0) {
    const lower = current + delta;
    if (lower >= (template?.params.amount.min ?? Infinity)) ctx.act({ kind: "stake", chance, amount: lower });
    else if (templates(view, "remove").some((tp) => choices(tp, "chance").includes(chance))) ctx.act({ kind: "remove", chance });
    return;
  }
  const target = stakeTarget(template, current, delta);
  if (target !== null) ctx.act({ kind: "stake", chance, amount: target });
}

/** The stake one tap makes: the current one plus a chip, within the template's range. */
function stakeTarget(template, current, chip) {
  if (!template) return null;
  const { min, max } = template.params.amount;
  const target = Math.min(max, Math.max(min, current + chip));
  return target > current || (current === 0 && target >= min) ? target : null;
}

/** Why a chance cannot take a chip from you now (the zone's tooltip). */
function whyNot(view, chance) {
  const me = mine(view);
  if (view.you === null || view.you === undefined) return t("Sit down or bet standing to stake.");
  if (view.phase !== "betting") return t("Stakes open with the next coup (Faites vos jeux).");
  if (me?.done) return t("You said your stakes are set for this coup.");
  if (freeStake(me, OPPOSITE[chance])) {
    return t("You hold a stake on {other}: remove it to stake on {chance}.", { other: FRENCH[OPPOSITE[chance]], chance: FRENCH[chance] });
  }
  if (freeStake(me, chance)) return t("Your stake here is at its limit (the table's, your chips' or the house's cover).");
  return t("Your chips or the house's cover leave no room for a stake here.");
}

// ------------------------------------------------------------------ drawing

function zone(view, ctx, chance, stakes) {
  const { h } = ctx;
  const me = mine(view);
  const stake = freeStake(me, chance);
  const chip = currentChip(view);
  const template = stakeTemplate(view, chance);
  const target = view.phase === "betting" ? stakeTarget(template, stake ? stake.amount : 0, chip) : null;
  const total = view.tableau?.[chance]?.stakes ?? 0;
  const prison = view.tableau?.[chance]?.prison ?? 0;
  const wins = winning(view);
  const classes = [`teq-zone`, `teq-${chance}`];
  if (stake) classes.push("is-mine");
  if (view.phase !== "betting" && wins.size) classes.push(wins.has(chance) ? "is-win" : "is-lose");
  // The name begins with the words the button shows (its French and English names, the total
  // staked), so a person who says what they see names the button.
  const names = `${FRENCH[chance]} ${ENGLISH[chance]}`;
  const shown = total ? t("{chance} {chips} staked", { chance: names, chips: ctx.chips(total) }) : names;
  let label;
  if (target === null) label = t("{chance}: {why}", { chance: shown, why: whyNot(view, chance) });
  else if (stake) label = t("{chance}: stake {chips} (now {now})", { chance: shown, chips: ctx.chips(target), now: ctx.chips(stake.amount) });
  else label = t("{chance}: stake {chips}", { chance: shown, chips: ctx.chips(target) });
  const hit = h("button", {
    type: "button", class: "teq-hit", disabled: target === null, dataset: { chance },
    "aria-label": label, title: target !== null ? t("Tap to stake {chips} on {chance}", { chips: ctx.chips(target), chance: FRENCH[chance] }) : whyNot(view, chance),
    onclick: () => stakeBy(view, ctx, chance, chip),
  },
    h("span", { class: "teq-zone-mark", "aria-hidden": "true" }),
    h("span", { class: "teq-zone-name", lang: "fr" }, FRENCH[chance]), " ",
    h("span", { class: "teq-zone-en" }, ENGLISH[chance]), " ",
    h("span", { class: "teq-zone-total", title: t("Free stakes on this chance, everyone's") }, total ? ctx.chips(total) : ""));

  const here = stakes.filter((s) => s.chance === chance);
  // Yours first; then up to a few others, the rest counted.
  here.sort((a, b) => (b.seat === view.you) - (a.seat === view.you) || b.amount - a.amount);
  const hidden = here.splice(PILLS_SHOWN);
  const pills = here.map((s) => h("span", {
    class: `teq-pill${s.seat === view.you ? " teq-pill-you" : ""}${s.result ? ` teq-pill-${s.result.tone}` : ""}`,
    dataset: { seat: s.seat, amount: s.amount },
    title: pillTitle(s, chance, ctx),
  },
    h("span", { class: "teq-pill-chip", "aria-hidden": "true" }),
    h("span", { class: "teq-pill-name" }, shortName(s.name)), " ",
    h("strong", {}, ctx.chips(s.amount)),
    s.insured ? h("span", { class: "teq-insured", title: t("insured"), "aria-label": t("insured") }, "✓") : null,
    s.result ? h("span", { class: "teq-pill-delta teq-reveal-call" }, ` ${s.result.delta ? ctx.signed(s.result.delta) : s.result.text}`) : null));
  if (hidden.length) {
    pills.push(h("span", { class: "teq-pill", title: hidden.map((s) => `${s.name} ${ctx.chips(s.amount)}`).join(", ") },
      t("+{count} more", { count: hidden.length })));
  }
  if (prison) {
    pills.push(h("span", { class: "teq-pill teq-pill-prison teq-reveal-settle", title: t("Stakes in prison on this chance") },
      h("span", { class: "teq-prison-word" }, t("prison")), " ", ctx.chips(prison)));
  }

  const tools = [];
  if (stake && view.phase === "betting" && !me?.done) {
    tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "lower", chance },
      title: t("Take {chips} off", { chips: ctx.chips(chip) }), "aria-label": t("Lower the {chance} stake by {chips}", { chance: FRENCH[chance], chips: ctx.chips(chip) }),
      onclick: () => stakeBy(view, ctx, chance, -chip) }, `−${ctx.chips(chip)}`));
    if (templates(view, "remove").some((tp) => choices(tp, "chance").includes(chance))) {
      tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "remove", chance },
        "aria-label": t("Remove the {chance} stake", { chance: FRENCH[chance] }), title: t("Remove this stake"),
        onclick: () => ctx.act({ kind: "remove", chance }) }, "✕"));
    }
    if (templates(view, "insure").some((tp) => choices(tp, "chance").includes(chance))) {
      const premium = Math.ceil(stake.amount / 100);
      tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "insure", chance },
        title: t("Insurance: {percent} of the stake ({chips}), paid to the house; an un après then leaves this stake untouched",
          { percent: formatNumber(0.01, { style: "percent" }), chips: ctx.chips(premium) }),
        "aria-label": t("Insure the {chance} stake for {chips}", { chance: FRENCH[chance], chips: ctx.chips(premium) }),
        onclick: () => ctx.act({ kind: "insure", chance }) }, t("Insure {chips}", { chips: ctx.chips(premium) })));
    }
  }
  return h("div", { class: classes.join(" "), dataset: { chance } },
    hit,
    h("div", { class: "teq-pills" }, pills),
    tools.length ? h("div", { class: "teq-tools" }, tools) : null);
}

/** A stake's pill's title: "Ada: 20 on Rouge, insured — wins". */
function pillTitle(s, chance, ctx) {
  const values = { name: s.name, chips: ctx.chips(s.amount), chance: FRENCH[chance], result: s.result?.text };
  if (s.insured) {
    return s.result ? t("{name}: {chips} on {chance}, insured — {result}", values) : t("{name}: {chips} on {chance}, insured", values);
  }
  return s.result ? t("{name}: {chips} on {chance} — {result}", values) : t("{name}: {chips} on {chance}", values);
}

export function chipSelector(view, ctx) {
  const { h } = ctx;
  const me = mine(view);
  if (!me || view.phase !== "betting" || me.done) return null;
  const chip = currentChip(view);
  const values = chipValues(view.limits);
  return h("div", { class: "teq-chips", role: "group", "aria-label": t("Chip value: how much one tap stakes") },
    h("span", { class: "teq-chips-label muted small" }, t("Chip")),
    values.map((v) => h("button", {
      type: "button", class: `teq-chip${v === chip ? " is-on" : ""}`, "aria-pressed": String(v === chip),
      dataset: { chip: v }, title: t("Each tap on a chance stakes {chips} more", { chips: ctx.chips(v) }),
      onclick: (event) => {
        memory.chip = v;
        const group = event.currentTarget.parentElement;
        for (const b of group.querySelectorAll(".teq-chip")) {
          const on = Number(b.dataset.chip) === v;
          b.classList.toggle("is-on", on);
          b.setAttribute("aria-pressed", String(on));
        }
        refreshZones(view, ctx, event.currentTarget.closest(".teq"));
      },
    }, ctx.chips(v))),
    h("span", { class: "teq-free small", title: t("Your chips not yet at stake") },
      t("Free"), " ", h("strong", { class: "teq-stack teq-reveal-settle" }, ctx.chips(me.free_chips ?? me.stack))));
}

/** After another chip is chosen: the zones' labels and tools say the new amounts. */
function refreshZones(view, ctx, root) {
  const tableau = root?.querySelector(".teq-tableau");
  if (!tableau) return;
  tableau.replaceWith(tableauBlock(view, ctx));
}

export function tableauBlock(view, ctx) {
  const stakes = shownStakes(view, ctx);
  return ctx.h("div", { class: "teq-tableau", "aria-label": t("The tableau: tap a chance to stake"), "data-testid": "teq-tableau" },
    CHANCES.map((c) => zone(view, ctx, c, stakes)));
}

/** The stakes of an open window, remembered to show how they fared once the coup is dealt. */
export function rememberWindow(view, ctx) {
  if (view.phase === "betting") {
    memory.window = {
      coup: view.coup,
      stakes: bettorsOf(view).flatMap((b) => (b.stakes || []).map((s) => ({
        seat: b.seat, name: nameOf(b, { ...view, you: null }, ctx), chance: s.chance, amount: s.amount, insured: s.insured,
      }))),
    };
  }
}
