package io.secio.ckb.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * A CKB network: its chain spec's name and genesis hash, and the identify name a node checks every
 * peer against ({@code "/" + spec name + "/" + the first 8 hex digits of the genesis hash}, CKB's
 * {@code spec/src/consensus.rs} {@code identify_name}). A peer naming another network is banned for
 * 300 s, so a session's identify name always comes from here.
 *
 * <p>Immutable and thread-safe.
 */
public final class CkbNetwork {
  /** Size of a genesis hash (ckbhash, BLAKE2b-256). */
  public static final int HASH_SIZE_IN_BYTES = 32;

  /** Mainnet (Lina): spec {@code ckb}, identify name {@code /ckb/92b197aa}. */
  public static final CkbNetwork MAINNET = new CkbNetwork("ckb",
      HexFormat.of().parseHex("92b197aa1fba0f63633922c61c92375c9c074a93e85963554f5499fe1450d0e5"), "mainnet");
  /** Testnet (Pudge): spec {@code ckb_testnet}, identify name {@code /ckb_testnet/10639e08}. */
  public static final CkbNetwork TESTNET = new CkbNetwork("ckb_testnet",
      HexFormat.of().parseHex("10639e0895502b5688a6be8cf69460d76541bfa4821629d86d62ba0aae3f9606"), "testnet");

  private final String specName;
  private final byte[] genesisHash;
  private final String label;

  private CkbNetwork(String specName, byte[] genesisHash, String label) {
    this.specName = specName;
    this.genesisHash = genesisHash;
    this.label = label;
  }

  /**
   * A development network, given by its spec's name and genesis hash (each dev spec has its own:
   * the hash covers every byte of the spec).
   *
   * @param specName the spec's {@code name}, such as {@code ckb_dev}
   * @param genesisHash the genesis block's hash, 32 bytes
   * @return the network
   * @throws IllegalArgumentException if the name is empty or holds a {@code /}, or the hash is not 32 bytes
   */
  public static CkbNetwork dev(String specName, byte[] genesisHash) {
    Objects.requireNonNull(specName, "specName");
    Objects.requireNonNull(genesisHash, "genesisHash");
    if (specName.isEmpty() || specName.indexOf('/') >= 0) {
      throw new IllegalArgumentException("a spec name is not empty and has no '/': " + specName);
    }
    if (genesisHash.length != HASH_SIZE_IN_BYTES) {
      throw new IllegalArgumentException("a genesis hash has 32 bytes, not " + genesisHash.length);
    }
    return new CkbNetwork(specName, genesisHash.clone(), "dev:" + specName + ":" + HexFormat.of().formatHex(genesisHash));
  }

  /**
   * Parses {@code mainnet}, {@code testnet} or {@code dev:NAME:GENESIS} (the genesis hash in hex,
   * with or without {@code 0x}), as the command line takes it.
   *
   * @param text the network's text form
   * @return the network
   * @throws IllegalArgumentException if the text is none of these
   */
  public static CkbNetwork parse(String text) {
    Objects.requireNonNull(text, "text");
    switch (text.toLowerCase(Locale.ROOT)) {
      case "mainnet":
        return MAINNET;
      case "testnet":
        return TESTNET;
      default:
        break;
    }
    String[] parts = text.split(":", -1);
    if (parts.length != 3 || !parts[0].equals("dev")) {
      throw new IllegalArgumentException("a network is mainnet, testnet or dev:NAME:GENESIS_HASH, not " + text);
    }
    String hex = parts[2].startsWith("0x") ? parts[2].substring(2) : parts[2];
    byte[] hash;
    try {
      hash = HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a genesis hash is 64 hex digits, not " + parts[2], e);
    }
    return dev(parts[1], hash);
  }

  /** The chain spec's name: {@code ckb}, {@code ckb_testnet}, or a dev spec's. */
  public String specName() {
    return specName;
  }

  /** The genesis block's hash, 32 bytes (a copy). */
  public byte[] genesisHash() {
    return genesisHash.clone();
  }

  /** The name both sides' Identify messages carry, such as {@code /ckb/92b197aa}. */
  public String identifyName() {
    return "/" + specName + "/" + HexFormat.of().formatHex(genesisHash, 0, 4);
  }

  /** Whether this is mainnet or testnet (not a dev network). */
  public boolean isPublic() {
    return this == MAINNET || this == TESTNET;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CkbNetwork other && specName.equals(other.specName)
        && Arrays.equals(genesisHash, other.genesisHash);
  }

  @Override
  public int hashCode() {
    return 31 * specName.hashCode() + Arrays.hashCode(genesisHash);
  }

  /** The text {@link #parse} reads: {@code mainnet}, {@code testnet} or {@code dev:NAME:GENESIS}. */
  @Override
  public String toString() {
    return label;
  }
}
