// Greek 31's dealer in the middle of the table (static/js/games/greek-31.js): the dealer named
// beside the DEALER badge with the count of the deal, and the dealer's hand, large: backs for the
// others while it is hidden; for the dealer, each card a button that stands keeping it face down
// (or, without ctx.act, the generated control for it), lit together with that control.
import { t, tn } from "../../i18n.js";
import { cardsOf, concealChoice, fourteenWord, handDealer, handOf, isSeat, labelWords, ordinal, standTemplate } from "./reading.js";

/**
 * The dealer, named beside the DEALER badge, and the dealer's hand, large: backs for the others
 * while it is hidden, clickable to conceal. The badge names `view.dealer` — the field the seat's
 * badge comes from too (`seatRole` below), so the two never disagree. Between hands that is who
 * deals next; when the deal has just passed, the cards shown are the last dealer's, said so.
 * `revealed`: the card the dealer kept face down in the hand just shown (remembered by the
 * module), marked "was hidden".
 */
export function dealerArea(view, ctx, revealed) {
  const { h } = ctx;
  const owner = handDealer(view); // whose dealer's hand is on the table
  const dealer = isSeat(view.dealer) ? view.dealer : null;
  if (!isSeat(owner) && dealer === null) return null;
  const you = owner === view.you;
  const hand = isSeat(owner) ? handOf(view, owner) : null;
  const cards = cardsOf(hand);
  const inHand = ["staking", "dealer", "players"].includes(view.phase) || Boolean(view.last_hand);
  const dealt = typeof view.hands_dealt === "number" ? view.hands_dealt : 0;
  const passed = Boolean(view.last_hand) && owner !== dealer; // the deal has just passed
  const upcoming = passed || !(view.last_hand || view.hand_id);
  const thisHand = upcoming ? dealt + 1 : dealt;
  const dealerIsYou = dealer !== null && dealer === view.you;
  const label = dealer === null ? null : h("div", { class: "bank-label" },
    h("span", { class: "badge badge-dealer" }, t("Dealer")), " ",
    h("strong", { "data-testid": "dealer-name", dataset: { seat: dealer } }, dealerIsYou ? t("You") : ctx.seatName(dealer)),
    thisHand > 0 ? h("span", { class: "muted", "data-testid": "deal-count" }, " · ", dealCount(thisHand, upcoming, dealerIsYou)) : null);
  if (!isSeat(owner) || !inHand || (!cards.length && view.phase === "staking")) {
    return h("div", { class: "bank-area g31-dealer" }, label);
  }
  const ownerLine = passed
    ? h("p", { class: "muted small g31-hand-owner", "data-testid": "dealer-hand-owner" },
      you ? t("Your hand, as the last dealer") : t("{name}'s hand, as the last dealer", { name: ctx.seatName(owner) }))
    : null;

  const conceal = you && view.phase === "dealer" ? concealChoice(view) : null;
  const row = h("div", { class: "card-row g31-dealer-cards", "data-testid": "dealer-cards" });
  cards.forEach((card, index) => {
    const pick = conceal?.includes(index) && card.card;
    const node = ctx.cardEl(card, pick ? { tag: "button" } : {});
    node.dataset.index = String(index);
    const hiddenNow = !card.up && (view.phase === "players" || view.phase === "dealer") && view.dealer_outcome === "other";
    const wasHidden = view.last_hand && view.last_hand.outcome === "other" && revealed === index;
    if (hiddenNow || wasHidden) {
      node.classList.add(hiddenNow ? "g31-concealed" : "g31-revealed");
      node.append(h("span", { class: "g31-hidden-tag", "aria-hidden": "true" }, hiddenNow ? t("hidden") : t("was hidden")));
    }
    if (pick) {
      node.type = "button";
      node.classList.add("pickable", "g31-pick");
      const keep = t("Stand and keep {card} face down", { card: ctx.cardText(card.card) });
      node.setAttribute("aria-label", keep);
      node.title = keep;
      node.append(h("span", { class: "g31-pick-tag", "aria-hidden": "true" }, t("hide")));
      node.addEventListener("click", () => (typeof ctx.act === "function" ? ctx.act({ kind: "stand", conceal: index }) : chooseConceal(index)));
      node.addEventListener("mouseenter", () => markConceal(index, true));
      node.addEventListener("mouseleave", () => markConceal(index, false));
      node.addEventListener("focus", () => markConceal(index, true));
      node.addEventListener("blur", () => markConceal(index, false));
    }
    row.append(node);
  });

  const known = typeof hand?.value === "number" || hand?.label === "bust";
  const value = known
    ? h("span", { class: `hand-value hand-value-big${hand.label === "31" || hand.label === "14" || hand.label === "pair of twos" ? " g31-value-hot" : ""}`,
      title: you && !view.last_hand && view.dealer_outcome !== "31" && view.dealer_outcome !== "14" && view.dealer_outcome !== "bust"
        ? t("Your hand (only you know it)") : t("The dealer's hand") },
      labelWords(hand.label ?? hand.value))
    : null;

  let caption = null;
  const count = cards.length;
  if (view.phase === "dealer") {
    if (you && conceal) {
      caption = count === 1 ? t("To stand, click your card: it stays face down.")
        : t("To stand, click the card to keep face down: the others see the rest.");
    } else if (you && standTemplate(view)) {
      caption = hand?.label === "31" ? t("You hold 31: stand to show it and collect every stake.")
        : t("You hold {label}: stand to show it — {rule}.", { label: labelWords(hand?.label), rule: fourteenWord(view) });
    } else if (you) caption = t("Only you see these cards.");
    else caption = tn("{n} card drawn, seen by the dealer alone", "{n} cards drawn, seen by the dealer alone", count);
  } else if (view.phase === "players" && view.dealer_outcome === "other") {
    caption = you ? t("Marked hidden: face down until the showdown.")
      : tn("{n} card: one kept face down until the showdown", "{n} cards: one kept face down until the showdown", count);
  }
  return h("div", { class: "bank-area g31-dealer" }, label, ownerLine,
    h("div", { class: "bank-cards" }, row, value),
    caption ? h("p", { class: "muted small g31-caption", "data-testid": "dealer-caption" }, caption) : null);
}

