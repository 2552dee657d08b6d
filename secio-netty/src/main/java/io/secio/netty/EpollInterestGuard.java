package io.secio.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
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
 * down: the peer gets a truncated stream either way. secio's codec makes the second likely, since it
 * seals only a few frames ahead of the socket. Netty 4.1 never empties the mask.
 *
 * <p>The guard submits an empty mask as {@code EPOLLET} alone: the fd stays in the epoll set, waiting
 * for no event but the error and hang-up ones epoll always reports (edge-triggered, so once), as
 * before that Netty change. A registration gets the guard from the event loop that makes it:
 *
 * <ul>
 *   <li>{@link #guarding} wraps epoll's I/O handler, so every registration it makes is guarded; {@link
 *       Transports#EPOLL} builds its event loops so.
 *   <li>An epoll channel on an event loop built otherwise (Netty's own {@code new
 *       MultiThreadIoEventLoopGroup(EpollIoHandler.newFactory())}) is registered again by {@link
 *       #install}, once it is active, on a {@link GuardedEventLoop}: a view of the same loop whose
 *       registrations are guarded. The channel keeps its thread; its handlers see one more {@code
 *       channelUnregistered} and {@code channelRegistered}, and {@code channel.eventLoop()} is the view
 *       from then on. Public API only, so it works alike on the class path and the module path.
 * </ul>
 *
 * <p>Loaded only on Netty 4.2 ({@link NettyIo42}). Each registration is used on its channel's event
 * loop; the class's own state is thread-safe.
 */
final class EpollInterestGuard {
  private static final Logger log = LoggerFactory.getLogger(EpollInterestGuard.class);
  private static final String EPOLL_CHANNEL = "io.netty.channel.epoll.AbstractEpollChannel";
  private static final Class<?> EPOLL_CHANNEL_CLASS = epollChannelClass();
  /** Set on a channel from the moment {@link #install} deregisters it until it is registered again. */
  private static final AttributeKey<Boolean> MOVING = AttributeKey.valueOf(EpollInterestGuard.class, "moving");
  private static final AtomicBoolean TOLD = new AtomicBoolean();

  /** The event loops that run a guarded epoll handler: their channels need nothing more. */
  private static final Set<ThreadAwareExecutor> GUARDED_LOOPS =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
  /** One view per loop while channels use it; the view, not the map, keeps the loop reachable. */
  private static final Map<IoEventLoop, WeakReference<GuardedEventLoop>> VIEWS =
      Collections.synchronizedMap(new WeakHashMap<>());

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
   * Makes sure the channel of {@code ctx}, if it is an active epoll channel, ends up with a guarded
   * registration: nothing to do on a loop from {@link #guarding} or on a view; elsewhere the channel is
   * deregistered and registered again on the view of its loop. Only once it is active: a connect in
   * progress waits for EPOLLOUT, which a new registration would not carry over. Call on the channel's
   * event loop when it is registered and when it becomes active; the handlers that need bytes during
   * the move ask for them again on {@code channelRegistered} (as {@code StageHandler} does).
   */
  static void install(ChannelHandlerContext ctx) {
    Channel channel = ctx.channel();
    if (EPOLL_CHANNEL_CLASS == null || !EPOLL_CHANNEL_CLASS.isInstance(channel)
        || !channel.isRegistered() || !channel.isActive()
        || !(channel.eventLoop() instanceof IoEventLoop loop) || isGuarded(loop)
        || Boolean.TRUE.equals(channel.attr(MOVING).setIfAbsent(Boolean.TRUE))) {
      return;
    }
    GuardedEventLoop view = viewOf(loop);
    if (TOLD.compareAndSet(false, true)) {
      log.info("secio: epoll channels on event loops not built by Transports.EPOLL are registered"
          + " again on a guarded view of their own loop, against netty/netty#16689 (a half-closed"
          + " stream losing its end). Said once per JVM.");
    }
    ctx.deregister().addListener(deregistered -> {
      channel.attr(MOVING).set(null);
      if (channel.isOpen()) {
        // Fails only if the loop is shutting down; Netty then closes the channel itself.
        view.register(channel);
      }
    });
  }

  private static boolean isGuarded(IoEventLoop loop) {
    return loop instanceof GuardedEventLoop || GUARDED_LOOPS.contains(loop);
  }

  private static GuardedEventLoop viewOf(IoEventLoop loop) {
    synchronized (VIEWS) {
      WeakReference<GuardedEventLoop> ref = VIEWS.get(loop);
      GuardedEventLoop view = ref == null ? null : ref.get();
      if (view == null) {
        view = new GuardedEventLoop(loop);
        VIEWS.put(loop, new WeakReference<>(view));
      }
      return view;
    }
  }

  private static Class<?> epollChannelClass() {
    try {
      return Class.forName(EPOLL_CHANNEL, false, EpollInterestGuard.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // no epoll classes: no epoll channels
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
