package io.secio.streams.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DuplexChannelConfig;
import java.util.Map;

/**
 * A stream's config: Netty's generic options plus {@link ChannelOption#ALLOW_HALF_CLOSURE}. Every
 * stream shares one {@code RecvByteBufAllocator} (only its handle is per stream), which keeps an idle
 * stream small. Thread safety: as {@link DefaultChannelConfig}.
 */
final class StreamChannelConfig extends DefaultChannelConfig implements DuplexChannelConfig {
  private static final RecvByteBufAllocator SHARED_ALLOCATOR = new AdaptiveRecvByteBufAllocator();

  private volatile boolean allowHalfClosure;

  StreamChannelConfig(AbstractStreamChannel channel) {
    super(channel, SHARED_ALLOCATOR);
  }

  @Override
  public Map<ChannelOption<?>, Object> getOptions() {
    return getOptions(super.getOptions(), ChannelOption.ALLOW_HALF_CLOSURE);
  }

  @SuppressWarnings("unchecked")
  @Override
  public <T> T getOption(ChannelOption<T> option) {
    if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
      return (T) Boolean.valueOf(allowHalfClosure);
    }
    return super.getOption(option);
  }

  @Override
  public <T> boolean setOption(ChannelOption<T> option, T value) {
    validate(option, value);
    if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
      allowHalfClosure = (Boolean) value;
      return true;
    }
    return super.setOption(option, value);
  }

  @Override
  public boolean isAllowHalfClosure() {
    return allowHalfClosure;
  }

  @Override
  public StreamChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
    this.allowHalfClosure = allowHalfClosure;
    return this;
  }

  @Override
  @Deprecated
  public StreamChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
    super.setMaxMessagesPerRead(maxMessagesPerRead);
    return this;
  }

  @Override
  public StreamChannelConfig setWriteSpinCount(int writeSpinCount) {
    super.setWriteSpinCount(writeSpinCount);
    return this;
  }

  @Override
  public StreamChannelConfig setAllocator(ByteBufAllocator allocator) {
    super.setAllocator(allocator);
    return this;
  }

  @Override
  public StreamChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
    if (!(allocator.newHandle() instanceof RecvByteBufAllocator.ExtendedHandle)) {
      throw new IllegalArgumentException("a stream needs a RecvByteBufAllocator.ExtendedHandle");
    }
    super.setRecvByteBufAllocator(allocator);
    return this;
  }

  @Override
  public StreamChannelConfig setAutoRead(boolean autoRead) {
    super.setAutoRead(autoRead);
    return this;
  }

  @Override
  public StreamChannelConfig setAutoClose(boolean autoClose) {
    super.setAutoClose(autoClose);
    return this;
  }

  @Override
  public StreamChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
    super.setMessageSizeEstimator(estimator);
    return this;
  }

  @Override
  public StreamChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
    super.setWriteBufferWaterMark(writeBufferWaterMark);
    return this;
  }
}