/** "deals next: third hand of your deal", "11th hand of the deal". */
function dealCount(n, upcoming, yours) {
  const which = ordinal(n);
  if (upcoming) return yours ? t("deals next: {ordinal} hand of your deal", { ordinal: which }) : t("deals next: {ordinal} hand of the deal", { ordinal: which });
  return yours ? t("{ordinal} hand of your deal", { ordinal: which }) : t("{ordinal} hand of the deal", { ordinal: which });
}

/** Without ctx.act: stand concealing card `index` through the generated control for it. */
function chooseConceal(index) {
  const action = document.querySelector('#controls .action[data-kind="stand"]');
  if (!action) return;
  const button = action.querySelector(`button[data-value="${index}"]`);
  if (button) {
    button.click();
    return;
  }
  // More than six cards: the controls show a select and one button.
  const select = action.querySelector('select[data-param="conceal"]');
  const submit = action.querySelector("button[type=submit]");
  if (select && submit && select.options[index]) {
    select.value = select.options[index].value; // the options follow one_of: 0, 1, 2…
    submit.click();
    return;
  }
  // One card: the only choice is fixed, and the button says so ("Stand · hide 9♦").
  action.querySelector('button[data-kind="stand"]')?.click();
}

/** Hovering a card lights its control and the other way round. */
function markConceal(index, on) {
  for (const el of document.querySelectorAll(`#controls .action[data-kind="stand"] button[data-value="${index}"], .g31-dealer-cards [data-index="${index}"]`)) {
    el.classList.toggle("g31-marked", on);
  }
}

/** Hovering a "hide 9♦" control lifts that card in the middle. */
function onControlHover(event) {
  const target = event.target instanceof Element ? event.target : null;
  const button = target ? target.closest('#controls .action[data-kind="stand"] button[data-value]') : null;
  if (!button) return;
  const card = document.querySelector(`.g31-dealer-cards [data-index="${button.dataset.value}"]`);
  if (card) card.classList.toggle("g31-marked", event.type === "mouseover");
}
document.addEventListener("mouseover", onControlHover);
document.addEventListener("mouseout", onControlHover);
