package dev.tidemark.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The line protocol of the Java helpers the tests drive (test/harness/java-program.ts): JSON commands on stdin,
 * one per line, each with an `id`; JSON lines on stdout prefixed with "@@ ", so stray log output can never be
 * mistaken for one. Commands run concurrently and are answered as they finish, `{"id", "result"}` or
 * `{"id", "error"}`. Helpers that only report events use `emit`.
 */
public final class JsonLines {
  public static final ObjectMapper JSON = new ObjectMapper();
  private static PrintStream out;

  /** Runs one command; what it returns is the answer's `result`, what it throws is the answer's `error`. */
  public interface Handler {
    Object run(JsonNode command) throws Exception;
  }

  /** Clean-up once stdin has ended (e.g. stopping consumers), before the exit. */
  public interface AtEnd {
    void run() throws Exception;
  }

  private JsonLines() {}

  /** Keeps the real stdout for "@@ " lines; anything else written to System.out (a logger) goes to stderr. */
  public static synchronized PrintStream claimStdout() {
    if (out == null) {
      out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
      System.setOut(System.err);
    }
    return out;
  }

  /** Prints one "@@ " line. */
  public static void emit(Object value) {
    PrintStream stream = claimStdout();
    try {
      String text = JSON.writeValueAsString(value);
      synchronized (stream) {
        stream.println("@@ " + text);
      }
    } catch (Exception e) {
      e.printStackTrace();
    }
  }

  /** Answers commands until stdin ends, then runs `atEnd` and exits. */
  public static void serve(Handler handler, AtEnd atEnd) throws Exception {
    claimStdout();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    ExecutorService pool = Executors.newCachedThreadPool();
    String line;
    while ((line = in.readLine()) != null) {
      JsonNode command = JSON.readTree(line);
      pool.submit(() -> answer(handler, command));
    }
    atEnd.run();
    pool.shutdownNow();
    System.exit(0);
  }

  private static void answer(Handler handler, JsonNode command) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("id", command.get("id").asInt());
    try {
      reply.put("result", handler.run(command));
    } catch (Throwable t) {
      Throwable cause = t instanceof ExecutionException && t.getCause() != null ? t.getCause() : t;
      reply.put("error", cause.getClass().getName() + ": " + cause.getMessage());
    }
    emit(reply);
  }
}
