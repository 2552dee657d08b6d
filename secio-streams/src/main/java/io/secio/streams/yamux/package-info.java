/**
 * yamux on Netty: {@link io.secio.streams.yamux.YamuxHandler} (a session on a connection, with each
 * stream a {@link io.secio.streams.StreamChannel}), {@link io.secio.streams.yamux.YamuxConfig} (its
 * limits and timers, with the {@code tentacle()} and {@code libp2p()} profiles) and {@link
 * io.secio.streams.yamux.YamuxException} (why a session ended). The frame format and every rule are
 * in {@code docs/STREAMS.md}.
 */
package io.secio.streams.yamux;
