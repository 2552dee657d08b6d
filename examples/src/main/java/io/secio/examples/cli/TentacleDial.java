package io.secio.examples.cli;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.netty.Secio;
import io.secio.tentacle.ProtocolStream;
import io.secio.tentacle.Tentacle;
import io.secio.tentacle.TentacleConfig;
import io.secio.tentacle.TentacleProtocol;
import io.secio.tentacle.TentacleSession;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code secio dial HOST:PORT --dialect tentacle --protocol NAME:VERSIONS --send-bytes N
 * [--message-size M] [--streams K]}: opens the protocol on a tentacle session, sends N seeded bytes
 * as messages of at most M bytes, checks every echoed byte, and prints {@code secured ...}, {@code
 * protocol NAME version V}, {@code echoed N bytes in T ms (X MiB/s)} and a {@code summary} line.
 */
final class TentacleDial {
  /** The default largest message. */
  static final int DEFAULT_MESSAGE_SIZE = 64 * 1024;

  private TentacleDial() {}

  /** {@code dial}'s own tentacle options. A picocli mixin. */
  static final class Options {
    @Option(names = "--message-size", paramLabel = "M", converter = ByteCount.class,
        description = "With --protocol: send messages of at most M bytes (default: 64K; at most 8M, "
            + "tentacle's message limit).")
    Long messageSize;

    @Option(names = "--streams", paramLabel = "K", defaultValue = "1",
        description = "With --protocol: streams to open for the protocol. tentacle opens one stream "
            + "per protocol per session, so only 1 is allowed.")
    int streams;
  }

  static int run(SecioCli cli, CommandSpec spec, SecioConfig secio, PeerId expectPeer, HostPort target,
      TentacleOptions tentacle, Options options, Long sendBytes, long seed) {
    TentacleOptions.requireTentacle(secio, spec);
    if (tentacle.protocols.size() != 1) {
      throw new ParameterException(spec.commandLine(), "dial opens one --protocol, not " + tentacle.protocols.size());
    }
    if (options.streams != 1) {
      throw new ParameterException(spec.commandLine(), "--streams " + options.streams + ": tentacle opens one "
          + "stream per protocol per session (its dialer opens each protocol once, and its listener drops a "
          + "second stream of an open protocol), so a session carries 1; dial again for another stream");
    }
    if (sendBytes == null) {
      throw new ParameterException(spec.commandLine(), "--protocol needs --send-bytes N");
    }
    long size = options.messageSize == null ? DEFAULT_MESSAGE_SIZE : options.messageSize;
    if (size < 1 || size > TentacleProtocol.DEFAULT_MAX_MESSAGE_LENGTH_IN_BYTES) {
      throw new ParameterException(spec.commandLine(), "--message-size must be 1 to 8M, not " + size);
    }
    TentacleOptions.Protocol protocol = tentacle.protocols.get(0);
    EchoCheck check = new EchoCheck(sendBytes, (int) size, seed);
    TentacleConfig config = TentacleConfig.builder()
        .protocol(TentacleProtocol.of(protocol.name(), protocol.versions(), check))
        .build();
    try (Network network = new Network(1)) {
      ChannelFuture connect = network.dial(target, true, ch -> ch.pipeline().addLast(expectPeer != null
          ? Tentacle.client(secio, expectPeer, config) : Tentacle.client(secio, config)));
      if (!connect.awaitUninterruptibly().isSuccess()) {
        return failed(cli, target, connect.cause());
      }
      Channel channel = connect.channel();
      Future<TentacleSession> started = Tentacle.sessionFuture(channel).awaitUninterruptibly();
      if (!started.isSuccess()) {
        return failed(cli, target, started.cause());
      }
      cli.out().println(Report.secured(Secio.session(channel).orElseThrow()));
      TentacleSession session = started.getNow();
      Future<ProtocolStream> open = session.open(protocol.name()).awaitUninterruptibly();
      if (!open.isSuccess()) {
        return failed(cli, target, open.cause());
      }
      ProtocolStream stream = open.getNow();
      cli.out().println("protocol " + stream.protocol() + " version " + stream.version());
      long nanos;
      try {
        nanos = check.start(stream.channel()).get();
      } catch (ExecutionException e) {
        return failed(cli, target, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return failed(cli, target, e);
      } finally {
        session.close().awaitUninterruptibly();
      }
      cli.out().println(Report.echoed(sendBytes, nanos));
      cli.out().println("summary protocol=" + stream.protocol() + " version=" + stream.version()
          + " streams=1 messages=" + check.messages + " max-message=" + size + " bytes=" + sendBytes);
      return 0;
    }
  }

  private static int failed(SecioCli cli, HostPort target, Throwable cause) {
    cli.err().println(Report.failed(target.toAddress(), cause));
    return SecioCli.EXIT_FAILURE;
  }

  /**
   * Sends the seeded bytes as messages while the stream is writable, and checks the echo byte for
   * byte; its future completes with the nanoseconds from the first write to the last echoed byte.
   * On the protocol's one stream only (tentacle's one stream per protocol).
   */
  @ChannelHandler.Sharable
  private static final class EchoCheck extends ChannelInboundHandlerAdapter {
    private final long total;
    private final int messageSize;
    private final SeededBytes sent;
    private final SeededBytes expected;
    private byte[] want = new byte[0];
    private Promise<Long> result;
    private Channel stream;
    private long written;
    private long received;
    private long startNanos;
    volatile long messages;

    EchoCheck(long total, int messageSize, long seed) {
      this.total = total;
      this.messageSize = messageSize;
      this.sent = new SeededBytes(seed);
      this.expected = new SeededBytes(seed);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      result = ctx.executor().newPromise();
      stream = ctx.channel();
      // No echo for this long: the peer is gone or stuck.
      ctx.pipeline().addBefore(ctx.name(), null, new ReadTimeoutHandler(DialCommand.ECHO_IDLE_TIMEOUT_SECONDS));
      stream.closeFuture().addListener(f -> result.tryFailure(new IllegalStateException(
          "the stream closed after " + received + " of " + total + " bytes echoed")));
    }

    Future<Long> start(Channel channel) {
      channel.eventLoop().execute(() -> {
        startNanos = System.nanoTime();
        if (total == 0) {
          result.trySuccess(0L);
        }
        send();
      });
      return result;
    }

    private void send() {
      while (written < total && stream.isWritable()) {
        int n = (int) Math.min(messageSize, total - written);
        ByteBuf message = stream.alloc().buffer(n);
        sent.writeTo(message, n);
        stream.write(message);
        written += n;
        messages++;
      }
      stream.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable() && startNanos != 0) {
        send();
      }
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf echo = (ByteBuf) msg;
      try {
        int n = echo.readableBytes();
        if (received + n > total) {
          throw new IllegalStateException("the peer echoed more than was sent");
        }
        byte[] got = new byte[n];
        echo.readBytes(got);
        if (want.length < n) {
          want = new byte[n];
        }
        expected.next(want, 0, n);
        if (!Arrays.equals(got, 0, n, want, 0, n)) {
          throw new IllegalStateException("the echo differs from what was sent, within bytes "
              + received + " to " + (received + n));
        }
        received += n;
        if (received == total) {
          result.trySuccess(System.nanoTime() - startNanos);
        }
      } catch (IllegalStateException e) {
        result.tryFailure(e);
        ctx.close();
      } finally {
        echo.release();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      result.tryFailure(cause);
      ctx.close();
    }
  }
}
