// The table's story in words, from the events the server sends (docs/protocol.md §6.6) or a
// hand record holds (§12): one set of words for the live log (table.js) and the replay
// (replay.js). A game's module may say its own events: `describeEvent(event, ctx)` returns a
// line, a list of lines, or null (nothing to say); `undefined` lets the words below speak.
// Each hand's result is the server's: these functions only put it in words, never work it out.

/** The table's own events (a sit, a leave, a top-up, a hand's start and end) in words. */
export function describeTableEvent(event, ctx) {
  const who = typeof event.name === "string" ? event.name : ctx.seatName(event.seat);
  switch (event.kind) {
    case "sit":
      return `${who} sat down in seat ${event.seat}${Number.isInteger(event.amount) ? ` with ${chipCount(event.amount, ctx)}` : ""}.`;
    case "leave":
      return `${who} left the table.`;
    case "top_up":
      return `${who} added ${chipCount(event.amount, ctx)}.`;
    case "hand_start":
      return `Hand ${event.number} is dealt.`;
    case "hand_end":
      return event.result ? resultLine(event.result, ctx) : "Hand over.";
    case "hand_void": // `number` is there when the story was restored after a restart
      return `${Number.isInteger(event.number) ? `Hand ${event.number}` : "The hand"} is void: ${event.reason || "stakes returned"}`;
    case "ready": // a friends' table waits for Ready (docs/protocol/socket.md §5.10)
      return `${who} is ready.`;
    case "deal_now":
      return `${who} deals the first hand.`;
    case "sat_out":
      return event.reason ? `${who} sits out: ${event.reason}` : `${who} sits out.`;
    case "came_back":
      return `${who} is back.`;
    case "time_bank": // More time (docs/protocol/socket.md §5.11)
      return `${who} takes ${Number.isInteger(event.seconds) ? event.seconds : "some"} more seconds from the time bank.`;
    case "room_switch": // a room's new table begins with it (docs/protocol/socket.md §5.12)
      return `The room switched from ${event.from_title || ctx.humanize(event.from_game || "")} to ${event.title || ctx.humanize(event.game || "")}.`;
    case "room_switch_next": // asked during a hand: the room moves on once it ends (§5.12)
      return `The room switches to ${event.title || ctx.humanize(event.game || "")} once this hand ends.`;
    default:
      return describeHostEvent(event, ctx);
  }
}

/** The host's actions at the table and the requests to sit (docs/protocol/socket.md §5.13). */
function describeHostEvent(event, ctx) {
  const host = typeof event.host?.name === "string" ? event.host.name : "The host";
  const who = typeof event.name === "string" ? event.name : "someone";
  switch (event.kind) {
    case "seat_request":
      return `${who} asks to sit in seat ${event.seat}.`;
    case "host_approve":
      return `${host} let ${who} in.`;
    case "host_refuse":
      return `${host} did not let ${who} sit.`;
    case "host_pause":
      return `${host} paused the table.`;
    case "host_resume":
      return `${host} resumed the table.`;
    case "host_unseat":
      return `${host} stood ${who} up.`;
    case "host_make_host":
      return `${who} hosts the table now.`;
    case "host_close":
      return `${host} closed the table.`;
    case "host_set_options": {
      const changed = Object.entries(event.options || {}).map(([k, v]) =>
        `${ctx.humanize(k).toLowerCase()} ${v === null ? "no limit" : typeof v === "boolean" ? (v ? "on" : "off") : v}`);
      return `${host} changed ${changed.join(", ") || "the options"}, from the next hand.`;
    }
    default:
      return undefined;
  }
}

/** "1 chip", "500 chips". */
export function chipCount(n, ctx) {
  return `${ctx.chips(n)} ${n === 1 ? "chip" : "chips"}`;
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
  if (!moved.length) return "Hand over: no chips changed hands.";
  return `Hand over: ${moved.map((p) => `${p.name} ${ctx.signed(p.net)}`).join(", ")}.`;
}

/** A game event without words of its module's: its kind, seat, amount and cards, plainly. */
export function describeAny(event, ctx) {
  const parts = [ctx.humanize(event.kind || "event")];
  if (Number.isInteger(event.seat)) parts.push(`— ${ctx.seatName(event.seat)}`);
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
        title: (p.lines || []).map((l) => `${l.reason}: ${signed(l.amount)}`).join("\n"),
      },
      h("span", { class: "settlement-name" }, p.name),
      left ? h("span", { class: "muted" }, " (left)") : null, " ", signed(p.net));
    })));
}

/** seat → net of the result, for the players still in the seat they played it from. */
export function resultDeltas(result, view) {
  if (!result || !Array.isArray(result.players)) return null;
  const here = new Map((view.seats || []).map((s) => [s.seat, s.player_id]));
  return new Map(result.players.filter((p) => here.get(p.seat) === p.player_id).map((p) => [p.seat, p.net]));
}
