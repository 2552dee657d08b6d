package io.secio.ckb.interop;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import io.secio.Dialect;
import io.secio.SecioConfig;
import io.secio.ckb.AddressBook;
import io.secio.ckb.Ckb;
import io.secio.ckb.CkbConfig;
import io.secio.ckb.CkbEvent;
import io.secio.ckb.CkbSession;
import io.secio.ckb.protocol.CkbNetwork;
import io.secio.ckb.protocol.CkbProtocol;
import io.secio.ckb.protocol.IdentifyFlags;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.multiaddr.Multiaddr;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A CKB listener of ours set up for CKB's light client, with what happened to its first session:
 * testnet, the flags the client requires (DISCOVERY | SYNC | RELAY | LIGHT_CLIENT | BLOCK_FILTER),
 * light client, filter and relay registered and silent (the light client's messages are kept, never
 * answered), pings every 5 s, one node in its address book. The transport handler in front of {@code
 * Ckb.server} is the test's ({@code WebSocket.server}, {@code WebSocket.serverOrTcp}). Thread-safe.
 */
final class ListeningPeer implements AutoCloseable {
  /** Our ping interval: the light client answers several pings within its 60 s. */
  static final Duration PING_INTERVAL = Duration.ofSeconds(5);

  /** An event of the first session, with when it came. */
  record Heard(long nanos, CkbEvent event) {}

  final String kind;
  /** The one node our answer to a GetNodes names: TEST-NET-1, which nothing answers. */
  final Multiaddr knownNode = Multiaddr.parse("/ip4/192.0.2.1/tcp/8111/ws/p2p/" + Dialect.TENTACLE.peerId(
      IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom()).publicKey()).toBase58());
  final IdentityKeyPair identity = IdentityKeyPair.generate(KeyType.SECP256K1, new SecureRandom());
  final SecioConfig secio = SecioConfig.builder(identity).dialect(Dialect.TENTACLE).build();
  final CkbConfig config;
  final Channel channel;
  /** The first session, once the peer identified. */
  final CompletableFuture<CkbSession> identified = new CompletableFuture<>();
  /** The first session's end. */
  final CompletableFuture<CkbEvent.Closed> closed = new CompletableFuture<>();
  /** The light-client messages the first session's peer sent. */
  final BlockingQueue<byte[]> lightClientMessages = new LinkedBlockingQueue<>();
  private final List<Heard> heard = new ArrayList<>();
  private volatile Channel first;

  ListeningPeer(String kind, EventLoopGroup group, Supplier<ChannelHandler> transport) {
    this.kind = kind;
    AddressBook book = new AddressBook();
    book.add(knownNode, IdentifyFlags.LIGHT_CLIENT_REQUIRED);
    this.config = CkbConfig.builder(CkbNetwork.TESTNET)
        .addressBook(book)
        .flags(IdentifyFlags.LIGHT_CLIENT_REQUIRED)
        .localAddresses(true)
        .ping(PING_INTERVAL, Duration.ofMinutes(2))
        .protocol(CkbProtocol.LIGHT_CLIENT, new Recorder())
        .protocol(CkbProtocol.FILTER, null)
        .protocol(CkbProtocol.RELAY, null)
        .listener(this::onEvent)
        .build();
    this.channel = new ServerBootstrap().group(group).channel(Transports.best().serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(transport.get(), Ckb.server(secio, config));
          }
        })
        .bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  String peerId() {
    return Dialect.TENTACLE.peerId(identity.publicKey()).toBase58();
  }

  /** Our address as the light client dials it. */
  String webSocketAddress() {
    return "/ip4/127.0.0.1/tcp/" + port() + "/ws/p2p/" + peerId();
  }

  private boolean isFirst(CkbSession session) {
    synchronized (heard) {
      if (first == null) {
        first = session.connection();
      }
      return first == session.connection();
    }
  }

  private void onEvent(CkbSession session, CkbEvent event) {
    if (!isFirst(session)) {
      return;
    }
    synchronized (heard) {
      heard.add(new Heard(System.nanoTime(), event));
      heard.notifyAll();
    }
    if (event instanceof CkbEvent.Identified) {
      identified.complete(session);
    } else if (event instanceof CkbEvent.Closed c) {
      closed.complete(c);
    }
  }

  /** The first session's events so far. */
  List<Heard> heard() {
    synchronized (heard) {
      return List.copyOf(heard);
    }
  }

  /**
   * Waits until the first session has {@code n} events of {@code type}, or has closed.
   *
   * @throws AssertionError if neither happens within {@code timeout}
   */
  void awaitEvents(Class<? extends CkbEvent> type, long n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (heard) {
      while (count(type) < n && !closed.isDone()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no " + n + " " + type.getSimpleName() + " within " + timeout + ": " + heard);
        }
        TimeUnit.NANOSECONDS.timedWait(heard, left);
      }
    }
  }

  /** How many of the first session's events are {@code type}. */
  long count(Class<? extends CkbEvent> type) {
    return heard().stream().filter(h -> type.isInstance(h.event())).count();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
  }

  /** Keeps what the peer sends on the light-client protocol; sends nothing. */
  @ChannelHandler.Sharable
  private final class Recorder extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (ctx.channel().parent() == first) {
          lightClientMessages.add(ByteBufUtil.getBytes((ByteBuf) msg));
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }
  }
}
