package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.util.concurrent.Future;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The frame decoder guards an epoll channel's registration against the empty-interest defect ({@link
 * EpollInterestGuard}): when it is added to a registered channel, and again when the channel is
 * registered anew. On a real, unconnected epoll channel; the registration is read through the
 * channel's own protected accessor, since only the guard's absence in a half-close race would show
 * otherwise ({@link HalfCloseEchoTest}).
 */
class SecioFrameDecoderEpollTest {
  private static final long HANG_GUARD_SECONDS = 300;

  private final EventLoopGroup group = Transports.EPOLL.newEventLoopGroup(1);
  private final EpollSocketChannel channel = new EpollSocketChannel();

  @AfterEach
  void shutDown() {
    await(channel.close());
    await(group.shutdownGracefully(0, HANG_GUARD_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void addedToARegisteredChannelItGuardsTheRegistration() throws Exception {
    await(group.register(channel));
    IoRegistration raw = onLoop(() -> registration(channel));
    onLoop(() -> channel.pipeline().addLast(new SecioFrameDecoder(1024)));
    IoRegistration guarded = onLoop(() -> registration(channel));
    assertInstanceOf(EpollInterestGuard.class, guarded);
    assertTrue(guarded.isValid());
    assertNotSame(raw, guarded);
    // Added a second time (a second decoder), the guard is not wrapped again.
    onLoop(() -> channel.pipeline().addLast(new SecioFrameDecoder(1024)));
    assertSame(guarded, onLoop(() -> registration(channel)));
  }

  @Test
  void aChannelRegisteredAgainIsGuardedAgain() throws Exception {
    await(group.register(channel));
    onLoop(() -> channel.pipeline().addLast(new SecioFrameDecoder(1024)));
    IoRegistration first = onLoop(() -> registration(channel));
    await(channel.deregister());
    await(group.register(channel));
    IoRegistration second = onLoop(() -> registration(channel));
    assertInstanceOf(EpollInterestGuard.class, second);
    assertNotSame(first, second);
    assertTrue(second.isValid());
  }

  private <T> T onLoop(Callable<T> task) throws Exception {
    Future<T> f = channel.eventLoop().submit(task);
    await(f);
    return f.getNow();
  }

  private static IoRegistration registration(Channel channel) throws ReflectiveOperationException {
    Method accessor = Class.forName("io.netty.channel.epoll.AbstractEpollChannel")
        .getDeclaredMethod("registration");
    accessor.setAccessible(true);
    return (IoRegistration) accessor.invoke(channel);
  }

  private static void await(Future<?> f) {
    assertTrue(f.awaitUninterruptibly(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "hang guard");
    if (f.cause() != null) {
      throw new AssertionError(f.cause());
    }
  }
}
