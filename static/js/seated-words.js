// How many sit at a table, in words, for the lobby and the host's page. A table's own seats are
// `table_seats` (the seats drawn at the table); `max_seats` counts standing positions too (a
// Trente et Quarante table has standing room without limit), so it is used only when a table
// does not say. "2 seated of 7", "0 seated of 12, standing room", "3 seated of 7, 2 standing".

/** The seated count of a table summary `t` ({seats, table_seats?, max_seats}), in words. */
export function seatedWords(t) {
  const seats = Array.isArray(t.seats) ? t.seats : [];
  const places = Number.isInteger(t.table_seats) ? t.table_seats : t.max_seats;
  const seated = seats.filter((s) => s.seat < places).length;
  const standing = seats.length - seated;
  const words = `${seated} seated of ${places}`;
  if (!(places < t.max_seats)) return words;
  return `${words}, ${standing ? `${standing} standing` : "standing room"}`;
}
