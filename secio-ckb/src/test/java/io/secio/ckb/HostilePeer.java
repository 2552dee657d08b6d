package io.secio.ckb;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import io.secio.ckb.message.Identify;
import io.secio.ckb.message.IdentifyMessage;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.NegotiationCompletionEvent;
import io.secio.streams.StreamChannel;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The library's hostile peer for tests: a bare tentacle session (no-secio mode) that registers every
 * CKB protocol name, records every message it receives, and writes any bytes on any protocol's
 * stream, raw (a compress-codec protocol's flag byte is the test's to write). It follows no rule
 * unless a test makes it.
 */
final class HostilePeer {
  final TentacleConfig config;
  private final Recorder recorder = new Recorder();
  private final Map<String, Channel> streams = new HashMap<>();
  private final Map<String, Deque<byte[]>> received = new HashMap<>();
  private TentacleSession session;

  HostilePeer() {
    this(List.of(CkbProtocol.VERSION), Set.of());
  }

  /** A peer offering {@code versions} of every protocol but {@code lacking}. */
  HostilePeer(List<String> versions, Set<CkbProtocol> lacking) {
    TentacleConfig.Builder b = TentacleConfig.builder();
    for (CkbProtocol p : CkbProtocol.values()) {
      if (lacking.contains(p)) {
        continue;
      }
      b.protocol(TentacleProtocol.of(p.protocolName(), versions, recorder).withMaxMessageLength(16 * 1024 * 1024));
    }
    config = b.build();
  }

  /** Its handler as the dialer. */
  ChannelHandler dialer() {
    return Tentacle.insecureClient(config);
  }

  /** Its handler as the listener. */
  ChannelHandler listener() {
    return Tentacle.insecureServer(config);
  }

  void attach(Channel connection) {
    session = Tentacle.sessionFuture(connection).getNow();
  }

  /** Opens {@code protocol} (the pair must be pumped for it to complete). */
  Future<StreamChannel> open(CkbProtocol protocol) {
    return session.openStream(protocol.protocolName(), recorder);
  }

  /** Writes {@code bytes} as one message on the open stream of {@code protocol}. */
  void send(CkbProtocol protocol, byte[] bytes) {
    Channel stream = streams.get(protocol.protocolName());
    if (stream == null) {
      throw new IllegalStateException(protocol + " is not open");
    }
    stream.writeAndFlush(Unpooled.wrappedBuffer(bytes));
  }

  /** As {@link #send}, a compress-codec protocol's message with flag 0x00. */
  void sendRaw(CkbProtocol protocol, byte[] payload) {
    byte[] message = new byte[payload.length + 1];
    System.arraycopy(payload, 0, message, 1, payload.length);
    send(protocol, message);
  }

  /** Sends an Identify: the message's listen addresses and observed address, the Identify's fields. */
  void identify(String name, long flags) {
    send(CkbProtocol.IDENTIFY, IdentifyMessage.encode(List.of(), Multiaddr.parse("/ip4/203.0.113.7/tcp/50000"),
        new Identify(flags, name, "hostile/1").encode()));
  }

  boolean isOpen(CkbProtocol protocol) {
    Channel c = streams.get(protocol.protocolName());
    return c != null && c.isActive();
  }

  /** The messages received on {@code protocol} so far, oldest first, removed. */
  List<byte[]> take(CkbProtocol protocol) {
    Deque<byte[]> q = received.computeIfAbsent(protocol.protocolName(), k -> new ArrayDeque<>());
    List<byte[]> out = List.copyOf(q);
    q.clear();
    return out;
  }

  /** The texts received on the disconnect-message stream, removed. */
  List<String> goodbyes() {
    return take(CkbProtocol.DISCONNECT_MESSAGE).stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
  }

  @ChannelHandler.Sharable
  private final class Recorder extends ChannelInboundHandlerAdapter {
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      // The peer's streams come negotiated; ours negotiate behind this handler.
      Tentacle.protocol(ctx.channel()).ifPresent(p -> streams.put(p.name(), ctx.channel()));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof NegotiationCompletionEvent done && done.isSuccess()) {
        streams.put(done.protocol().name(), ctx.channel());
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        String name = Tentacle.protocol(ctx.channel()).orElseThrow().name();
        received.computeIfAbsent(name, k -> new ArrayDeque<>()).add(ByteBufUtil.getBytes(buf));
      } finally {
        buf.release();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // A hostile peer does not care.
    }
  }
}
