/**
 * Streams of a multiplexed connection as Netty child channels: {@link io.secio.streams.StreamChannel}
 * (one per stream, with its own pipeline), {@link io.secio.streams.StreamChannelBootstrap} (opens
 * outbound streams on whichever muxer the connection's pipeline holds) and {@link
 * io.secio.streams.StreamResetException}. Inbound streams reach the handler given to the muxer, for
 * example {@code YamuxHandler.server(config, initializer)}. See {@code docs/STREAMS.md}.
 */
package io.secio.streams;
