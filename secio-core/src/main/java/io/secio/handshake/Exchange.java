package io.secio.handshake;

/**
 * An Exchange as both dialects carry it (docs/PROTOCOL.md section 7): the sender's ephemeral public
 * key and its signature over both Proposes and that key. Decoded ones have both fields present and
 * non-empty.
 */
record Exchange(byte[] epubkey, byte[] signature) {}
