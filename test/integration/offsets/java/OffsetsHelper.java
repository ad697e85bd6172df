package dev.tidemark.offsets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.harness.JsonLines;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's own Java clients, driven by tidemark's integration tests: one JVM per test file, one JSON command per
 * stdin line, one JSON answer per stdout line (prefixed with "@@ " so stray log output cannot be mistaken for one).
 * The answers are the oracle the tests compare tidemark with.
 */
public final class OffsetsHelper {
  private static final Map<String, Member> MEMBERS = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    JsonLines.serve(OffsetsHelper::run, () -> {
      for (Member m : MEMBERS.values()) m.stop();
    });
  }

  private static Object run(JsonNode cmd) throws Exception {
    String bootstrap = cmd.path("bootstrap").asText();
    switch (cmd.get("op").asText()) {
      case "version":
        return "ready";
      case "produce":
        return produce(bootstrap, cmd);
      case "offsetsForTimes":
        return offsetsForTimes(bootstrap, cmd);
      case "listGroupOffsets":
        return listGroupOffsets(bootstrap, cmd.get("group").asText());
      case "endOffsets":
        return endOffsets(bootstrap, cmd);
      case "consumeAndCommit":
        return consumeAndCommit(bootstrap, cmd);
      case "join": {
        Member m = new Member(bootstrap, cmd);
        MEMBERS.put(cmd.get("member").asText(), m);
        return m.awaitAssignment(cmd.path("timeoutMs").asLong(60_000));
      }
      case "memberInfo": {
        Member m = MEMBERS.get(cmd.get("member").asText());
        if (m == null) throw new IllegalArgumentException("no member " + cmd.get("member"));
        return m.info();
      }
      case "leave": {
        Member m = MEMBERS.remove(cmd.get("member").asText());
        if (m != null) m.stop();
        return true;
      }
      default:
        throw new IllegalArgumentException("unknown op " + cmd.get("op"));
    }
  }

  /** Sends records with the given partitions, timestamps and values; answers where each one landed. */
  private static Object produce(String bootstrap, JsonNode cmd) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    // One request in flight, for the reason ProducerInterop.producer gives (a fresh topic's partitions).
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
    String topic = cmd.get("topic").asText();
    List<Map<String, Object>> placed = new ArrayList<>();
    try (Producer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (JsonNode r : cmd.get("records")) {
        Long ts = r.has("timestamp") ? r.get("timestamp").asLong() : null;
        byte[] value = r.path("value").asText("").getBytes(StandardCharsets.UTF_8);
        sent.add(producer.send(new ProducerRecord<>(topic, r.get("partition").asInt(), ts, null, value)));
      }
      producer.flush();
      for (Future<RecordMetadata> f : sent) {
        RecordMetadata md = f.get();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", md.partition());
        m.put("offset", String.valueOf(md.offset()));
        m.put("timestamp", String.valueOf(md.timestamp()));
        placed.add(m);
      }
    }
    return placed;
  }

  private static Properties consumerProps(String bootstrap, String group, JsonNode cmd) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    if (group != null) p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    if (cmd != null && cmd.has("protocol")) p.put("group.protocol", cmd.get("protocol").asText());
    if (cmd != null && cmd.has("clientId")) p.put(ConsumerConfig.CLIENT_ID_CONFIG, cmd.get("clientId").asText());
    return p;
  }

  /** The Java consumer's offsetsForTimes: null where no record has a timestamp at or after the one asked for. */
  private static Object offsetsForTimes(String bootstrap, JsonNode cmd) {
    String topic = cmd.get("topic").asText();
    List<Object> answers = new ArrayList<>();
    try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(bootstrap, null, null))) {
      for (JsonNode q : cmd.get("queries")) {
        TopicPartition tp = new TopicPartition(topic, q.get("partition").asInt());
        OffsetAndTimestamp ot =
            consumer.offsetsForTimes(Map.of(tp, q.get("timestamp").asLong()), Duration.ofSeconds(30)).get(tp);
        if (ot == null) {
          answers.add(null);
        } else {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("offset", String.valueOf(ot.offset()));
          m.put("timestamp", String.valueOf(ot.timestamp()));
          m.put("leaderEpoch", ot.leaderEpoch().orElse(-1));
          answers.add(m);
        }
      }
    }
    return answers;
  }

  private static Admin admin(String bootstrap) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return Admin.create(p);
  }

  /** Admin.listConsumerGroupOffsets: what Kafka's own tooling reports as the group's committed offsets. */
  private static Object listGroupOffsets(String bootstrap, String group) throws Exception {
    try (Admin admin = admin(bootstrap)) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
      List<Map<String, Object>> list = new ArrayList<>();
      for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
        if (e.getValue() == null) continue;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topic", e.getKey().topic());
        m.put("partition", e.getKey().partition());
        m.put("offset", String.valueOf(e.getValue().offset()));
        m.put("leaderEpoch", e.getValue().leaderEpoch().orElse(-1));
        m.put("metadata", e.getValue().metadata());
        list.add(m);
      }
      return list;
    }
  }

  /** Admin.listOffsets(latest) for every partition of a topic: the log end offsets lag is computed from. */
  private static Object endOffsets(String bootstrap, JsonNode cmd) throws Exception {
    String topic = cmd.get("topic").asText();
    try (Admin admin = admin(bootstrap)) {
      Map<TopicPartition, OffsetSpec> query = new HashMap<>();
      for (JsonNode p : cmd.get("partitions")) query.put(new TopicPartition(topic, p.asInt()), OffsetSpec.latest());
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r = admin.listOffsets(query).all().get();
      Map<String, String> answer = new TreeMap<>();
      for (var e : r.entrySet()) answer.put(String.valueOf(e.getKey().partition()), String.valueOf(e.getValue().offset()));
      return answer;
    }
  }

  /** A group member that reads `count` records, commits what it read (commitSync), and leaves. */
  private static Object consumeAndCommit(String bootstrap, JsonNode cmd) {
    int count = cmd.get("count").asInt();
    try (Consumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(consumerProps(bootstrap, cmd.get("group").asText(), cmd))) {
      consumer.subscribe(List.of(cmd.get("topic").asText()));
      Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
      int read = 0;
      long deadline = System.currentTimeMillis() + 60_000;
      while (read < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (read >= count) break;
          read++;
          next.put(new TopicPartition(r.topic(), r.partition()),
              new OffsetAndMetadata(r.offset() + 1, r.leaderEpoch(), "java"));
        }
      }
      if (read < count) throw new IllegalStateException("read only " + read + " of " + count + " records");
      consumer.commitSync(next);
      List<Map<String, Object>> list = new ArrayList<>();
      for (var e : next.entrySet()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topic", e.getKey().topic());
        m.put("partition", e.getKey().partition());
        m.put("offset", String.valueOf(e.getValue().offset()));
        m.put("leaderEpoch", e.getValue().leaderEpoch().orElse(-1));
        list.add(m);
      }
      return list;
    }
  }

  /** A live group member: polls in its own thread until told to leave, so the group stays non-empty. */
  private static final class Member {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CompletableFuture<Object> assigned = new CompletableFuture<>();
    private final Thread thread;
    // Read by other threads while the member's own thread polls (KafkaConsumer itself is single-threaded).
    private volatile String memberId = "";
    private volatile int generationId = -1;
    private volatile List<String> assignment = List.of();

    Member(String bootstrap, JsonNode cmd) {
      Properties props = consumerProps(bootstrap, cmd.get("group").asText(), cmd);
      String topic = cmd.get("topic").asText();
      thread = new Thread(() -> {
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
          consumer.subscribe(List.of(topic));
          while (running.get()) {
            consumer.poll(Duration.ofMillis(100));
            memberId = consumer.groupMetadata().memberId();
            generationId = consumer.groupMetadata().generationId();
            List<String> parts = new ArrayList<>();
            for (TopicPartition tp : consumer.assignment()) parts.add(tp.toString());
            Collections.sort(parts);
            assignment = parts;
            if (!assigned.isDone() && !parts.isEmpty()) assigned.complete(info());
          }
        } catch (Throwable t) {
          assigned.completeExceptionally(t);
        }
      }, "member");
      thread.start();
    }

    Map<String, Object> info() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("memberId", memberId);
      m.put("generationId", generationId);
      m.put("assignment", assignment);
      return m;
    }

    Object awaitAssignment(long timeoutMs) throws Exception {
      return assigned.get(timeoutMs, TimeUnit.MILLISECONDS);
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(30_000);
    }
  }
}
