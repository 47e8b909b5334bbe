// What the table page says about the table itself: a private table's invite link (to those the
// server gives it to) and the table's options.
import { api } from "./api.js";
import { $, fill, h, humanize, toast } from "./dom.js";
import { t } from "./i18n.js";
import { invite, room, summary, tableId } from "./table-context.js";

/** A private table: show its invite link to those the server gives it to (opener, players). */
export async function renderInvite() {
  if (!summary.private) return;
  let table;
  try {
    table = await api.table(tableId, invite);
  } catch {
    return;
  }
  const box = $("#invite-box");
  if (!table.invite_path) {
    box.hidden = true;
    return;
  }
  // a room's page shares the room's one link, the same all evening (its tables share its
  // invite), never the link of the table it plays at now, which closes at the next switch
  const path = new URL(table.invite_path, location.origin);
  const code = path.searchParams.get("invite");
  const link = room
    ? new URL(`/rooms/${encodeURIComponent(room.room_id)}${code ? `?invite=${encodeURIComponent(code)}` : ""}`, location.origin).href
    : path.href;
  const input = h("input", { class: "invite-link", readonly: true, value: link, "aria-label": t("Invite link"), onfocus: (e) => e.target.select() });
  const copy = h("button", { type: "button", class: "btn btn-small", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("Invite link copied."), "info");
    } catch {
      input.select();
      toast(t("Select the link and copy it."), "warn");
    }
  } }, t("Copy"));
  const words = room
    ? t("A private room: share this link to invite people. It stays the same for every game.")
    : t("A private table: share this link to invite people.");
  fill(box, h("p", { class: "small muted" }, words), h("div", { class: "invite-row" }, input, copy));
  box.hidden = false;
}

/** An option's name for people, in the page's language: the table's summary gives them
 *  (`option_labels`, app/rulebook/option_names.py); a key it lacks, humanized. */
export function optionLabel(name) {
  const labels = summary.option_labels || {};
  return Object.hasOwn(labels, name) ? labels[name] : humanize(name);
}

/** The table's options, as it was opened, in the words the server gives them
 * (app/rulebook/option_words.py): "Stakes 10 to 100 chips", "30 seconds to act". */
export function renderOptions() {
  const list = $("#options-list");
  fill(list, (summary.option_words || []).map((words) => h("li", {}, words.text)));
}
