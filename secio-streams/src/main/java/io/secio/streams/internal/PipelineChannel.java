package io.secio.streams.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.ChannelPromise;
import io.netty.util.DefaultAttributeMap;
import java.net.SocketAddress;

/**
 * The part of a {@link Channel} that only hands each operation to its pipeline, written out rather
 * than inherited: Netty 4.2 gives these methods defaults and 4.1 does not, and one binary must run on
 * both ({@code docs/STREAMS.md} §6). Thread safety: as the pipeline's.
 */
abstract class PipelineChannel extends DefaultAttributeMap implements Channel {

  @Override
  public ByteBufAllocator alloc() {
    return config().getAllocator();
  }

  @Override
  public Channel read() {
    pipeline().read();
    return this;
  }

  @Override
  public Channel flush() {
    pipeline().flush();
    return this;
  }

  @Override
  public ChannelFuture bind(SocketAddress localAddress) {
    return pipeline().bind(localAddress);
  }

  @Override
  public ChannelFuture connect(SocketAddress remoteAddress) {
    return pipeline().connect(remoteAddress);
  }

  @Override
  public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress) {
    return pipeline().connect(remoteAddress, localAddress);
  }

  @Override
  public ChannelFuture disconnect() {
    return pipeline().disconnect();
  }

  @Override
  public ChannelFuture close() {
    return pipeline().close();
  }

  @Override
  public ChannelFuture deregister() {
    return pipeline().deregister();
  }

  @Override
  public ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise) {
    return pipeline().bind(localAddress, promise);
  }

  @Override
  public ChannelFuture connect(SocketAddress remoteAddress, ChannelPromise promise) {
    return pipeline().connect(remoteAddress, promise);
  }

  @Override
  public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
    return pipeline().connect(remoteAddress, localAddress, promise);
  }

  @Override
  public ChannelFuture disconnect(ChannelPromise promise) {
    return pipeline().disconnect(promise);
  }

  @Override
  public ChannelFuture close(ChannelPromise promise) {
    return pipeline().close(promise);
  }

  @Override
  public ChannelFuture deregister(ChannelPromise promise) {
    return pipeline().deregister(promise);
  }

  @Override
  public ChannelFuture write(Object msg) {
    return pipeline().write(msg);
  }

  @Override
  public ChannelFuture write(Object msg, ChannelPromise promise) {
    return pipeline().write(msg, promise);
  }

  @Override
  public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
    return pipeline().writeAndFlush(msg, promise);
  }

  @Override
  public ChannelFuture writeAndFlush(Object msg) {
    return pipeline().writeAndFlush(msg);
  }

  @Override
  public ChannelPromise newPromise() {
    return pipeline().newPromise();
  }

  @Override
  public ChannelProgressivePromise newProgressivePromise() {
    return pipeline().newProgressivePromise();
  }

  @Override
  public ChannelFuture newSucceededFuture() {
    return pipeline().newSucceededFuture();
  }

  @Override
  public ChannelFuture newFailedFuture(Throwable cause) {
    return pipeline().newFailedFuture(cause);
  }

  @Override
  public ChannelPromise voidPromise() {
    return pipeline().voidPromise();
  }

  @Override
  public int hashCode() {
    return id().hashCode();
  }

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int compareTo(Channel o) {
    return this == o ? 0 : id().compareTo(o.id());
  }
}
