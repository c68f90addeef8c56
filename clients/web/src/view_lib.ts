// What the replay page of `aar view` takes from this library (built into ../cli/view_lib.js as the
// global aarLib by build.mjs): SPEC.md 7.4's Ed25519 rule, the seat cosignatures of SPEC.md 4.5
// the opening of sealed values with the published secret (SPEC.md 6.2, 6.5) and canonical msgpack
// (SPEC.md 1.1).
export { keyProblem, pointCheck, signatureProblem, verifySignature } from "./lib/ed25519.js";
export { seatCosignatures } from "./lib/cosign.js";
export { openSealed } from "./lib/aead.js";
export { decode, encode, strictDecode } from "./lib/msgpack.js";
