/**
 * mplex ({@code /mplex/6.7.0}): {@link io.secio.streams.mplex.MplexHandler} on a connection, its
 * bounds ({@link io.secio.streams.mplex.MplexConfig}) and its failures ({@link
 * io.secio.streams.mplex.MplexException}), with the streams of {@code io.secio.streams}
 * ({@code docs/STREAMS.md} §9).
 */
package io.secio.streams.mplex;
