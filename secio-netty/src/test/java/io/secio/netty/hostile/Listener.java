package io.secio.netty.hostile;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;
import io.secio.HandshakeLimiter;
import io.secio.SecioConfig;
import io.secio.SecioSession;
import io.secio.netty.Secio;
import io.secio.netty.Transports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A real secio listener ({@link Secio#server}) on loopback with its own event loops, whose accepted
 * channels each end in an {@link App}. Closing it closes every channel and waits for the event loops
 * to stop, so that a leak check after the test sees a quiet process.
 */
public final class Listener implements AutoCloseable {
  private final EventLoopGroup group;
  private final Channel server;
  private final List<Channel> children = new ArrayList<>();
  private final BlockingQueue<Connection> accepted = new LinkedBlockingQueue<>();

  private Listener(SecioConfig config, HandshakeLimiter limiter, Builder b) {
    SecioConfig serverConfig = limiter == null ? config : config.toBuilder().handshakeLimiter(limiter).build();
    group = Transports.best().newEventLoopGroup(b.threads);
    ServerBootstrap sb = new ServerBootstrap()
        .group(group)
        .channel(Transports.best().serverChannelClass())
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, b.allowHalfClosure)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            App app = new App();
            if (b.first != null) {
              ch.pipeline().addLast(b.first.get());
            }
            ch.pipeline().addLast(Secio.server(serverConfig), app);
            if (b.last != null) {
              ch.pipeline().addLast(b.last.get());
            }
            synchronized (children) {
              children.add(ch);
            }
            accepted.add(new Connection(ch, app));
          }
        });
    if (b.allocator != null) {
      sb.childOption(ChannelOption.ALLOCATOR, b.allocator);
    }
    if (b.sendBuffer > 0) {
      sb.childOption(ChannelOption.SO_SNDBUF, b.sendBuffer);
    }
    server = sb.bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
  }

  public static Listener start(SecioConfig config) {
    return builder().start(config);
  }

  public static Builder builder() {
    return new Builder();
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) server.localAddress();
  }

  /** The next accepted connection; fails the test if none arrives in {@code seconds}. */
  public Connection next(long seconds) throws InterruptedException {
    Connection a = accepted.poll(seconds, TimeUnit.SECONDS);
    assertNotNull(a, "no connection accepted within " + seconds + " s");
    return a;
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    List<Channel> open;
    synchronized (children) {
      open = List.copyOf(children);
    }
    for (Channel ch : open) {
      ch.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Options of a listener. */
  public static final class Builder {
    private int threads = 2;
    private boolean allowHalfClosure;
    private ByteBufAllocator allocator;
    private int sendBuffer;
    private Supplier<ChannelHandler> first;
    private Supplier<ChannelHandler> last;
    private HandshakeLimiter limiter;

    public Builder allowHalfClosure(boolean allow) {
      this.allowHalfClosure = allow;
      return this;
    }

    public Builder allocator(ByteBufAllocator allocator) {
      this.allocator = allocator;
      return this;
    }

    /** SO_SNDBUF of accepted channels. */
    public Builder sendBuffer(int bytes) {
      this.sendBuffer = bytes;
      return this;
    }

    /** A handler put in front of the secio handlers of every accepted channel. */
    public Builder first(Supplier<ChannelHandler> handler) {
      this.first = handler;
      return this;
    }

    /** A handler put after the {@link App}: it sees user events and writability changes. */
    public Builder last(Supplier<ChannelHandler> handler) {
      this.last = handler;
      return this;
    }

    public Builder limiter(HandshakeLimiter limiter) {
      this.limiter = limiter;
      return this;
    }

    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    public Listener start(SecioConfig config) {
      return new Listener(config, limiter, this);
    }
  }
}
