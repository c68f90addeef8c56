// afteraction's browser library: a seat's work over the web transport.
export { connect } from "./lib/client.js";
export { seatKey, newSeatKey, type SeatKey } from "./lib/keys.js";
export { parseVkey, openCheckpoint, type ServerKey } from "./lib/crypto.js";
// the server's key history (SPEC.md 4.6): which keys a pinned key trusts after rotations, a game's key
export { parseKeyHistory, trustedKeys, keyToPin, gameKey } from "./lib/keyhistory.js";
export { LogVerifier, WebSeat, BadLog, BadOpening, RefusedToSign, reasonOf, type SeatEvent } from "./lib/seat.js";
export * as msgpack from "./lib/msgpack.js";
export * as bytes from "./lib/bytes.js";
// map-first play: a decision's choices indexed by the pieces and places their names refer to
export { MapChoices, idsOf, type Named, type Click } from "./lib/mapplay.js";
// a form for any answer of a decision, built from the command's message
export { answerForm, actionOf, commandOf as commandOfAction } from "./lib/form.js";
// how to put what a server or a log says on a page as text, and draw a board picture inertly
export { h, svg, picture, type Picture } from "./lib/dom.js";
// the generated messages and services (proto/afteraction/v1)
export { CommandSchema, type Command } from "./gen/afteraction/v1/command_pb.js";
export { GameService, type YourDecision, type CommandName } from "./gen/afteraction/v1/game_service_pb.js";
export { AuditService } from "./gen/afteraction/v1/audit_service_pb.js";
