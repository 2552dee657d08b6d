package io.secio.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.secio.SecioConfig;
import io.secio.identity.KeyType;
import io.secio.netty.Transports;
import io.secio.protocol.ExchangeAlgorithm;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A server and its clients on loopback TCP (epoll where it loads), one event loop thread each, so
 * that the two ends of a connection work on the two cores in parallel; or both on one event loop
 * thread, so that nothing waits for a thread to wake up and a round trip takes exactly the two ends'
 * own work. Application handlers sit after the stack's handler on each side.
 */
final class Loopback implements AutoCloseable {
  static final long TIMEOUT_SECONDS = 60;
  /** secio's default largest plaintext per frame. */
  static final int DEFAULT_FRAME = SecioConfig.DEFAULT_MAX_PLAINTEXT_PER_FRAME_IN_BYTES;

  private final Transports transport = Transports.best();
  private final EventLoopGroup serverGroup;
  private final EventLoopGroup clientGroup;
  private final Stack stack;
  private final Stack.Side serverSide;
  private final Stack.Side clientSide;
  private final Channel listener;
  /** The two event loop threads, for their CPU time. */
  private final long[] eventLoopThreadIds;

  /** A listening server whose accepted connections end in a handler from {@code serverApp}. */
  Loopback(Stack stack, Supplier<ChannelHandler> serverApp) throws Exception {
    this(stack, KeyType.ED25519, ExchangeAlgorithm.P_256, DEFAULT_FRAME, serverApp);
  }

  /** The same with the server and its clients on {@code eventLoops} (1 or 2) threads. */
  Loopback(Stack stack, int eventLoops, Supplier<ChannelHandler> serverApp) throws Exception {
    this(stack, KeyType.ED25519, ExchangeAlgorithm.P_256, DEFAULT_FRAME, eventLoops, 1, serverApp);
  }

  /**
   * The same with the server and its clients each on Netty's default number of event loop threads
   * (twice the cores), as a node serving many peers would run.
   */
  static Loopback withDefaultEventLoops(Stack stack, Supplier<ChannelHandler> serverApp)
      throws Exception {
    return new Loopback(stack, KeyType.ED25519, ExchangeAlgorithm.P_256, DEFAULT_FRAME, 0, 1, serverApp);
  }

  /** The same with secio's identity key type, key exchange and largest plaintext per frame chosen. */
  Loopback(Stack stack, KeyType identity, ExchangeAlgorithm exchange, int secioFrame,
      Supplier<ChannelHandler> serverApp) throws Exception {
    this(stack, identity, exchange, secioFrame, 2, 1, serverApp);
  }

  /** The same where secio clients take {@code clientIdentities} identities in turn, one per connection. */
  Loopback(Stack stack, KeyType identity, ExchangeAlgorithm exchange, int clientIdentities,
      int secioFrame, Supplier<ChannelHandler> serverApp) throws Exception {
    this(stack, identity, exchange, secioFrame, 2, clientIdentities, serverApp);
  }

