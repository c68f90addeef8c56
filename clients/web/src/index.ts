// afteraction's browser library: a seat's work over the web transport.
export { connect } from "./lib/client.js";
export { seatKey, newSeatKey, type SeatKey } from "./lib/keys.js";
export { parseVkey, openCheckpoint, type ServerKey } from "./lib/crypto.js";
export { LogVerifier, WebSeat, BadLog, BadOpening, RefusedToSign, reasonOf, type SeatEvent } from "./lib/seat.js";
export * as msgpack from "./lib/msgpack.js";
export * as bytes from "./lib/bytes.js";
