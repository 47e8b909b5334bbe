// En og tredive: your hand, and your discards while you choose them (static/js/games/
// en-og-tredive.js). The cards you pick are remembered between views until you send them or
// the choice offered changes.
import { t, tn } from "../../i18n.js";
import { cardsOf, chipStack, handOf, handValue, seatOf, templateOf } from "./reading.js";

/** Your discard choice while you make it. */
const memory = { pick: { key: null, cards: [] } };

function pickKey(view, cards) {
  return `${view.hand_id}|${cards.join(",")}`;
}

export function handBlock(view, ctx) {
  const { h } = ctx;
  const me = seatOf(view, view.you);
  const hand = handOf(me);
  const codes = cardsOf(hand).map((c) => c.card).filter((c) => typeof c === "string");
  if (!me || !codes.length) return null;
  const template = templateOf(view, "discard");
  const spec = template?.params?.cards;
  const picking = Boolean(spec && Array.isArray(spec.subset_of));
  const key = pickKey(view, codes);
  if (memory.pick.key !== key) memory.pick = { key, cards: [] };
  const chosen = memory.pick.cards;

  const box = h("div", { class: `eot-hand${picking ? " eot-hand-picker" : ""}`, role: "group",
    "aria-label": picking ? t("Your hand: tap the cards to discard, in order") : t("Your hand"), "data-testid": "eot-hand" });
  const render = () => {
    // the card that had the focus keeps it through the redraw (else it would fall to the page)
    const focused = box.contains(document.activeElement) ? document.activeElement.dataset.code || null : null;
    const kept = codes.filter((c) => !chosen.includes(c));
    const cards = codes.map((code) => {
      const at = chosen.indexOf(code);
      const node = ctx.cardEl({ card: code, up: true }, { tag: picking ? "button" : "span" });
      node.classList.add("eot-card");
      if (code === hand.drawn) {
        node.classList.add("eot-new");
        node.append(h("span", { class: "eot-new-tag" }, t("new")));
      }
      if (picking) {
        node.type = "button";
        node.classList.add("pickable");
        node.setAttribute("aria-pressed", String(at >= 0));
        node.dataset.code = code;
        node.setAttribute("aria-label", at >= 0
          ? t("{card}: discard number {number}", { card: ctx.cardText(code), number: at + 1 })
          : t("{card}: keep", { card: ctx.cardText(code) }));
        if (at >= 0) node.append(h("span", { class: "order-badge", "aria-hidden": "true" }, String(at + 1)));
        node.addEventListener("click", () => {
          const i = chosen.indexOf(code);
          if (i >= 0) chosen.splice(i, 1);
          else if (chosen.length < spec.max) chosen.push(code);
          render();
        });
      }
      return node;
    });
    const value = picking ? handValue(kept) : typeof hand.value === "number" ? hand.value : handValue(codes);
    const bets = typeof me.bets === "number" ? me.bets : 0;
    // On a laptop this block is your place at the table (your seat box is not drawn), so it
    // says what the seat box would: your stack, your bets, the deal, the knock.
    const head = h("div", { class: "eot-hand-head" },
      h("span", { class: "eot-you" }, t("You")),
      me.role === "dealer" ? h("span", { class: "badge badge-dealer" }, t("Dealer")) : null,
      me.knocked ? h("span", { class: "tag tag-offer" }, t("knocked")) : null,
      h("span", { class: "eot-stack", title: t("Your stack") }, h("span", { class: "chip-icon", "aria-hidden": "true" }), ctx.chips(me.stack)),
      h("span", { class: `eot-bets${bets ? "" : " is-empty"}`, title: t("Your bets in front of you") },
        h("span", { class: "eot-bet-chips", "aria-hidden": "true" }, chipStack(h, bets, 8)), bets ? tn("{n} bet", "{n} bets", bets) : t("no bets left")),
      h("span", { class: "hand-value hand-value-big", title: picking ? t("Your hand's value after these discards") : t("Your hand's value"),
        "data-testid": "eot-value" }, String(value)),
      picking && chosen.length ? h("span", { class: "muted small" }, t("after discarding")) : null);
    const parts = [head, h("div", { class: "eot-hand-cards" }, cards)];
    if (picking) parts.push(pickerBar(ctx, spec, chosen, () => {
      memory.pick = { key: null, cards: [] };
    }));
    box.replaceChildren(...parts);
    if (focused) box.querySelector(`[data-code="${focused}"]`)?.focus();
  };
  render();
  return box;
}

function pickerBar(ctx, spec, chosen, sent) {
  const { h } = ctx;
  const ok = chosen.length >= spec.min && chosen.length <= spec.max;
  const label = chosen.length === 0 ? (spec.min === 0 ? t("Discard nothing") : t("Discard"))
    : t("Discard {count} ({card} on top)", { count: chosen.length, card: ctx.cardText(chosen[chosen.length - 1]) });
  const hint = chosen.length < spec.min
    ? tn("Pick at least {least}: you hold {n} card.", "Pick at least {least}: you hold {n} cards.", spec.subset_of.length, { least: spec.min })
    : chosen.length ? t("Tap a chosen card again to keep it.") : t("Tap the cards to discard; the last one picked ends on top.");
  // The order badges on the cards show the discard order; the button names the top card.
  return h("div", { class: "eot-picker" },
    h("button", { type: "button", class: "btn btn-primary btn-action eot-discard-btn", disabled: !ok, "data-testid": "eot-discard",
      "data-key-for": "discard",
      onclick: () => {
        const cards = [...chosen];
        sent();
        ctx.act({ kind: "discard", cards });
      } }, label),
    h("span", { class: "eot-hint muted small" }, hint));
}