  private Loopback(Stack stack, KeyType identity, ExchangeAlgorithm exchange, int secioFrame,
      int eventLoops, int clientIdentities, Supplier<ChannelHandler> serverApp) throws Exception {
    if (eventLoops < 0 || eventLoops > 2) {
      throw new IllegalArgumentException("eventLoops must be 1, 2 or 0 (Netty's default): " + eventLoops);
    }
    // 0: Netty's default thread count for each side's group; else one thread per side or one shared.
    this.serverGroup = transport.newEventLoopGroup(eventLoops == 0 ? 0 : 1);
    this.clientGroup = eventLoops == 1 ? serverGroup : transport.newEventLoopGroup(eventLoops == 0 ? 0 : 1);
    this.stack = stack;
    this.serverSide = stack.side(true, identity, exchange, secioFrame);
    this.clientSide = stack.side(false, identity, exchange, secioFrame, clientIdentities);
    this.listener = new ServerBootstrap()
        .group(serverGroup)
        .channel(transport.serverChannelClass())
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            serverSide.addTo(ch);
            ch.pipeline().addLast(serverApp.get());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0))
        .sync()
        .channel();
    long serverThread = serverGroup.next().submit(() -> Thread.currentThread().getId()).get();
    this.eventLoopThreadIds = clientGroup == serverGroup
        ? new long[] {serverThread}
        : new long[] {serverThread, clientGroup.next().submit(() -> Thread.currentThread().getId()).get()};
  }

  /**
   * CPU time (user and system) the event loop threads have used so far: the work of the stack
   * under test, whatever the scheduler does with the wall clock.
   */
  long eventLoopCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long id : eventLoopThreadIds) {
      sum += threads.getThreadCpuTime(id);
    }
    return sum;
  }

  /** A new connected client, not yet through its handshake. */
  Channel connect(ChannelHandler clientApp, boolean resetOnClose) throws InterruptedException {
    Bootstrap bootstrap = new Bootstrap()
        .group(clientGroup)
        .channel(transport.channelClass())
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            clientSide.addTo(ch);
            ch.pipeline().addLast(clientApp);
          }
        });
    if (resetOnClose) {
      // Handshake loops open thousands of connections: no TIME_WAIT left behind.
      bootstrap.option(ChannelOption.SO_LINGER, 0);
    }
    return bootstrap.connect(listener.localAddress()).sync().channel();
  }

  /** Waits for the client side's handshake on {@code channel}. */
  void awaitHandshake(Channel channel) throws Exception {
    clientSide.handshake(channel).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** A connected client through its handshake, checked to run the stack it claims. */
  Channel connectAndCheck(ChannelHandler clientApp) throws Exception {
    Channel channel = connect(clientApp, false);
    awaitHandshake(channel);
    String negotiated = clientSide.negotiated(channel);
    if (!negotiated.contains(stack.expectedNegotiation())) {
      // BoringSSL has no TLS 1.3 cipher setting: it prefers ChaCha20 only on CPUs without AES+PCLMUL.
      throw new IllegalStateException(stack + " negotiated " + negotiated
          + (stack == Stack.TLS13_CHACHA20_POLY1305
              ? "; run this stack with OPENSSL_ia32cap='~0x200000000' (see benchmarks/README.md)" : ""));
    }
    return channel;
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    if (clientGroup != serverGroup) {
      clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
    serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Either side: closes on any exception, which a reset at close causes, without logging it. */
  static final class Quiet extends ChannelInboundHandlerAdapter {
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  /** Server side: discards what it reads and writes one byte back per {@code unit} bytes read. */
  static final class Sink extends ChannelInboundHandlerAdapter {
    private final long unit;
    private long count;

    Sink(long unit) {
      this.unit = unit;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      count += buf.readableBytes();
      buf.release();
      int acks = (int) (count / unit);
      if (acks > 0) {
        count -= acks * unit;
        ctx.writeAndFlush(ctx.alloc().buffer(acks).writeZero(acks));
      }
    }
  }

  /** Server side: writes back every byte it reads. */
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }
  }

  /**
   * Client side: {@link #run} sends a message and, each time all of its bytes are back, sends it
   * again, for a number of round trips, all from the channel's event loop.
   */
  static final class Pinger extends ChannelInboundHandlerAdapter {
    private final Semaphore done = new Semaphore(0);
    private final ByteBuf message;
    private final int size;
    private Channel channel;
    private int roundsLeft;
    private long received;

    Pinger(ByteBuf message) {
      this.message = message;
      this.size = message.readableBytes();
    }

    /** Runs {@code rounds} round trips on {@code channel} and waits for the last echo. */
    void run(Channel channel, int rounds) throws InterruptedException {
      channel.eventLoop().execute(() -> {
        this.channel = channel;
        roundsLeft = rounds;
        channel.writeAndFlush(message.retainedDuplicate());
      });
      if (!done.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("nothing came back in " + TIMEOUT_SECONDS + " s");
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      received += buf.readableBytes();
      buf.release();
      if (received < size) {
        return;
      }
      received -= size;
      if (--roundsLeft > 0) {
        channel.writeAndFlush(message.retainedDuplicate());
      } else {
        done.release();
      }
    }
  }

  /** Client side: one permit per {@code unit} bytes received. */
  static final class Receiver extends ChannelInboundHandlerAdapter {
    private final Semaphore permits = new Semaphore(0);
    private final long unit;
    private long count;

    Receiver(long unit) {
      this.unit = unit;
    }

    /** Blocks until {@code n} more units have arrived. */
    void await(int n) throws InterruptedException {
      if (!permits.tryAcquire(n, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("nothing came back in " + TIMEOUT_SECONDS + " s");
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      count += buf.readableBytes();
      buf.release();
      int units = (int) (count / unit);
      if (units > 0) {
        count -= units * unit;
        permits.release(units);
      }
    }
  }
}
