package io.secio.netty;

import io.netty.channel.Channel;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoOps;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Works around a defect of Netty's native epoll transport (4.2.18.Final, from netty/netty#16689) that
 * loses the end of a stream after a half-close. When a channel's epoll interest mask becomes empty,
 * Netty removes its fd from the epoll set ({@code EPOLL_CTL_DEL}) but keeps the registration marked as
 * added, so the next interest change is an {@code EPOLL_CTL_MOD} on an fd epoll no longer has: it
 * fails with ENOENT ("epoll_ctl(..) failed with error(-2): No such file or directory"). The mask can
 * only become empty after the peer's FIN (before it, EPOLLRDHUP is always in it), once reading stops
 * (auto-read off for backpressure, or the input fully read) and no write is waiting. Then turning
 * auto-read back on closes the channel with that exception, and a write that fills the socket buffer
 * (EPOLLOUT) fails inside Netty's flush, which shuts the output down without any event: the peer gets
 * a truncated stream either way.
 *
 * <p>The guard wraps the channel's registration so that an empty mask is submitted as {@code EPOLLET}
 * alone: the fd stays in the epoll set, waiting for no event but the error and hang-up ones epoll
 * always reports (edge-triggered, so once), as before that Netty change. It touches only epoll
 * channels, through one private field; if the field is not there (another Netty version), it does
 * nothing. Every method runs on the channel's event loop.
 */
final class EpollInterestGuard implements IoRegistration {
  private static final Logger log = LoggerFactory.getLogger(EpollInterestGuard.class);
  private static final String EPOLL_CHANNEL = "io.netty.channel.epoll.AbstractEpollChannel";
  private static final Field REGISTRATION = registrationField();

  private final IoRegistration delegate;

  private EpollInterestGuard(IoRegistration delegate) {
    this.delegate = delegate;
  }

  /** Guards {@code channel}'s current epoll registration, once; any other channel is left alone. */
  static void install(Channel channel) {
    if (REGISTRATION == null || !REGISTRATION.getDeclaringClass().isInstance(channel)) {
      return;
    }
    try {
      Object current = REGISTRATION.get(channel);
      if (current instanceof IoRegistration && !(current instanceof EpollInterestGuard)) {
        REGISTRATION.set(channel, new EpollInterestGuard((IoRegistration) current));
      }
    } catch (IllegalAccessException | RuntimeException e) {
      log.debug("secio: epoll interest guard not installed on {}", channel, e);
    }
  }

  private static Field registrationField() {
    try {
      Field f = Class.forName(EPOLL_CHANNEL, false, EpollInterestGuard.class.getClassLoader())
          .getDeclaredField("registration");
      if (f.getType() != IoRegistration.class) {
        return null;
      }
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      log.debug("secio: epoll interest guard unavailable", e);
      return null;
    }
  }

  @Override
  public <T> T attachment() {
    return delegate.attachment();
  }

  @Override
  public long submit(IoOps ops) {
    if (ops instanceof EpollIoOps && ((EpollIoOps) ops).value() == EpollIoOps.NONE.value()) {
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
