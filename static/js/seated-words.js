// How many sit at a table, in words, for the lobby and the host's page. A table's own seats are
// `table_seats` (the seats drawn at the table); `max_seats` counts standing positions too (a
// Trente et Quarante table has standing room without limit), so it is used only when a table
// does not say. "2 seated of 7", "0 seated of 12, standing room", "3 seated of 7, 2 standing".
import { formatNumber, t, tn } from "./i18n.js";

/** The seated count of a table summary `t` ({seats, table_seats?, max_seats}), in words. */
export function seatedWords(table) {
  const seats = Array.isArray(table.seats) ? table.seats : [];
  const places = Number.isInteger(table.table_seats) ? table.table_seats : table.max_seats;
  const seated = seats.filter((s) => s.seat < places).length;
  const standing = seats.length - seated;
  const words = tn("{n} seated of {places}", "{n} seated of {places}", seated, { places: formatNumber(places) });
  if (!(places < table.max_seats)) return words;
  if (!standing) return t("{seated}, standing room", { seated: words });
  // its own statement: the extractor reads no call nested in another's arguments
  const standingWords = tn("{n} standing", "{n} standing", standing);
  return t("{seated}, {standing}", { seated: words, standing: standingWords });
}
