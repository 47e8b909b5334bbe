// Controls generated from the view's `legal` (docs/protocol.md §6.5), knowing nothing of
// any game's rules. Each template {kind, params} becomes one group:
//   no params                      → one button;
//   one `{one_of}` param (≤ 6)     → one button per value;
//   otherwise                      → an input per param and one button:
//     {min, max}                   → number input + slider + Min/½/Max quick buttons;
//     {one_of}                     → a select (a single value is shown as fixed text);
//     {subset_of, min, max}        → click items in order (cards are drawn as cards) with
//                                    1, 2, 3… order badges; the last chosen is on top.
// The action sent is {kind, param: value, ...} with exactly the template's params.
import { cardEl, cardLabel, cardText, isCardCode } from "./cards.js";
import { chips, h, humanize } from "./dom.js";
import { formatNumber, t, tc } from "./i18n.js";
import { chipsInWords, codeWords } from "./words.js";

// the games' own words (knock, prison…) are marked like the rest: the translators keep them or
// translate them as the players of each language say them
export const KIND_LABELS = {
  bet: t("Bet"), fold: t("Fold"), hit: t("Hit"), stand: t("Stand"),
  accept_bank: t("Take the bank"), decline_bank: t("Decline the bank"),
  draw: t("Draw"), stake: t("Stake"), double: t("Double"), no_double: t("No double"), split: t("Split"),
  discard: t("Discard"), knock: t("Knock"), knock_deck: t("Knock on the deck"), cut: t("Cut"), deal: t("Deal"),
  remove: t("Remove stake"), insure: t("Insure"), move_prison: t("Move from prison"), done: t("Done"),
  share: t("Share"), prison: t("Prison"),
};

/** A param's name (a view's key: "amount", "cards") in words. */
const PARAM_WORDS = {
  amount: t("Amount"), stake: tc("noun", "Stake"), cards: t("Cards"), position: t("Position"), chance: t("Chance"),
  conceal: t("Conceal"), pattern: t("Pattern"), source: t("Source"), to: t("To"),
};

const paramWords = (name) => (Object.hasOwn(PARAM_WORDS, name) ? PARAM_WORDS[name] : humanize(name));

const MAX_VALUE_BUTTONS = 6;
const MONEY = /amount|stake|bet|chips/;

/**
 * Fill `el` with one group per template of `legal`.
 * opts.onAct(action)              called with a complete action
 * opts.labels                     kind → label overrides (a game module's `labels`)
 * opts.valueLabel(kind, param, v) a label for a param value, or null for the default
 * opts.memory                     a Map remembering the last number per kind.param
 */
export function renderControls(el, legal, opts) {
  const ctx = {
    onAct: opts.onAct,
    memory: opts.memory || new Map(),
    kindLabel: (kind) => (opts.labels?.[kind]) || KIND_LABELS[kind] || codeWords(kind),
    valueLabel: (kind, param, value) => {
      const custom = opts.valueLabel ? opts.valueLabel(kind, param, value) : null;
      if (custom !== null && custom !== undefined) return String(custom);
      if (isCardCode(value)) return cardText(value);
      return typeof value === "string" ? codeWords(value) : String(value);
    },
  };
  el.replaceChildren(...(legal || []).map((template) => group(template, ctx)));
}

function group(template, ctx) {
  const kind = template.kind;
  const params = Object.entries(template.params || {});
  const fixed = params.filter(([, spec]) => isChoice(spec) && spec.one_of.length === 1);
  const open = params.filter(([, spec]) => !(isChoice(spec) && spec.one_of.length === 1));
  const base = { kind };
  for (const [name, spec] of fixed) base[name] = spec.one_of[0];
  const fixedText = fixed.map(([name]) => ctx.valueLabel(kind, name, base[name])).join(" · ");
  const title = fixedText ? `${ctx.kindLabel(kind)} · ${fixedText}` : ctx.kindLabel(kind);
  const box = h("div", { class: "action", dataset: { kind } });

  if (open.length === 0) {
    box.append(h("button", { type: "button", class: `btn btn-action btn-${kindTone(kind)}`,
      dataset: { kind }, onclick: () => ctx.onAct({ ...base }) }, title));
    return box;
  }
  if (open.length === 1 && isChoice(open[0][1]) && open[0][1].one_of.length <= MAX_VALUE_BUTTONS) {
    const [name, spec] = open[0];
    box.append(h("span", { class: "action-title" }, title),
      h("div", { class: "action-values" }, spec.one_of.map((value) =>
        h("button", { type: "button", class: "btn btn-action", dataset: { kind, value: JSON.stringify(value) },
          onclick: () => ctx.onAct({ ...base, [name]: value }) },
          ctx.valueLabel(kind, name, value)))));
    return box;
  }

  // A form: one input per open param, one submit button whose label follows the values.
  const readers = [];
  const submit = h("button", { type: "submit", class: `btn btn-action btn-${kindTone(kind)}`, dataset: { kind } });
  const error = h("p", { class: "field-error action-error", role: "alert" });
  const relabel = () => {
    // A value out of its range is not put on the button: the button waits, the range is said.
    const problem = readers.map((r) => r.problem()).find(Boolean) || "";
    const parts = problem ? [] : readers.map((r) => r.summary()).filter(Boolean);
    submit.textContent = parts.length ? `${title} ${parts.join(" ")}` : title;
    submit.disabled = Boolean(problem) || readers.some((r) => !r.ready());
    if (error.textContent !== problem) error.textContent = problem;
  };
  const form = h("form", { class: "action-form", novalidate: true });
  for (const [name, spec] of open) {
    const reader = paramInput(kind, name, spec, ctx, relabel);
    readers.push(reader);
    form.append(reader.el);
  }
  form.append(submit, error);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = { ...base };
    for (const reader of readers) {
      const result = reader.read();
      if (result.error) {
        error.textContent = result.error;
        return;
      }
      action[reader.name] = result.value;
    }
    error.textContent = "";
    ctx.onAct(action);
  });
  relabel();
  box.append(form);
  return box;
}

