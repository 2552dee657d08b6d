package io.secio.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.internal.SocketUtils;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records every exception that reaches Netty's tail on the connections a listener accepts: each is a
 * WARN with a stack trace in a user's log (Netty's pipeline logs it there; here it is recorded
 * instead), so a library that ends its failures at its own handlers leaves this empty. {@link #listen} binds a listener on loopback
 * with it; or give it to a {@code ServerBootstrap} on an NIO event loop group as its channel factory
 * ({@code .channelFactory(watch)}). The channels it makes are Netty's NIO ones with a recording
 * pipeline, on Netty 4.1 and 4.2 alike. Thread-safe.
 */
public final class TailWatch implements ChannelFactory<ServerChannel> {
  private final List<Throwable> atTail = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();

  /**
   * A listener on 127.0.0.1 in {@code nioGroup} (an NIO event loop group) whose every accepted
   * connection gets {@code stack} and is watched.
   */
  public Channel listen(EventLoopGroup nioGroup, Supplier<ChannelHandler> stack) throws InterruptedException {
    return new ServerBootstrap().group(nioGroup).channelFactory(this)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(stack.get());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  /**
   * Waits until {@code connections} were accepted and each of them closed (a hang guard of {@link
   * ChildProcess#WAIT}), then asserts that no exception reached the tail of any.
   */
  public void assertEachClosedWithNothingAtTheTail(int connections) throws InterruptedException {
    long deadline = System.nanoTime() + ChildProcess.WAIT.toNanos();
    for (int i = 0; i < connections; i++) {
      Channel ch = accepted.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (ch == null) {
        fail("hang guard: " + i + " of " + connections + " connections accepted");
      }
      if (!ch.closeFuture().await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        fail("hang guard: the listener kept " + ch + " open");
      }
    }
    assertEquals(List.of(), exceptionsAtTail(), "exceptions at the tail, each a WARN with a stack trace");
  }

  @Override
  public ServerChannel newChannel() {
    return new Listener();
  }

  /** The exceptions that reached the tail of an accepted connection, in order. */
  public List<Throwable> exceptionsAtTail() {
    return List.copyOf(atTail);
  }

  /** A listener whose accepted connections are {@link Accepted}. */
  private final class Listener extends NioServerSocketChannel {
    @Override
    protected int doReadMessages(List<Object> buf) throws Exception {
      SocketChannel socket = SocketUtils.accept(javaChannel());
      if (socket == null) {
        return 0;
      }
      buf.add(new Accepted(this, socket));
      return 1;
    }
  }

  /** An accepted connection whose pipeline records what reaches its tail. */
  private final class Accepted extends NioSocketChannel {
    Accepted(Channel parent, SocketChannel socket) {
      super(parent, socket);
      accepted.add(this);
    }

    @Override
    protected DefaultChannelPipeline newChannelPipeline() {
      return new DefaultChannelPipeline(this) {
        @Override
        protected void onUnhandledInboundException(Throwable cause) {
          atTail.add(cause); // in place of Netty's WARN: the test says what reached it
        }
      };
    }
  }
}
