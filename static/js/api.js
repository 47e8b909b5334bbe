// The REST API's calls the lobby and the table pages make (docs/protocol.md §3 to §4.5), each through http.js.
import { request } from "./http.js";

/** A call with `body` (if any) as JSON. */
const send = (method, path, body, headers = {}) => request(method, path, { body, headers });

export const api = {
  /** The signed-in player, or null when not signed in (401). */
  async me() {
    try {
      return await send("GET", "/api/me");
    } catch (err) {
      if (err.status === 401) return null;
      throw err;
    }
  },
  signIn: (name, joinCode) =>
    send("POST", "/api/session", joinCode ? { name, join_code: joinCode } : { name }),
  games: () => send("GET", "/api/games"),
  tables: () => send("GET", "/api/tables"),
  /** One table; `invite` (a private table's invite code) lets an invited visitor see it. */
  table: (id, invite) =>
    send("GET", `/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  openTable: (game, name, options, isPrivate = false) =>
    send("POST", "/api/tables", isPrivate ? { game, name, options, private: true } : { game, name, options }),
  /** A room (one link for the evening; its first game and options): {room_id, table_id, url}. */
  openRoom: (game, name, options, isPrivate = false) =>
    send("POST", "/api/rooms", isPrivate ? { game, name, options, private: true } : { game, name, options }),
  /** The room's host hands it to a player seated at its table. */
  handRoomOver: (roomId, playerId) =>
    send("POST", `/api/rooms/${encodeURIComponent(roomId)}/host`, { player_id: playerId }),
  /** Seat a bot playing at `level` (random, steady or best: docs/analysis.md §5). */
  addBot: (id, level = "steady") => send("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { level }),
  /** The opener closes the table for good (no other person may be seated). */
  closeTable: (id) => send("POST", `/api/tables/${encodeURIComponent(id)}/close`, {}),
  /** The host seats a bot with the host's token (the admin page keeps it in this tab). */
  hostAddBot: (id, token, level = "steady") =>
    send("POST", `/api/admin/tables/${encodeURIComponent(id)}/bots`, { level }, { Authorization: `Bearer ${token}` }),
  /** A personal recovery link for another device: {code, link}; a new one cancels the old. */
  recoveryLink: () => send("POST", "/api/me/recovery", {}),
  recover: (code) => send("POST", "/api/session/recover", { code }),
};
