/**
 * The molecule primitives (tables, fixvecs, dynvecs of u32 little-endian numbers) that the tentacle
 * handshake's messages ({@code io.secio.handshake}) and tentacle's protocol-select ({@code
 * io.secio.tentacle}) are built of: one codec for both. Exported only to {@code io.secio.tentacle};
 * not API.
 */
package io.secio.molecule;
