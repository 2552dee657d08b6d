/**
 * The words of the secio protocol that every other package speaks: the algorithms a handshake
 * negotiates (exchanges, ciphers, hashes, with their wire names and sizes), the framing version a
 * cipher implies, and the one failure, {@link io.secio.protocol.SecioException}, with its reasons.
 * It imports nothing else of secio, so the crypto backends, the identity keys and the configuration
 * can all use it without depending on one another through it.
 */
package io.secio.protocol;
