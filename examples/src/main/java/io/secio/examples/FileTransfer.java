package io.secio.examples;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelProgressiveFuture;
import io.netty.channel.ChannelProgressiveFutureListener;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.secio.PeerId;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import io.secio.netty.SecioHandshakeCompletionEvent;
import io.secio.netty.Transports;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * Sends one file over secio, with progress, and checks it arrived intact: the receiver answers with
 * the SHA-256 of what it wrote and the sender compares it with its own.
 *
 * <pre>
 * java -cp examples/target/secio.jar io.secio.examples.FileTransfer receive 4001 copy.bin
 * java -cp examples/target/secio.jar io.secio.examples.FileTransfer send 127.0.0.1 4001 RECEIVER_PEER_ID file.bin
 * </pre>
 *
 * <p>On the secure channel: the file's length (8 bytes), its bytes, then the receiver's 32-byte
 * SHA-256. Netty's {@link ChunkedWriteHandler}, placed after secio, streams the file in chunks as fast
 * as the connection takes them, so a file of any size needs little memory.
 */
public final class FileTransfer {
  private static final int CHUNK_SIZE_IN_BYTES = 64 * 1024;

  private FileTransfer() {}

  public static void main(String[] args) throws Exception {
    boolean receive = args.length == 3 && args[0].equals("receive");
    if (!receive && !(args.length == 5 && args[0].equals("send"))) {
      System.err.println("usage: FileTransfer receive PORT OUT_FILE | FileTransfer send HOST PORT PEER_ID FILE");
      System.exit(2);
    }
    SecioConfig config = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, new SecureRandom()))
        .build();
    Transports transport = Transports.best();
    EventLoopGroup group = transport.newEventLoopGroup(1);
    try {
      if (receive) {
        CompletableFuture<byte[]> received = new CompletableFuture<>();
        Channel server = receive(group, transport, config, Integer.parseInt(args[1]), Path.of(args[2]), received);
        System.out.println("waiting for a file on " + server.localAddress() + ", peer id " + config.localPeerId());
        byte[] sha256 = received.get();
        System.out.println("received " + args[2] + ", sha256 " + HexFormat.of().formatHex(sha256));
      } else {
        Path file = Path.of(args[4]);
        long size = Files.size(file);
        byte[] sha256 = send(group, transport, config, args[1], Integer.parseInt(args[2]), PeerId.parse(args[3]),
            file, sent -> System.err.printf("\r%3d%%  %d of %d bytes", size == 0 ? 100 : 100 * sent / size,
                sent, size)).get();
        System.err.println();
        System.out.println("sent " + file + ", sha256 " + HexFormat.of().formatHex(sha256)
            + ": the receiver's checksum matches");
      }
    } finally {
      group.shutdownGracefully();
    }
  }

  /**
   * Listens for one sender and writes its file to {@code out}; {@code done} completes with the file's
   * SHA-256. Returns the listening channel, which closes after the file.
   */
  public static Channel receive(EventLoopGroup group, Transports transport, SecioConfig config, int port, Path out,
      CompletableFuture<byte[]> done) throws InterruptedException {
    Channel server = new ServerBootstrap()
        .group(group)
        .channel(transport.serverChannelClass())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.server(config), new Receiver(out, done));
          }
        })
        .bind(port)
        .sync()
        .channel();
    done.whenComplete((sha256, failure) -> server.close()); // one file, then stop listening
    return server;
  }

  /**
   * Sends {@code file} to a receiver that must hold {@code peer}'s key, reporting bytes sent; completes
   * with the SHA-256 once the receiver's checksum is known to match, or fails.
   */
  public static CompletableFuture<byte[]> send(EventLoopGroup group, Transports transport, SecioConfig config,
      String host, int port, PeerId peer, Path file, LongConsumer progress) throws IOException, InterruptedException {
    byte[] sha256 = sha256(file);
    CompletableFuture<byte[]> done = new CompletableFuture<>();
    new Bootstrap()
        .group(group)
        .channel(transport.channelClass())
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(Secio.client(config, peer), new ChunkedWriteHandler(),
                new Sender(file, sha256, progress, done));
          }
        })
        .connect(host, port)
        .sync();
    return done;
  }

  static byte[] sha256(Path file) throws IOException {
    MessageDigest digest = newSha256();
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[CHUNK_SIZE_IN_BYTES];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    return digest.digest();
  }

  static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** Once secured: the length, then the file in chunks; then waits for the receiver's checksum. */
  private static final class Sender extends ChannelInboundHandlerAdapter {
    private final Path file;
    private final byte[] sha256;
    private final LongConsumer progress;
    private final CompletableFuture<byte[]> done;
    private final byte[] answer = new byte[32];
    private int answered;

    Sender(Path file, byte[] sha256, LongConsumer progress, CompletableFuture<byte[]> done) {
      this.file = file;
      this.sha256 = sha256;
      this.progress = progress;
      this.done = done;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws IOException {
      if (evt instanceof SecioHandshakeCompletionEvent) {
        SecioHandshakeCompletionEvent event = (SecioHandshakeCompletionEvent) evt;
        if (!event.isSuccess()) {
          done.completeExceptionally(event.cause());
          return;
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        ctx.write(Unpooled.buffer(8).writeLong(channel.size()));
        // The listener goes on before the write: a fast socket can take the whole file inside
        // writeAndFlush, and progress reported then would reach no one.
        ChannelProgressivePromise sent = ctx.newProgressivePromise();
        sent.addListener(new ChannelProgressiveFutureListener() {
          @Override
          public void operationProgressed(ChannelProgressiveFuture f, long bytes, long total) {
            progress.accept(bytes);
          }

          @Override
          public void operationComplete(ChannelProgressiveFuture f) {
            if (!f.isSuccess()) {
              done.completeExceptionally(f.cause());
            }
          }
        });
        ctx.writeAndFlush(new ChunkedNioFile(channel, CHUNK_SIZE_IN_BYTES), sent);
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      int length = Math.min(buf.readableBytes(), answer.length - answered);
      buf.readBytes(answer, answered, length);
      answered += length;
      buf.release();
      if (answered == answer.length) {
        if (MessageDigest.isEqual(sha256, answer)) {
          done.complete(sha256);
        } else {
          done.completeExceptionally(new IOException("the receiver's checksum differs"));
        }
        ctx.close();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      done.completeExceptionally(new IOException("connection closed before the receiver's checksum"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      done.completeExceptionally(cause);
      ctx.close();
    }
  }

  /** Reads the length, writes that many bytes to the file while hashing them, answers the hash. */
  private static final class Receiver extends ChannelInboundHandlerAdapter {
    private final Path out;
    private final CompletableFuture<byte[]> done;
    private final MessageDigest digest = newSha256();
    private FileChannel file;
    private int headerBytes;
    private long remaining;
    private boolean finished;

    Receiver(Path out, CompletableFuture<byte[]> done) {
      this.out = out;
      this.done = done;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
      ByteBuf buf = (ByteBuf) msg;
      try {
        while (headerBytes < 8 && buf.isReadable()) {
          remaining = remaining << 8 | buf.readUnsignedByte();
          if (++headerBytes == 8) {
            file = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
          }
        }
        if (headerBytes < 8 || finished) {
          return;
        }
        int length = (int) Math.min(buf.readableBytes(), remaining);
        digest.update(buf.nioBuffer(buf.readerIndex(), length));
        buf.readBytes(file, length);
        remaining -= length;
      } finally {
        buf.release();
      }
      if (remaining == 0) {
        finished = true;
        file.close();
        byte[] sha256 = digest.digest();
        // The checksum, then the end of this side's output: Secio.shutdownOutput sends the FIN only
        // after every byte written before it has been sealed and sent.
        ctx.writeAndFlush(Unpooled.wrappedBuffer(sha256.clone()));
        Secio.shutdownOutput(ctx.channel()).addListener(f -> done.complete(sha256));
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws IOException {
      if (file != null) {
        file.close();
      }
      done.completeExceptionally(new IOException("connection closed before the whole file arrived"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      done.completeExceptionally(cause);
      ctx.close();
    }
  }
}
