package io.secio.examples.cli;

import java.net.InetSocketAddress;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * A {@code HOST:PORT} argument ({@code [::1]:4001} for an IPv6 host). Immutable.
 *
 * @param host a name or address, without brackets
 * @param port 0 to 65535
 */
record HostPort(String host, int port) {

  HostPort {
    if (host.isEmpty()) {
      throw new IllegalArgumentException("empty host");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /**
   * Parses {@code HOST:PORT}, or a bare {@code PORT} on {@code defaultHost} when that is not null.
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  static HostPort parse(String text, String defaultHost) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      if (defaultHost == null) {
        throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
      }
      return new HostPort(defaultHost, port(text));
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("write an IPv6 host in brackets: [" + host + "]:PORT");
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    }
    return new HostPort(host, port(text.substring(colon + 1)));
  }

  static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below, in the same words as a number out of range
    }
    throw new IllegalArgumentException("not a port (0-65535): '" + text + "'");
  }

  static String format(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  InetSocketAddress toAddress() {
    return InetSocketAddress.createUnresolved(host, port);
  }

  @Override
  public String toString() {
    return format(host, port);
  }

  /** picocli converter for {@code HOST:PORT}. */
  static final class Converter implements CommandLine.ITypeConverter<HostPort> {
    @Override
    public HostPort convert(String value) {
      try {
        return parse(value, null);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** picocli converter for {@code PORT} or {@code HOST:PORT}; a bare port is on 127.0.0.1. */
  static final class ListenConverter implements CommandLine.ITypeConverter<HostPort> {
    @Override
    public HostPort convert(String value) {
      try {
        return parse(value, "127.0.0.1");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
