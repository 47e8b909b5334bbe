// The table's story in words, from the events the server sends (docs/protocol.md §6.6) or a
// hand record holds (§12): one set of words for the live log (table.js) and the replay
// (replay.js). A game's module may say its own events: `describeEvent(event, ctx)` returns a
// line, a list of lines, or null (nothing to say); `undefined` lets the words below speak.
// Each hand's result is the server's: these functions only put it in words, never work it out.
// The words are the reader's (static/js/i18n.js): each client words the same structured events
// in its own language, so two players at one table may read the story in two languages.
import { said } from "./engine-words.js";
import { t, tn } from "./i18n.js";

/** The table's own events (a sit, a leave, a top-up, a hand's start and end) in words. */
export function describeTableEvent(event, ctx) {
  const who = typeof event.name === "string" ? event.name : ctx.seatName(event.seat);
  switch (event.kind) {
    case "sit":
      return Number.isInteger(event.amount)
        ? t("{name} sat down in seat {seat} with {chips}.", { name: who, seat: event.seat, chips: chipCount(event.amount, ctx) })
        : t("{name} sat down in seat {seat}.", { name: who, seat: event.seat });
    case "leave":
      return t("{name} left the table.", { name: who });
    case "top_up":
      return t("{name} added {chips}.", { name: who, chips: chipCount(event.amount, ctx) });
    case "hand_start":
      return t("Hand {number} is dealt.", { number: event.number });
    case "hand_end":
      return event.result ? resultLine(event.result, ctx) : t("Hand over.");
    case "hand_void": { // `number` is there when the story was restored after a restart
      const reason = event.reason || t("stakes returned");
      return Number.isInteger(event.number)
        ? t("Hand {number} is void: {reason}", { number: event.number, reason })
        : t("The hand is void: {reason}", { reason });
    }
    case "ready": // a friends' table waits for Ready (docs/protocol/socket.md §5.10)
      return t("{name} is ready.", { name: who });
    case "deal_now":
      return t("{name} deals the first hand.", { name: who });
    case "sat_out":
      return event.reason ? t("{name} sits out: {reason}", { name: who, reason: event.reason }) : t("{name} sits out.", { name: who });
    case "came_back":
      return t("{name} is back.", { name: who });
    case "time_bank": // More time (docs/protocol/socket.md §5.11)
      return Number.isInteger(event.seconds)
        ? tn("{name} takes {n} more seconds from the time bank.", "{name} takes {n} more seconds from the time bank.", event.seconds, { name: who })
        : t("{name} takes some more seconds from the time bank.", { name: who });
    case "room_switch": // a room's new table begins with it (docs/protocol/socket.md §5.12)
      return t("The room switched from {from} to {to}.", {
        from: event.from_title || ctx.humanize(event.from_game || ""), to: event.title || ctx.humanize(event.game || "") });
    case "room_switch_next": // asked during a hand: the room moves on once it ends (§5.12)
      return t("The room switches to {title} once this hand ends.", { title: event.title || ctx.humanize(event.game || "") });
    default:
      return describeHostEvent(event, ctx);
  }
}

/** The host's actions at the table and the requests to sit (docs/protocol/socket.md §5.13). */
function describeHostEvent(event, ctx) {
  const host = typeof event.host?.name === "string" ? event.host.name : t("The host");
  const who = typeof event.name === "string" ? event.name : t("someone");
  switch (event.kind) {
    case "seat_request":
      return t("{name} asks to sit in seat {seat}.", { name: who, seat: event.seat });
    case "host_approve":
      return t("{host} let {name} in.", { host, name: who });
    case "host_refuse":
      return t("{host} did not let {name} sit.", { host, name: who });
    case "host_pause":
      return t("{host} paused the table.", { host });
    case "host_resume":
      return t("{host} resumed the table.", { host });
    case "host_unseat":
      return t("{host} stood {name} up.", { host, name: who });
    case "host_make_host":
      return t("{name} hosts the table now.", { name: who });
    case "host_close":
      return t("{host} closed the table.", { host });
    case "host_set_options": {
      const changed = Object.entries(event.options || {}).map(([k, v]) => t("{option} {value}", {
        option: (ctx.optionLabel ? ctx.optionLabel(k) : ctx.humanize(k)).toLowerCase(),
        value: v === null ? t("no limit") : typeof v === "boolean" ? (v ? t("on") : t("off")) : v,
      }));
      return changed.length
        ? t("{host} changed {changes}, from the next hand.", { host, changes: changed.join(", ") })
        : t("{host} changed the options, from the next hand.", { host });
    }
    default:
      return undefined;
  }
}

