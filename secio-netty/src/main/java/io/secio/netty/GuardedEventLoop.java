package io.secio.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An event loop of Netty 4.2 seen through {@link EpollInterestGuard}: the same thread, tasks and
 * timers, but every I/O registration made through it is guarded. {@link EpollInterestGuard#install}
 * registers an epoll channel on this view of its own loop when the loop itself was built without the
 * guard; the channel then runs exactly where it ran before. Everything else is the loop's own.
 * Thread-safe as the loop is.
 */
final class GuardedEventLoop implements IoEventLoop {
  private final IoEventLoop loop;

  GuardedEventLoop(IoEventLoop loop) {
    this.loop = loop;
  }

  /** The loop this is a view of. */
  IoEventLoop loop() {
    return loop;
  }

  @Override
  public Future<IoRegistration> register(IoHandle handle) {
    Promise<IoRegistration> guarded = newPromise();
    loop.register(handle).addListener((Future<IoRegistration> f) -> {
      if (f.isSuccess()) {
        guarded.setSuccess(new EpollInterestGuard.GuardedRegistration(f.getNow()));
      } else {
        guarded.setFailure(f.cause());
      }
    });
    return guarded;
  }

  @Override
  public ChannelFuture register(Channel channel) {
    return register(new DefaultChannelPromise(channel, this));
  }

  @Override
  public ChannelFuture register(ChannelPromise promise) {
    promise.channel().unsafe().register(this, promise);
    return promise;
  }

  @Deprecated
  @Override
  public ChannelFuture register(Channel channel, ChannelPromise promise) {
    channel.unsafe().register(this, promise);
    return promise;
  }

  @Override
  public IoEventLoop next() {
    return this;
  }

  @Override
  public EventLoopGroup parent() {
    return loop.parent();
  }

  @Override
  public boolean isCompatible(Class<? extends IoHandle> handleType) {
    return loop.isCompatible(handleType);
  }

  @Override
  public boolean isIoType(Class<? extends IoHandler> handlerType) {
    return loop.isIoType(handlerType);
  }

  @Override
  public boolean inEventLoop(Thread thread) {
    return loop.inEventLoop(thread);
  }

  @Override
  public boolean isExecutorThread(Thread thread) {
    return loop.isExecutorThread(thread);
  }

  @Override
  public boolean isSuspended() {
    return loop.isSuspended();
  }

  @Override
  public boolean trySuspend() {
    return loop.trySuspend();
  }

  @Override
  public Ticker ticker() {
    return loop.ticker();
  }

  @Override
  public void execute(Runnable task) {
    loop.execute(task);
  }

  @Override
  public Future<?> submit(Runnable task) {
    return loop.submit(task);
  }

  @Override
  public <T> Future<T> submit(Runnable task, T result) {
    return loop.submit(task, result);
  }

  @Override
  public <T> Future<T> submit(Callable<T> task) {
    return loop.submit(task);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return loop.schedule(command, delay, unit);
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return loop.schedule(callable, delay, unit);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period,
      TimeUnit unit) {
    return loop.scheduleAtFixedRate(command, initialDelay, period, unit);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
      TimeUnit unit) {
    return loop.scheduleWithFixedDelay(command, initialDelay, delay, unit);
  }

  @Override
  public <T> List<java.util.concurrent.Future<T>> invokeAll(Collection<? extends Callable<T>> tasks)
      throws InterruptedException {
    return loop.invokeAll(tasks);
  }

  @Override
  public <T> List<java.util.concurrent.Future<T>> invokeAll(Collection<? extends Callable<T>> tasks,
      long timeout, TimeUnit unit) throws InterruptedException {
    return loop.invokeAll(tasks, timeout, unit);
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks)
      throws InterruptedException, ExecutionException {
    return loop.invokeAny(tasks);
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    return loop.invokeAny(tasks, timeout, unit);
  }

  @Override
  public boolean isShuttingDown() {
    return loop.isShuttingDown();
  }

  @Override
  public Future<?> shutdownGracefully() {
    return loop.shutdownGracefully();
  }

  @Override
  public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
    return loop.shutdownGracefully(quietPeriod, timeout, unit);
  }

  @Override
  public Future<?> terminationFuture() {
    return loop.terminationFuture();
  }

  @Deprecated
  @Override
  public void shutdown() {
    loop.shutdown();
  }

  @Deprecated
  @Override
  public List<Runnable> shutdownNow() {
    return loop.shutdownNow();
  }

  @Override
  public boolean isShutdown() {
    return loop.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return loop.isTerminated();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return loop.awaitTermination(timeout, unit);
  }

  @Override
  public Iterator<EventExecutor> iterator() {
    return List.<EventExecutor>of(this).iterator();
  }

  @Override
  public String toString() {
    return "GuardedEventLoop{" + loop + "}";
  }
}
