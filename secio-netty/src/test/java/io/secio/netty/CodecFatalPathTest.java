package io.secio.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.secio.crypto.CryptoBackends;
import io.secio.frame.CipherPair;
import io.secio.frame.FrameOpener;
import io.secio.frame.FrameSealer;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.frame.cipher.KeyStretcher;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.testing.FailingBackend;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A crypto provider that throws an unchecked exception while a frame is opened or sealed ends the
 * connection through the codec's one fatal path: keys destroyed, queued writes failed, one exception
 * fired, channel closed, nothing after it delivered.
 */
class CodecFatalPathTest {
  private static final CipherAlgorithm CIPHER = CipherAlgorithm.AES_128_GCM;

  private final FailingBackend failing = new FailingBackend(CryptoBackends.defaultBackend());
  private final List<Throwable> fired = new ArrayList<>();
  private final List<Object> delivered = new ArrayList<>();
  private FrameSealer peerSealer;
  private FrameSealer sealer;
  private FrameOpener opener;

  private EmbeddedChannel channel() throws Exception {
    KeyStretcher.StretchedKeys keys = KeyStretcher.stretch(CIPHER, HashAlgorithm.SHA256, new byte[32]);
    peerSealer =
        FrameCiphers.sealer(CryptoBackends.defaultBackend(), CIPHER, HashAlgorithm.SHA256, keys.k1());
    sealer = FrameCiphers.sealer(failing, CIPHER, HashAlgorithm.SHA256, keys.k2());
    opener = FrameCiphers.opener(failing, CIPHER, HashAlgorithm.SHA256, keys.k1());
    SecioFrameCodec codec = new SecioFrameCodec(new CipherPair(sealer, opener), 1 << 20, 1024);
    return new EmbeddedChannel(codec, new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        delivered.add(msg);
        io.netty.util.ReferenceCountUtil.release(msg);
      }

      @Override
      public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fired.add(cause);
      }
    });
  }

  @Test
  void anOpenerThatThrowsClosesOnceAndDeliversNothingMore() throws Exception {
    EmbeddedChannel ch = channel();
    ch.writeInbound(Unpooled.wrappedBuffer(peerSealer.seal(new byte[] {1})));
    assertEquals(1, delivered.size());
    ProviderException boom = new ProviderException("device lost");
    failing.failOpening(boom);
    ch.writeInbound(Unpooled.wrappedBuffer(peerSealer.seal(new byte[] {2})));
    assertEquals(1, delivered.size(), "nothing from the failed frame");
    assertEquals(1, fired.size(), "one exception");
    assertSame(boom, fired.get(0));
    assertFalse(ch.isOpen());
    assertTrue(sealerDestroyed());
    assertFalse(ch.finishAndReleaseAll());
  }

  @Test
  void aSealerThatThrowsFailsEveryQueuedWriteAndClosesOnce() throws Exception {
    EmbeddedChannel ch = channel();
    ProviderException boom = new ProviderException("device lost");
    failing.failSealing(boom);
    ChannelFuture first = ch.write(Unpooled.wrappedBuffer(new byte[3000]));
    ChannelFuture second = ch.write(Unpooled.wrappedBuffer(new byte[10]));
    ch.flush();
    assertFalse(first.isSuccess());
    assertFalse(second.isSuccess());
    assertNull(ch.readOutbound(), "no frame left");
    assertEquals(1, fired.size(), "one exception");
    assertSame(boom, fired.get(0));
    assertFalse(ch.isOpen());
    assertTrue(sealerDestroyed());
    ChannelFuture later = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[1]));
    assertInstanceOf(Exception.class, later.cause());
    assertFalse(ch.finishAndReleaseAll());
  }

  private boolean sealerDestroyed() {
    try {
      sealer.seal(new byte[1]);
      return false;
    } catch (IllegalStateException e) {
      return true;
    } catch (Exception e) {
      return false;
    }
  }
}
