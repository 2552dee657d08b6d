package io.secio.netty;

import io.netty.channel.Channel;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.lang.reflect.Field;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Works around a defect of Netty 4.2's native epoll transport (4.2.18.Final, still in 4.2.21.Final;
 * from netty/netty#16689) that loses the end of a stream after a half-close. When a channel's epoll
 * interest mask becomes empty, Netty removes its fd from the epoll set ({@code EPOLL_CTL_DEL}) but
 * keeps the registration marked as added, so the next interest change is an {@code EPOLL_CTL_MOD} on
 * an fd epoll no longer has: it fails with ENOENT ("epoll_ctl(..) failed with error(-2)"). The mask
 * can only become empty after the peer's FIN (before it, EPOLLRDHUP is always in it), once reading
 * stops and no write is waiting. Then resuming reads closes the channel with that exception, and a
 * write that fills the socket buffer (EPOLLOUT) fails inside Netty's flush, which shuts the output
 * down: the peer gets a truncated stream either way. Netty 4.1 never empties the mask.
 *
 * <p>The guard submits an empty mask as {@code EPOLLET} alone: the fd stays in the epoll set, waiting
 * for no event but the error and hang-up ones epoll always reports (edge-triggered, so once), as
 * before that Netty change. It sits between the channel and its registration in one of two ways:
 *
 * <ul>
 *   <li>{@link #guarding} wraps epoll's I/O handler, so every registration it makes is guarded; {@link
 *       Transports#EPOLL} builds its event loops so. No reflection: this works on the module path.
 *   <li>For a channel on an event loop built otherwise, {@link #install} replaces the channel's
 *       registration through a private Netty field. That needs deep reflection: on the class path it
 *       works; on the module path only with {@code --add-opens
 *       io.netty.transport.classes.epoll/io.netty.channel.epoll=io.secio.netty}. Where it fails, a WARN
 *       says so, once per JVM.
 * </ul>
 *
 * <p>Loaded only on Netty 4.2 ({@link NettyIo42}). Each registration is used on its channel's event
 * loop; the class's own state is thread-safe.
 */
final class EpollInterestGuard {
  private static final Logger log = LoggerFactory.getLogger(EpollInterestGuard.class);
  private static final String EPOLL_CHANNEL = "io.netty.channel.epoll.AbstractEpollChannel";
  private static final AtomicBoolean WARNED = new AtomicBoolean();
  private static final Class<?> EPOLL_CHANNEL_CLASS = epollChannelClass();

  /** The event loops that run a guarded epoll handler: their channels need nothing more. */
  private static final Set<ThreadAwareExecutor> GUARDED_LOOPS =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private EpollInterestGuard() {}

  /** {@code epoll}'s handlers, each registering channels with guarded registrations. */
  static IoHandlerFactory guarding(IoHandlerFactory epoll) {
    return new IoHandlerFactory() {
      @Override
      public IoHandler newHandler(ThreadAwareExecutor loop) {
        IoHandler handler = new GuardedHandler(epoll.newHandler(loop));
        GUARDED_LOOPS.add(loop);
        return handler;
      }

      @Override
      public boolean isChangingThreadSupported() {
        return epoll.isChangingThreadSupported();
      }
    };
  }

  /**
   * Makes sure {@code channel}'s current registration is guarded if it is an epoll channel: nothing to
   * do on a loop from {@link #guarding}; elsewhere the registration is replaced by reflection, or a
   * WARN says, once, that it could not be. Call on the channel's event loop after it is registered.
   */
  static void install(Channel channel) {
    if (EPOLL_CHANNEL_CLASS == null || !EPOLL_CHANNEL_CLASS.isInstance(channel)
        || !channel.isRegistered() || GUARDED_LOOPS.contains(channel.eventLoop())) {
      return;
    }
    if (Reflective.replace(channel)) {
      return;
    }
    if (WARNED.compareAndSet(false, true)) {
      log.warn("secio: epoll interest guard not installed on {} ({}): on Netty 4.2's epoll a"
          + " half-closed stream may lose its end (netty/netty#16689). Build the event loop group"
          + " with Transports.EPOLL.newEventLoopGroup(...), or run with --add-opens"
          + " io.netty.transport.classes.epoll/io.netty.channel.epoll=io.secio.netty."
          + " Said once per JVM.", channel, Reflective.failure);
    }
  }

  private static Class<?> epollChannelClass() {
    try {
      return Class.forName(EPOLL_CHANNEL, false, EpollInterestGuard.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // no epoll classes: no epoll channels
    }
  }

  /**
   * The fallback for loops built without {@link #guarding}: a private field, made accessible once,
   * when the first epoll channel on such a loop needs it.
   */
  private static final class Reflective {
    /** Why the field cannot be used, for the WARN; on the module path an InaccessibleObjectException. */
    static volatile String failure = "no field registration of type IoRegistration in " + EPOLL_CHANNEL;
    static final Field REGISTRATION = registrationField();

    private static Field registrationField() {
      try {
        Field f = EPOLL_CHANNEL_CLASS.getDeclaredField("registration");
        if (f.getType() != IoRegistration.class) {
          return null;
        }
        f.setAccessible(true);
        return f;
      } catch (ReflectiveOperationException | RuntimeException e) {
        failure = e.toString();
        return null;
      }
    }

    /** Whether {@code channel}'s registration is guarded now. */
    static boolean replace(Channel channel) {
      if (REGISTRATION == null) {
        return false;
      }
      try {
        Object current = REGISTRATION.get(channel);
        if (current instanceof IoRegistration r && !(current instanceof GuardedRegistration)) {
          REGISTRATION.set(channel, new GuardedRegistration(r));
        }
        return true;
      } catch (IllegalAccessException | RuntimeException e) {
        failure = e.toString();
        return false;
      }
    }
  }

  /** Epoll's handler, with every registration it hands out guarded. */
  private static final class GuardedHandler implements IoHandler {
    private final IoHandler delegate;

    GuardedHandler(IoHandler delegate) {
      this.delegate = delegate;
    }

    @Override
    public void initialize() {
      delegate.initialize();
    }

    @Override
    public int run(IoHandlerContext context) {
      return delegate.run(context);
    }

    @Override
    public void prepareToDestroy() {
      delegate.prepareToDestroy();
    }

    @Override
    public void destroy() {
      delegate.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
      return new GuardedRegistration(delegate.register(handle));
    }

    @Override
    public void wakeup() {
      delegate.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
      return delegate.isCompatible(handleType);
    }
  }

  /** A registration that never submits an empty epoll mask. */
  static final class GuardedRegistration implements IoRegistration {
    private final IoRegistration delegate;

    GuardedRegistration(IoRegistration delegate) {
      this.delegate = delegate;
    }

    @Override
    public <T> T attachment() {
      return delegate.attachment();
    }

    @Override
    public long submit(IoOps ops) {
      if (ops instanceof EpollIoOps epoll && epoll.value() == EpollIoOps.NONE.value()) {
        return delegate.submit(EpollIoOps.EPOLLET);
      }
      return delegate.submit(ops);
    }

    @Override
    public boolean isValid() {
      return delegate.isValid();
    }

    @Override
    public boolean cancel() {
      return delegate.cancel();
    }

    @Override
    public String toString() {
      return "EpollInterestGuard{" + delegate + "}";
    }
  }
}
