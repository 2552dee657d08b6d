/**
 * A libp2p connection over secio: {@link io.secio.libp2p.Libp2p} puts it in a pipeline, {@link
 * io.secio.libp2p.Libp2pSession} opens streams with a protocol negotiated on each, requests the
 * peer's {@link io.secio.libp2p.IdentifyRecord} and pings ({@code docs/STREAMS.md} §10).
 */
package io.secio.libp2p;
