package dev.tidemark.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.harness.JsonLines;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's own Java clients as the oracle of tidemark's consumer tests: one JVM per test file, one JSON command per
 * stdin line, one JSON answer per stdout line (prefixed with "@@ "). `scenario` runs a script of consumer calls
 * (assign, seek, pause, position, committed...) and answers what each observing step saw, so the same script run
 * against tidemark can be compared step by step.
 */
public final class ConsumerOracle {
  public static void main(String[] args) throws Exception {
    JsonLines.serve(ConsumerOracle::run, () -> {});
  }

  private static Object run(JsonNode cmd) throws Exception {
    String bootstrap = cmd.path("bootstrap").asText();
    switch (cmd.get("op").asText()) {
      case "version":
        return "ready";
      case "scenario":
        return scenario(bootstrap, cmd);
      case "produceTransactions":
        return produceTransactions(bootstrap, cmd);
      case "consumeValues":
        return consumeValues(bootstrap, cmd);
      default:
        throw new IllegalArgumentException("unknown op " + cmd.get("op"));
    }
  }

  private static Properties consumerProps(String bootstrap, String group, String isolation) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    if (group != null) p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    return p;
  }

  private static List<TopicPartition> tps(String topic, JsonNode partitions) {
    List<TopicPartition> list = new ArrayList<>();
    for (JsonNode p : partitions) list.add(new TopicPartition(topic, p.asInt()));
    return list;
  }

  /** Runs the steps on one KafkaConsumer (manual assignment, max.poll.records 1); answers one entry per step. */
  private static Object scenario(String bootstrap, JsonNode cmd) {
    String topic = cmd.get("topic").asText();
    List<Object> seen = new ArrayList<>();
    try (Consumer<byte[], byte[]> c =
        new KafkaConsumer<>(consumerProps(bootstrap, cmd.get("group").asText(), "read_uncommitted"))) {
      for (JsonNode step : cmd.get("steps")) {
        String op = step.get("op").asText();
        Object result = null;
        switch (op) {
          case "assign":
            c.assign(tps(topic, step.get("partitions")));
            break;
          case "seek":
            c.seek(new TopicPartition(topic, step.get("partition").asInt()), step.get("offset").asLong());
            break;
          case "seekToBeginning":
            c.seekToBeginning(tps(topic, step.get("partitions")));
            break;
          case "seekToEnd":
            c.seekToEnd(tps(topic, step.get("partitions")));
            break;
          case "pause":
            c.pause(tps(topic, step.get("partitions")));
            break;
          case "resume":
            c.resume(tps(topic, step.get("partitions")));
            break;
          case "paused":
            {
              List<Integer> ps = new ArrayList<>();
              for (TopicPartition tp : c.paused()) ps.add(tp.partition());
              Collections.sort(ps);
              result = ps;
            }
            break;
          case "position":
            result = String.valueOf(c.position(new TopicPartition(topic, step.get("partition").asInt())));
            break;
          case "read":
            result = read(c, step.get("count").asInt());
            break;
          case "commit":
            c.commitSync();
            break;
          case "commitOffsets":
            {
              Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
              for (JsonNode o : step.get("offsets")) {
                offsets.put(
                    new TopicPartition(topic, o.get("partition").asInt()),
                    new OffsetAndMetadata(o.get("offset").asLong()));
              }
              c.commitSync(offsets);
            }
            break;
          case "committed":
            {
              Map<TopicPartition, OffsetAndMetadata> committed =
                  c.committed(new HashSet<>(tps(topic, step.get("partitions"))));
              List<Object> list = new ArrayList<>();
              for (TopicPartition tp : tps(topic, step.get("partitions"))) {
                OffsetAndMetadata om = committed.get(tp);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("partition", tp.partition());
                m.put("offset", om == null ? null : String.valueOf(om.offset()));
                m.put("leaderEpoch", om == null ? -1 : om.leaderEpoch().orElse(-1));
                list.add(m);
              }
              result = list;
            }
            break;
          default:
            throw new IllegalArgumentException("unknown step " + op);
        }
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("op", op);
        entry.put("result", result);
        seen.add(entry);
      }
    }
    return seen;
  }

  /** Polls until exactly `count` records came back (max.poll.records is 1); `partition:offset` of each. */
  private static List<String> read(Consumer<byte[], byte[]> c, int count) {
    List<String> records = new ArrayList<>();
    long deadline = System.currentTimeMillis() + 30_000;
    while (records.size() < count && System.currentTimeMillis() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
        records.add(r.partition() + ":" + r.offset());
      }
    }
    return records;
  }

  /** Writes transactions with a transactional producer: each `{values, abort}` is committed or aborted. */
  private static Object produceTransactions(String bootstrap, JsonNode cmd) throws Exception {
    String topic = cmd.get("topic").asText();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, cmd.get("transactionalId").asText());
    int partition = cmd.path("partition").asInt(0);
    try (Producer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      producer.initTransactions();
      for (JsonNode txn : cmd.get("transactions")) {
        producer.beginTransaction();
        for (JsonNode v : txn.get("values")) {
          producer.send(new ProducerRecord<>(topic, partition, null, v.asText().getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        if (txn.path("abort").asBoolean(false)) producer.abortTransaction();
        else producer.commitTransaction();
      }
    }
    return true;
  }

  /** A consumer with the given isolation reads the partition from the start up to its end; the values it saw. */
  private static Object consumeValues(String bootstrap, JsonNode cmd) {
    String topic = cmd.get("topic").asText();
    TopicPartition tp = new TopicPartition(topic, cmd.path("partition").asInt(0));
    List<String> values = new ArrayList<>();
    Properties props = consumerProps(bootstrap, null, cmd.get("isolation").asText());
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
    try (Consumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      // The end for this isolation level: the log end, or with read_committed the last stable offset.
      long end = c.endOffsets(List.of(tp)).get(tp);
      long deadline = System.currentTimeMillis() + 30_000;
      while (c.position(tp) < end && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          values.add(new String(r.value(), StandardCharsets.UTF_8));
        }
      }
    }
    return values;
  }
}
