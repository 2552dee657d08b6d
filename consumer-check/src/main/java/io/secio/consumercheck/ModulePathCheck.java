package io.secio.consumercheck;

import io.secio.Backend;
import io.secio.SecioConfig;
import io.secio.identity.IdentityKeyPair;
import io.secio.identity.KeyType;
import io.secio.netty.Secio;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

/**
 * Run on the module path ({@code java -p ... -m io.secio.consumercheck/...}): reports which secio
 * packages this module can see, then a loopback handshake and echo. ModulePathTest reads the report.
 */
public final class ModulePathCheck {
  private static final List<String> PACKAGES = List.of("io.secio", "io.secio.protocol",
      "io.secio.identity", "io.secio.handshake", "io.secio.frame", "io.secio.frame.cipher", "io.secio.crypto");

  private ModulePathCheck() {}

  public static void main(String[] args) throws Exception {
    Module me = ModulePathCheck.class.getModule();
    Module core = SecioConfig.class.getModule();
    Module netty = Secio.class.getModule();
    System.out.println("named " + me.getName() + " " + core.getName() + " " + netty.getName());
    for (String pkg : PACKAGES) {
      System.out.println("exported " + pkg + " " + core.isExported(pkg, me));
    }
    System.out.println("exported io.secio.netty.stage " + netty.isExported("io.secio.netty.stage", me));
    System.out.println("conscrypt resolved "
        + ModuleLayer.boot().findModule("org.conscrypt").isPresent());

    SecureRandom random = new SecureRandom();
    // The backend is chosen with an exported type: Bouncy Castle signs and encrypts the server's side.
    SecioConfig server = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .handshakeTimeout(LoopbackEcho.HANDSHAKE_GUARD)
        .backend(Backend.BOUNCY_CASTLE)
        .build();
    SecioConfig client = SecioConfig.builder(IdentityKeyPair.generate(KeyType.ED25519, random))
        .handshakeTimeout(LoopbackEcho.HANDSHAKE_GUARD)
        .backend(Backend.AUTO)
        .build();
    LoopbackEcho.Outcome outcome =
        LoopbackEcho.run(server, client, "hello".getBytes(StandardCharsets.UTF_8));
    System.out.println("echoed " + new String(outcome.echoed(), StandardCharsets.UTF_8)
        + " over " + outcome.session().cipher() + " by " + outcome.session().cipherBackend());
  }
}
