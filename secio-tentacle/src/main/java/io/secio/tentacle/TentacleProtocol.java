package io.secio.tentacle;

import io.netty.channel.ChannelHandler;
import io.secio.netty.negotiation.NegotiatedStreams;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * A protocol a tentacle session speaks ({@code docs/STREAMS.md} §8.2): its name, the versions this
 * side supports (ascending, as tentacle's version choice assumes), the handler each of its streams
 * the peer opens gets once protocol-select has chosen a version (this side's streams get the handler
 * given to {@link TentacleSession#openStream}), and the longest message it accepts.
 *
 * <pre>{@code
 * TentacleProtocol echo = TentacleProtocol.of("/test/echo", List.of("1", "2"), new ChannelInitializer<Channel>() {
 *   protected void initChannel(Channel stream) {
 *     stream.pipeline().addLast(new EchoHandler()); // reads and writes whole messages (ByteBuf)
 *   }
 * });
 * }</pre>
 *
 * <p>The handler is added to every stream of the protocol, so it must be sharable: {@code @Sharable},
 * or a {@code ChannelInitializer} that adds a new handler per stream. It sees one {@code ByteBuf} per
 * message, without the length prefix, and
 * each {@code ByteBuf} written is one message. Immutable and thread-safe.
 */
public final class TentacleProtocol {
  /** tentacle's message limit: {@code LengthDelimitedCodec}'s default, 8 MiB. */
  public static final int DEFAULT_MAX_MESSAGE_LENGTH_IN_BYTES = 8 * 1024 * 1024;

  private final String name;
  private final List<String> versions;
  private final ChannelHandler handler;
  private final int maxMessageLength;

  private TentacleProtocol(String name, List<String> versions, ChannelHandler handler, int maxMessageLength) {
    this.name = name;
    this.versions = versions;
    this.handler = handler;
    this.maxMessageLength = maxMessageLength;
  }

  /**
   * A protocol with tentacle's message limit.
   *
   * @param name the protocol's name, such as {@code /ckb/ping}; not empty
   * @param versions the versions this side supports, ascending; not empty
   * @param handler added to each stream of it the peer opens, once selected; sharable ({@link
   *     io.netty.channel.ChannelHandlerAdapter#isSharable()}, as Netty judges it)
   * @return the protocol
   * @throws IllegalArgumentException for an empty name or version list, a handler that is not
   *     sharable, or a name and versions too long for a protocol-select message
   */
  public static TentacleProtocol of(String name, List<String> versions, ChannelHandler handler) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a protocol has a name");
    }
    List<String> copy = List.copyOf(versions);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("a protocol has at least one version");
    }
    NegotiatedStreams.requireSharable(Objects.requireNonNull(handler, "handler"));
    int encoded = name.getBytes(StandardCharsets.UTF_8).length;
    for (String v : copy) {
      encoded += v.getBytes(StandardCharsets.UTF_8).length + 8;
    }
    if (encoded > TentacleConfig.MAX_SELECT_MESSAGE_LENGTH_IN_BYTES / 2) {
      throw new IllegalArgumentException("name and versions too long for a protocol-select message");
    }
    return new TentacleProtocol(name, copy, handler, DEFAULT_MAX_MESSAGE_LENGTH_IN_BYTES);
  }

  /**
   * This protocol with another message limit, both ways: a longer message read resets the stream,
   * a longer one written fails.
   *
   * @param bytes the longest message, at least 1
   * @return a new protocol
   */
  public TentacleProtocol withMaxMessageLength(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxMessageLength must be at least 1: " + bytes);
    }
    return new TentacleProtocol(name, versions, handler, bytes);
  }

  /** The protocol's name. */
  public String name() {
    return name;
  }

  /** The versions this side supports, in the order given (ascending). */
  public List<String> versions() {
    return versions;
  }

  /** The handler each of its streams gets. */
  public ChannelHandler handler() {
    return handler;
  }

  /** The longest message this protocol reads or writes, in bytes. */
  public int maxMessageLength() {
    return maxMessageLength;
  }

  @Override
  public String toString() {
    return name + versions;
  }
}
