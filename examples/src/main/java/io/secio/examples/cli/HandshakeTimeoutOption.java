package io.secio.examples.cli;

import io.netty.channel.ChannelHandler;
import io.secio.SecioConfig;
import io.secio.netty.multistream.Multistream;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code --handshake-timeout}: how long a connection may take to agree on secio with
 * multistream-select, and then to secure itself, before it fails; 10 s unless {@code
 * SECIO_HANDSHAKE_TIMEOUT} in the environment says otherwise (a busy machine, or a test run that
 * must not depend on the machine's speed). A picocli mixin.
 */
final class HandshakeTimeoutOption {
  @Option(names = "--handshake-timeout", paramLabel = "DURATION",
      defaultValue = "${env:SECIO_HANDSHAKE_TIMEOUT:-10s}", converter = DurationConverter.class,
      description = "Fail a connection not secured within this long, e.g. 10s, 500ms, 2m "
          + "(default: ${DEFAULT-VALUE}; the environment variable SECIO_HANDSHAKE_TIMEOUT sets it).")
  Duration timeout;

  /** {@code builder} with this timeout. */
  SecioConfig.Builder apply(SecioConfig.Builder builder) {
    return builder.handshakeTimeout(timeout);
  }

  /** A multistream-select initiator of {@code protocol}, then {@code next}, within this timeout. */
  ChannelHandler initiator(String protocol, ChannelHandler next) {
    return Multistream.initiator().protocol(protocol, () -> next).timeout(timeout).build();
  }

  /** A multistream-select responder for {@code protocol}, then {@code next}, within this timeout. */
  ChannelHandler responder(String protocol, ChannelHandler next) {
    return Multistream.responder().protocol(protocol, () -> next).timeout(timeout).build();
  }

  /** A positive duration: digits and {@code ms}, {@code s} or {@code m} (bare digits are seconds). */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");

    @Override
    public Duration convert(String value) {
      Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
      if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
        throw new TypeConversionException("not a duration: '" + value + "' (e.g. 10s, 500ms, 2m)");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      return unit.equals("ms") ? Duration.ofMillis(n) : unit.equals("m") ? Duration.ofMinutes(n) : Duration.ofSeconds(n);
    }
  }
}
