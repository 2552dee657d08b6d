package io.secio.ckb.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The generator's chains pass the verifier under each PoW rule, and a seed fixes them. */
class ChainGeneratorTest {

  @ParameterizedTest
  @EnumSource(Pow.class)
  void generatedChainsVerifyAcrossEpochs(Pow pow) throws HeaderException {
    ChainGenerator generator = new ChainGenerator(42, pow, 10);
    List<Header> chain = generator.chain(60);
    Header last = chain.get(chain.size() - 1);
    HeaderVerifier verifier = new HeaderVerifier(generator.consensus(),
        Clock.fixed(Instant.ofEpochMilli(last.timestamp()), ZoneOffset.UTC));
    verifier.verifyGenesis(chain.get(0));
    MedianTimeWindow window = MedianTimeWindow.of(chain.get(0).timestamp());
    for (int i = 1; i < chain.size(); i++) {
      verifier.verify(chain.get(i), chain.get(i - 1), window.median());
      window.push(chain.get(i).timestamp());
    }
    assertEquals(EpochNumberWithFraction.of(6, 0, 10), last.epoch());
    assertEquals(chain, new ChainGenerator(42, pow, 10).chain(60));
    assertNotEquals(chain, new ChainGenerator(43, pow, 10).chain(60));
  }
}
