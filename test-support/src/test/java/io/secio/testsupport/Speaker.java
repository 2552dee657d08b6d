package io.secio.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A child process for {@link ChildProcessTest}: prints events, echoes stdin lines as events, exits 3. */
public final class Speaker {
  private Speaker() {}

  public static void main(String[] args) throws IOException {
    System.out.println("{\"event\":\"closed\"}");
    System.out.println("{\"event\":\"listening\",\"port\":4001}");
    System.out.println("not json");
    System.err.println("a line on stderr");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      System.out.println("{\"event\":\"heard\",\"line\":\"" + line + "\"}");
      System.out.flush();
    }
    System.exit(3);
  }
}
