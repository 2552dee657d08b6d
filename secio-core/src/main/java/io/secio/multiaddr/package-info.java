/**
 * Multiaddrs, in the binary form identify and CKB's discovery carry and the text form people write,
 * with tentacle's rules for what a peer may send ({@link io.secio.multiaddr.Multiaddr}).
 */
package io.secio.multiaddr;
