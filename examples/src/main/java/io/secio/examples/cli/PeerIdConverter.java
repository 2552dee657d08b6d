package io.secio.examples.cli;

import io.secio.PeerId;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/** picocli converter for a base58 peer id such as {@code 12D3KooW...}. */
final class PeerIdConverter implements CommandLine.ITypeConverter<PeerId> {
  @Override
  public PeerId convert(String value) {
    try {
      return PeerId.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("not a peer id: '" + value + "'");
    }
  }
}