const isChoice = (spec) => spec && Array.isArray(spec.one_of);
const isSubset = (spec) => spec && Array.isArray(spec.subset_of);

/** Colour hint: aggressive kinds gold, passive ones quiet, the rest neutral. */
function kindTone(kind) {
  if (/^(fold|decline|no_|remove|stand|done)/.test(kind)) return "quiet";
  if (/^(bet|stake|hit|draw|accept|double|split|knock)/.test(kind)) return "primary";
  return "neutral";
}

function paramInput(kind, name, spec, ctx, changed) {
  if (isSubset(spec)) return subsetInput(kind, name, spec, ctx, changed);
  if (isChoice(spec)) return selectInput(kind, name, spec, ctx, changed);
  return rangeInput(kind, name, spec, ctx, changed);
}

/** A whole number from min to max: number input, slider, quick buttons. */
function rangeInput(kind, name, spec, ctx, changed) {
  const { min, max } = spec;
  const key = `${kind}.${name}`;
  const clamp = (n) => Math.min(max, Math.max(min, n));
  let start = ctx.memory.get(key);
  if (typeof start !== "number") {
    // A first bet of about a tenth of what may be bet; other numbers (a cut) start midway.
    start = MONEY.test(name) ? Math.round(max / 10) : Math.round((min + max) / 2);
  }
  start = clamp(start);
  const label = paramWords(name);
  const money = MONEY.test(name) || MONEY.test(kind);
  // The allowed range in words, shown while the typed value is outside it.
  const values = { action: ctx.kindLabel(kind), param: label, min: chips(min), max: chips(max) };
  const rangeText = money
    ? min === max
      ? t("{action} exactly {min} chips (a whole number).", values)
      : t("{action} from {min} to {max} chips (a whole number).", values)
    : min === max
      ? t("{param}: exactly {min} (a whole number).", values)
      : t("{param}: from {min} to {max} (a whole number).", values);
  const problem = () => {
    const raw = number.value.trim();
    const n = Number(raw);
    return raw === "" || !Number.isInteger(n) || n < min || n > max ? rangeText : null;
  };
  const number = h("input", { type: "number", class: "amount-input", min, max, step: 1, value: String(start),
    inputmode: "numeric", "aria-label": t("{param} ({min} to {max})", values), dataset: { param: name } });
  const slider = max > min
    ? h("input", { type: "range", class: "amount-slider", min, max, step: 1, value: String(start),
        "aria-label": t("{param} slider", values) })
    : null;
  const set = (n) => {
    number.value = String(n);
    if (slider) slider.value = String(n);
    mark();
    changed();
  };
  const mark = () => {
    if (problem()) number.setAttribute("aria-invalid", "true");
    else number.removeAttribute("aria-invalid");
  };
  number.addEventListener("input", () => {
    const n = Number(number.value);
    if (slider && Number.isInteger(n)) slider.value = String(clamp(n));
    mark();
    changed();
  });
  if (slider) slider.addEventListener("input", () => set(Number(slider.value)));
  const quick = max > min
    ? h("div", { class: "quick" },
        [[t("Min"), min], ["½", clamp(Math.round((min + max) / 2))], [t("Max"), max]].map(([text, n]) =>
          h("button", { type: "button", class: "btn btn-chip", title: t("{quick}: {chips}", { quick: text, chips: chips(n) }),
            onclick: () => set(n) }, text)))
    : null;
  const read = () => {
    const n = Number(number.value);
    if (problem()) return { error: rangeText };
    ctx.memory.set(key, n);
    return { value: n };
  };
  return {
    name,
    el: h("div", { class: "param param-range" },
      h("div", { class: "range-row" }, number, quick),
      h("div", { class: "range-row" }, slider, h("span", { class: "param-hint muted small" }, `${chips(min)}–${chips(max)}`))),
    read,
    ready: () => true,
    problem,
    summary: () => {
      const n = Number(number.value);
      return Number.isInteger(n) ? chips(n) : "";
    },
  };
}

