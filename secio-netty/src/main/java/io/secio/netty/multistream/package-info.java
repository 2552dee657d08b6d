/**
 * multistream-select 1.0.0, the protocol negotiation libp2p runs before secio on each connection and
 * again inside the secure channel to pick a stream muxer.
 *
 * <p>A libp2p connection, from the network side, while it is being upgraded:
 *
 * <pre>
 *   head -- multistream (picks /secio/1.0.0) -- multistream (picks the muxer) -- application
 *             becomes secio's decoder + handshake     stays until secio is done
 * </pre>
 *
 * <p>{@link io.secio.netty.multistream.Multistream} builds the handlers ({@code secioInitiator},
 * {@code secioResponder}, {@code initiator}, {@code responder}); {@link
 * io.secio.netty.multistream.MultistreamMessage} is the wire format; a failure is a {@link
 * io.secio.netty.multistream.MultistreamException} with a reason.
 */
package io.secio.netty.multistream;
