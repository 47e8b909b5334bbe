"""The store: what the runtime and the API read from and write to the database (players,
the host's settings, seats, tables, their recovery at start-up, hands, chat).

Each function takes a session inside the caller's transaction (the writer's, or a request's)
and moves chips only through :mod:`app.db.ledger`. The writer's jobs are these functions
(``writer.submit(store.hand_finished, finished)``); each lives in the module of its subject,
and this package names them all, so that a caller writes ``store.sit`` whichever it is.
"""

from app.db.store.blocks import Blocked, BlockRefused, block, blocks_of, unblock
from app.db.store.chat import (
    StoredChat,
    chat_muted,
    chat_posted,
    chat_removed,
    chat_unmuted,
    load_chat,
)
from app.db.store.hands import FinishedHand, hand_finished, hand_started, mark_void
from app.db.store.host import (
    fund_house,
    get_setting,
    grant_or_take,
    record_host_action,
    set_setting,
)
from app.db.store.players import (
    create_bot,
    create_player,
    new_id,
    new_recovery_code,
    player_by_token,
    redeem_recovery_code,
    set_language,
    sign_up,
)
from app.db.store.recovery import (
    ClosedTable,
    StoredSeat,
    StoredTable,
    close_unrestorable_table,
    load_table,
    open_table_ids,
    void_unfinished_hands,
)
from app.db.store.rooms import (
    Moved,
    PlayerRoom,
    StoredRoom,
    Switch,
    SwitchSeat,
    close_room,
    load_room,
    open_rooms,
    player_rooms,
    room_table_ids,
    set_room_host,
    switch_room,
)
from app.db.store.seats import leave, sit, top_up
from app.db.store.table_host import set_table_host, set_table_options, table_host_acted
from app.db.store.tables import create_table, save_table_state, set_table_status

__all__ = [
    "BlockRefused",
    "Blocked",
    "ClosedTable",
    "FinishedHand",
    "Moved",
    "PlayerRoom",
    "StoredChat",
    "StoredRoom",
    "StoredSeat",
    "StoredTable",
    "Switch",
    "SwitchSeat",
    "block",
    "blocks_of",
    "chat_muted",
    "chat_posted",
    "chat_removed",
    "chat_unmuted",
    "close_room",
    "close_unrestorable_table",
    "create_bot",
    "create_player",
    "create_table",
    "fund_house",
    "get_setting",
    "grant_or_take",
    "hand_finished",
    "hand_started",
    "leave",
    "load_chat",
    "load_room",
    "load_table",
    "mark_void",
    "new_id",
    "new_recovery_code",
    "open_rooms",
    "open_table_ids",
    "player_by_token",
    "player_rooms",
    "record_host_action",
    "redeem_recovery_code",
    "room_table_ids",
    "save_table_state",
    "set_language",
    "set_room_host",
    "set_setting",
    "set_table_host",
    "set_table_options",
    "set_table_status",
    "sign_up",
    "sit",
    "switch_room",
    "table_host_acted",
    "top_up",
    "unblock",
    "void_unfinished_hands",
]
