/**
 * Netty pipeline handlers for secio: a thin adapter around the I/O-free handshake engine and the frame
 * sealer and opener of {@code secio-core}.
 *
 * <p>A secured pipeline, from the network side:
 *
 * <pre>
 *   head -- {@link io.secio.netty.SecioFrameDecoder} -- {@link io.secio.netty.SecioHandshakeHandler} -- application
 *                                              (becomes {@link io.secio.netty.SecioFrameCodec} on completion)
 * </pre>
 *
 * <p>{@link io.secio.netty.Secio#client} and {@link io.secio.netty.Secio#server} add all of it in one
 * line; {@link io.secio.netty.Transports} picks native epoll or NIO.
 */
package io.secio.netty;
