package io.secio.ckb.header;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Headers in CKB's JSON-RPC form ({@code get_header}, {@code get_tip_header}), both ways, strictly:
 * exactly the fields {@code version compact_target timestamp number epoch parent_hash
 * transactions_root proposals_hash extra_hash dao nonce}, and {@code hash}, optional on reading but
 * then equal to the header's hash. Numbers are written as CKB writes them, {@code 0x} then lower-case
 * hex without leading zeros ({@code 0x0} for zero), and only that form is read (CKB's own reader also
 * takes upper case); hashes are {@code 0x} and 64 lower-case hex digits.
 *
 * <p>Stateless and thread-safe.
 */
public final class HeaderJson {
  private static final Set<String> FIELDS = Set.of("version", "compact_target", "timestamp", "number",
      "epoch", "parent_hash", "transactions_root", "proposals_hash", "extra_hash", "dao", "nonce", "hash");

  private HeaderJson() {}

  /**
   * The header in {@code json}, one RPC header object.
   *
   * @param json the object
   * @return the header
   * @throws MalformedHeaderException if it is not exactly one header object
   */
  public static Header parse(String json) throws MalformedHeaderException {
    if (json.strip().startsWith("[")) {
      throw new MalformedHeaderException("an array, not one header object");
    }
    return header(RpcJson.objects(json).get(0), 0);
  }

  /**
   * The headers in {@code text}: a JSON array of header objects, or one header object per line
   * (blank lines skipped).
   *
   * @param text the text
   * @return the headers, in order
   * @throws MalformedHeaderException naming the first item that is not a header
   */
  public static List<Header> parseAll(String text) throws MalformedHeaderException {
    List<Header> out = new ArrayList<>();
    if (text.strip().startsWith("[")) {
      for (Map<String, String> fields : RpcJson.objects(text)) {
        out.add(header(fields, out.size()));
      }
      return out;
    }
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        List<Map<String, String>> objects = RpcJson.objects(lines.get(i));
        out.add(header(objects.get(0), out.size()));
      } catch (MalformedHeaderException e) {
        throw new MalformedHeaderException("line " + (i + 1) + ": " + e.getMessage());
      }
    }
    return out;
  }

  /**
   * {@code header} as CKB's RPC prints it, hash included, fields in CKB's order, on one line.
   *
   * @param header the header
   * @return the JSON object
   */
  public static String write(Header header) {
    return "{\"version\":\"" + quantity(BigInteger.valueOf(header.version()))
        + "\",\"compact_target\":\"" + quantity(BigInteger.valueOf(Integer.toUnsignedLong(header.compactTarget())))
        + "\",\"timestamp\":\"" + quantity(unsigned(header.timestamp()))
        + "\",\"number\":\"" + quantity(unsigned(header.number()))
        + "\",\"epoch\":\"" + quantity(unsigned(header.epoch().fullValue()))
        + "\",\"parent_hash\":\"" + header.parentHash()
        + "\",\"transactions_root\":\"" + header.transactionsRoot()
        + "\",\"proposals_hash\":\"" + header.proposalsHash()
        + "\",\"extra_hash\":\"" + header.extraHash()
        + "\",\"dao\":\"" + header.dao()
        + "\",\"nonce\":\"" + quantity(header.nonce())
        + "\",\"hash\":\"" + header.hash() + "\"}";
  }

  private static Header header(Map<String, String> fields, int index) throws MalformedHeaderException {
    for (String name : fields.keySet()) {
      if (!FIELDS.contains(name)) {
        throw new MalformedHeaderException("header " + index + ": unknown field \"" + name + "\"");
      }
    }
    try {
      Header header = Header.builder()
          .version(number(fields, "version", 32).longValue())
          .compactTarget(number(fields, "compact_target", 32).intValue())
          .timestamp(number(fields, "timestamp", 64).longValue())
          .number(number(fields, "number", 64).longValue())
          .epoch(EpochNumberWithFraction.fromFullValue(number(fields, "epoch", 64).longValue()))
          .parentHash(hash(fields, "parent_hash"))
          .transactionsRoot(hash(fields, "transactions_root"))
          .proposalsHash(hash(fields, "proposals_hash"))
          .extraHash(hash(fields, "extra_hash"))
          .dao(hash(fields, "dao"))
          .nonce(number(fields, "nonce", 128))
          .build();
      String claimed = fields.get("hash");
      if (claimed != null && !Byte32.parse(claimed).equals(header.hash())) {
        throw new IllegalArgumentException("\"hash\" " + claimed + " is not the header's hash " + header.hash());
      }
      return header;
    } catch (IllegalArgumentException e) {
      throw new MalformedHeaderException("header " + index + ": " + e.getMessage());
    }
  }

  private static String field(Map<String, String> fields, String name) {
    String value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no \"" + name + "\"");
    }
    return value;
  }

  private static Byte32 hash(Map<String, String> fields, String name) {
    return parseOrSay(name, Byte32::parse, field(fields, name));
  }

  /** A {@code 0x}-prefixed lower-case quantity without leading zeros, of at most {@code bits} bits. */
  private static BigInteger number(Map<String, String> fields, String name, int bits) {
    String text = field(fields, name);
    boolean wellFormed = text.length() > 2 && text.length() <= 2 + bits / 4 && text.startsWith("0x")
        && Byte32.isLowerHex(text, 2) && (text.charAt(2) != '0' || text.length() == 3);
    if (!wellFormed) {
      throw new IllegalArgumentException("\"" + name + "\" is no " + bits
          + "-bit quantity (0x, lower-case hex, no leading zero): " + Byte32.abbreviate(text));
    }
    return new BigInteger(text.substring(2), 16);
  }

  private static <T> T parseOrSay(String name, Function<String, T> parser, String text) {
    try {
      return parser.apply(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + name + "\": " + e.getMessage(), e);
    }
  }

  private static BigInteger unsigned(long value) {
    return new BigInteger(Long.toUnsignedString(value));
  }

  private static String quantity(BigInteger value) {
    return "0x" + value.toString(16);
  }
}