/** One of several values, as a select. */
function selectInput(kind, name, spec, ctx, changed) {
  const select = h("select", { class: "param-select", "aria-label": paramWords(name), dataset: { param: name } },
    spec.one_of.map((value, i) => h("option", { value: String(i) }, ctx.valueLabel(kind, name, value))));
  select.addEventListener("change", changed);
  return {
    name,
    el: h("label", { class: "param param-choice" }, h("span", { class: "muted small" }, paramWords(name)), select),
    read: () => ({ value: spec.one_of[Number(select.value)] }),
    ready: () => true,
    problem: () => null,
    summary: () => "",
  };
}

/** k to m distinct values in a chosen order: click to pick, click again to put back. */
function subsetInput(kind, name, spec, ctx, changed) {
  const chosen = []; // indexes into spec.subset_of, in the order picked
  const items = spec.subset_of;
  const asCards = items.length > 0 && items.every(isCardCode);
  const hint = h("span", { class: "param-hint muted small" });
  const pile = h("div", { class: "subset-pile", "aria-live": "polite" });
  const buttons = items.map((value, index) => {
    const button = asCards
      ? cardEl({ card: value, up: true }, { tag: "button" })
      : h("button", { type: "button", class: "btn btn-toggle" }, ctx.valueLabel(kind, name, value));
    button.type = "button";
    button.classList.add("pickable");
    button.setAttribute("aria-pressed", "false");
    // a card is named by what it shows and in words ("10♥ (ten of hearts): pick")
    button.setAttribute("aria-label", t("{item}: pick", { item: asCards ? cardLabel(value) : ctx.valueLabel(kind, name, value) }));
    button.addEventListener("click", () => {
      const at = chosen.indexOf(index);
      if (at >= 0) chosen.splice(at, 1);
      else if (chosen.length < spec.max) chosen.push(index);
      update();
    });
    return button;
  });
  const update = () => {
    buttons.forEach((button, index) => {
      const at = chosen.indexOf(index);
      button.setAttribute("aria-pressed", String(at >= 0));
      button.querySelector(".order-badge")?.remove();
      if (at >= 0) button.append(h("span", { class: "order-badge", "aria-hidden": "true" }, String(at + 1)));
    });
    const counts = { min: formatNumber(spec.min), max: formatNumber(spec.max), chosen: formatNumber(chosen.length) };
    hint.textContent = spec.min === spec.max
      ? t("Choose {min} in order: the last one chosen ends on top. Chosen: {chosen}", counts)
      : t("Choose {min} to {max} in order: the last one chosen ends on top. Chosen: {chosen}", counts);
    pile.replaceChildren(...chosen.map((index, i) => {
      const value = items[index];
      const node = asCards ? cardEl({ card: value, up: true }, { small: true })
        : h("span", { class: "pile-item" }, ctx.valueLabel(kind, name, value));
      node.style.zIndex = String(i + 1);
      if (i === chosen.length - 1) node.append(h("span", { class: "top-tag" }, t("top")));
      return node;
    }));
    changed();
  };
  const ok = () => chosen.length >= spec.min && chosen.length <= spec.max;
  update();
  return {
    name,
    el: h("div", { class: "param param-subset" },
      h("div", { class: asCards ? "card-row subset-cards" : "subset-values" }, buttons), pile, hint),
    read: () => ok() ? { value: chosen.map((i) => items[i]) }
      : { error: t("Choose {min} to {max} of them", { min: formatNumber(spec.min), max: formatNumber(spec.max) }) },
    ready: ok,
    problem: () => null,
    summary: () => (chosen.length ? `(${formatNumber(chosen.length)})` : spec.min === 0 ? t("(none)") : ""),
  };
}

/**
 * What a seated player is told when their stack no longer lets them be dealt in
 * (`view.table.cannot_play`): the reason, and what they can do about it, "Add chips" (when
 * `table.can_top_up`) and "Leave table" (the dock hides its own two meanwhile).
 * opts.canTopUp, opts.onTopUp(), opts.onLeave()
 */
export function cannotPlayNotice(reason, opts) {
  // the server's words ("You need 1 chips … add chips or stand up") as the buttons say them
  // (English only: a translated reason is left as the server worded it)
  const text = chipsInWords(reason).replace(/\bstand up\b/g, "leave the table");
  return h("div", { class: "idle cannot-play", role: "status" },
    h("p", { class: "cannot-play-reason" }, text),
    h("div", { class: "cannot-play-actions" },
      opts.canTopUp
        ? h("button", { type: "button", class: "btn btn-primary btn-small", dataset: { control: "top-up" }, onclick: opts.onTopUp }, t("Add chips"))
        : null,
      h("button", { type: "button", class: "btn btn-quiet btn-small", dataset: { control: "stand-up" }, onclick: opts.onLeave }, t("Leave table"))));
}
