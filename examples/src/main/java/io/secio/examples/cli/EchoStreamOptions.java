package io.secio.examples.cli;

import io.secio.tentacle.TentacleProtocol;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code dial}'s options for an echo over the streams of a session: {@code --message-size} and
 * {@code --streams}, for a tentacle session ({@code --protocol}) and a libp2p connection ({@code
 * --muxer}). A picocli mixin.
 */
final class EchoStreamOptions {
  /** The default largest message. */
  static final int DEFAULT_MESSAGE_SIZE = 64 * 1024;

  @Option(names = "--message-size", paramLabel = "M", converter = ByteCount.class,
      description = "With --protocol or --muxer: send writes of at most M bytes (default: 64K; at most "
          + "8M, tentacle's message limit; a muxer cuts a large write into its own frames).")
  Long messageSize;

  @Option(names = "--streams", paramLabel = "K", defaultValue = "1",
      description = "With --protocol or --muxer: streams to echo on at once, each --send-bytes N. "
          + "tentacle opens one stream per protocol per session, so only 1 is allowed there.")
  int streams;

  /** The largest write, checked: 1 to 8M. */
  int messageSize(CommandSpec spec) {
    long size = messageSize == null ? DEFAULT_MESSAGE_SIZE : messageSize;
    if (size < 1 || size > TentacleProtocol.DEFAULT_MAX_MESSAGE_LENGTH_IN_BYTES) {
      throw new ParameterException(spec.commandLine(), "--message-size must be 1 to 8M, not " + size);
    }
    return (int) size;
  }
}