/** "1 chip", "500 chips". */
export function chipCount(n, ctx) {
  return tn("{n} chip", "{n} chips", n, { n: ctx.chips(n) });
}

export const TABLE_EVENTS = new Set([
  "sit", "leave", "top_up", "hand_start", "hand_end", "hand_void", "ready", "deal_now", "sat_out", "came_back", "time_bank", "room_switch",
  "room_switch_next",
  "seat_request", "host_approve", "host_refuse", "host_pause", "host_resume", "host_unseat", "host_make_host",
  "host_close", "host_set_options",
]);

/** "Hand over: Ada +50, Ben −41." — the server's nets, every player who took part. */
export function resultLine(result, ctx) {
  const players = Array.isArray(result?.players) ? result.players : [];
  const moved = players.filter((p) => p.net !== 0);
  if (!moved.length) return t("Hand over: no chips changed hands.");
  const nets = moved.map((p) => t("{name} {net}", { name: p.name, net: ctx.signed(p.net) })).join(", ");
  return t("Hand over: {nets}.", { nets });
}

/** A game event without words of its module's: its kind, seat, amount and cards, plainly. */
export function describeAny(event, ctx) {
  const parts = [ctx.humanize(event.kind || "event")];
  if (Number.isInteger(event.seat)) parts.push(t("— {name}", { name: ctx.seatName(event.seat) }));
  if (typeof event.amount === "number") parts.push(ctx.chips(event.amount));
  const cards = [event.card, ...(Array.isArray(event.cards) ? event.cards : [])].filter((c) => typeof c === "string");
  if (cards.length) parts.push(cards.map(ctx.cardText).join(" "));
  return `${parts.join(" ")}.`;
}

/** The lines for one event: the module's words, else the table's, else the plain ones. */
export function describe(event, module, ctx) {
  if (!event || typeof event.kind !== "string") return [];
  let said;
  if (!TABLE_EVENTS.has(event.kind) && module && typeof module.describeEvent === "function") {
    try {
      said = module.describeEvent(event, ctx);
    } catch (err) {
      console.error("describeEvent failed", err);
    }
  }
  if (said === undefined) said = describeTableEvent(event, ctx);
  if (said === undefined) said = event.kind === "shuffle" ? null : describeAny(event, ctx);
  if (said === null || said === undefined) return [];
  return (Array.isArray(said) ? said : [said]).filter((line) => typeof line === "string" && line);
}

/** The result box: "Hand settled" (or "Last hand"), every player's net, its parts on hover;
 *  a player no longer in the seat they played it from is marked "(left)". */
export function renderResultBox(box, result, { h, fill, signed, title, view }) {
  const players = Array.isArray(result?.players) ? result.players : [];
  if (!players.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const here = new Map((view?.seats || []).map((s) => [s.seat, s.player_id]));
  fill(box,
    h("span", { class: "settlement-title" }, title),
    h("ul", { class: "settlement-list" }, players.map((p) => {
      const left = view && here.get(p.seat) !== p.player_id;
      const dataset = { seat: p.seat, delta: p.net, player: p.player_id };
      if (left) dataset.left = "yes";
      return h("li", {
        class: p.net > 0 ? "delta-up" : p.net < 0 ? "delta-down" : "",
        dataset,
        title: (p.lines || []).map((l) => `${said(l.reason_coded, {}, l.reason)}: ${signed(l.amount)}`).join("\n"),
      },
      h("span", { class: "settlement-name" }, p.name),
      left ? h("span", { class: "muted" }, " ", t("(left)")) : null, " ", signed(p.net));
    })));
}

/** seat → net of the result, for the players still in the seat they played it from. */
export function resultDeltas(result, view) {
  if (!result || !Array.isArray(result.players)) return null;
  const here = new Map((view.seats || []).map((s) => [s.seat, s.player_id]));
  return new Map(result.players.filter((p) => here.get(p.seat) === p.player_id).map((p) => [p.seat, p.net]));
}
