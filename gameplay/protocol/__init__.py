"""What goes over the wire of `/ws/table/<id>/` (JSON text frames); built in `frames.py`.

Client -> server:
  {"type": "sync", "last": N}        after connecting and on any gap; N = -1 for a fresh snapshot
                                     (asked again within a second with nothing new at the table,
                                     the same snapshot comes back, its deadline_in moved on)
  {"type": "move", "action": "JC" | "redeal" | "pass", "n": N, "id": "<client move id>"}
                                     N: the last event number seen (required: a move without it
                                     is refused as `invalid`); a resend keeps its id. While the
                                     redeal question is open every seat answers "pass" (play) or,
                                     where its hand qualifies, "redeal"; N may be the number of the
                                     event that put the question or any later one
  {"type": "resign"}                 (the page asks for a confirmation first)
  {"type": "ping"}
A frame that cannot be read (binary, not JSON, nested: `inbound.read_frame`) is refused as
`invalid`; the socket stays open.

Server -> client:
  {"type": "snapshot", "n": N, "you": {"seat": "S" | null}, "table": META, "view": VIEW | null}
  {"type": "event", "n": N, "kind": "sit" | "start" | "move" | "end", "table": META, "view": VIEW,
   "seat": "E" | null, "action": "7H" | "redeal" | "pass" | "play", "trick": {"leader", "cards", "winner"},
   "deal_end": {"outcome", "points", "eyes", "new_deal"}, "result": {...}}   (optional keys)
  {"type": "presence", "table": META}                   unnumbered: connections and grace
  {"type": "ack", "id": ..., "n": N, "duplicate": bool}  to the mover only
  {"type": "refused", "id": ..., "code": ..., "message": "..."}   to the asking socket only
  {"type": "pong"}
  {"type": "refused", "id": null, "code": "too_fast", "message": "...", "retry_in": S}
                                     over the frame limits (gameplay/tables/flood.py): then closed with 4429;
                                     the page shows the message and reconnects after S seconds
  {"type": "refused", "id": null, "code": "too_large", "message": "..."}
                                     a frame over GAMEPLAY_FRAME_MAX_BYTES, not read: then closed with 1009

VIEW is the engine's `Observation.to_json()` for that viewer (own hand only; spectators none) plus
`can_redeal`, `review_tricks`, `order` (play order) and, for spectators of a table with the
one-deal-delay setting, `previous_hands`. In the redeal phase (`phase` "redeal") `to_move` is null
for everyone, `legal` is the seat's own answers until it has answered, and `answered` lists the
seats that have answered "play"; the question's clock runs out as "play" for the rest, in one event
with `"seat": null, "action": "play"`. META: id, status, seats (name, bot, connected, grace_left),
deadline_in (seconds left for the seat to move, or for the redeal question), move_seconds, result.
Cards appear only as notation strings; no field carries card ints.
"""
