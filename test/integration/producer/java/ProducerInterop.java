package dev.tidemark.producer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.harness.JsonLines;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's Java clients as the oracle for tidemark's producer tests, one JVM for a whole test file (the JsonLines
 * protocol; one JVM per call cost a JVM start, class loading and a cold JIT each, 22 times per file). Ops, each
 * answering a list of objects:
 *   produce {bootstrap, topic, compression, count}  writes the shared test records (see record-spec.ts): index,
 *                                                   partition, offset, timestamp of each
 *   keyed {bootstrap, topic, count}                 writes records keyed "key-<i>": where each landed
 *   consume {bootstrap, topic, count}               reads COUNT records from the start of every partition
 *                                                   (bytes in base64)
 *   partition {count, partitions: [...]}            BuiltInPartitioner.partitionForKey for keys "key-<i>" and the
 *                                                   multilingual keys, per partition count
 * The record spec here and in record-spec.ts must stay identical.
 */
public class ProducerInterop {
  static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  static String key(int i) {
    return i % 5 == 0 ? null : "key-" + i;
  }

  static String value(int i) {
    if (i % 11 == 0) return null;
    if (i % 17 == 0) return "";
    return ("value-" + i + "-").repeat(1 + i % 13) + (i % 4 == 0 ? "ünïcødé ✓" : "");
  }

  static List<Header> headers(int i) {
    List<Header> h = new ArrayList<>();
    if (i % 3 == 0) return h;
    h.add(new RecordHeader("h1", utf8("x" + i)));
    h.add(new RecordHeader("h2", (byte[]) null));
    h.add(new RecordHeader("h1", utf8("dup")));
    return h;
  }

  static long timestamp(int i) {
    return 1_700_000_000_000L + i * 1000L;
  }

  static String b64(byte[] b) {
    return b == null ? null : Base64.getEncoder().encodeToString(b);
  }

  static KafkaProducer<byte[], byte[]> producer(String bootstrap, String compression) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("compression.type", compression);
    p.put("linger.ms", "20");
    p.put("acks", "all");
    // One request in flight: the tests write to topics created a moment earlier, where a pipelined Java
    // producer can get stuck. Its first batch to a partition the broker has not yet made local is turned away,
    // a later batch arriving after that is appended (a broker with no state for a producer accepts any first
    // sequence), and the retried first batch then fails with OutOfOrderSequence until delivery.timeout.ms
    // (120 s): seen in a full run, 108 such errors on three partitions of keyed-java-12 over the test's 60 s.
    p.put("max.in.flight.requests.per.connection", "1");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  public static void main(String[] args) throws Exception {
    JsonLines.serve(ProducerInterop::run, () -> {});
  }

  static Object run(JsonNode c) throws Exception {
    switch (c.get("op").asText()) {
      case "version":
        return "1";
      case "produce":
        return produce(c.get("bootstrap").asText(), c.get("topic").asText(), c.get("compression").asText(), c.get("count").asInt());
      case "keyed":
        return keyed(c.get("bootstrap").asText(), c.get("topic").asText(), c.get("count").asInt());
      case "consume":
        return consume(c.get("bootstrap").asText(), c.get("topic").asText(), c.get("count").asInt());
      case "partition": {
        List<Integer> counts = new ArrayList<>();
        for (JsonNode n : c.get("partitions")) counts.add(n.asInt());
        return partition(c.get("count").asInt(), counts);
      }
      default:
        throw new IllegalArgumentException("unknown op " + c.get("op").asText());
    }
  }

  static List<Map<String, Object>> produce(String bootstrap, String topic, String compression, int count) throws Exception {
    List<Map<String, Object>> out = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, compression)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        sent.add(producer.send(new ProducerRecord<>(topic, null, timestamp(i), utf8(key(i)), utf8(value(i)), headers(i))));
      }
      producer.flush();
      for (int i = 0; i < count; i++) {
        RecordMetadata m = sent.get(i).get();
        out.add(Map.of("i", i, "p", m.partition(), "o", m.offset(), "ts", m.timestamp()));
      }
    }
    return out;
  }

  static List<Map<String, Object>> keyed(String bootstrap, String topic, int count) throws Exception {
    List<Map<String, Object>> out = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "none")) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < count; i++) sent.add(producer.send(new ProducerRecord<>(topic, utf8("key-" + i), utf8("v"))));
      producer.flush();
      for (int i = 0; i < count; i++) out.add(Map.of("i", i, "p", sent.get(i).get().partition()));
    }
    return out;
  }

  static List<Map<String, Object>> consume(String bootstrap, String topic, int count) {
    List<Map<String, Object>> out = new ArrayList<>();
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("enable.auto.commit", "false");
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> tps = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic)) tps.add(new TopicPartition(topic, info.partition()));
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      long deadline = System.currentTimeMillis() + 30_000;
      while (out.size() < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          List<List<String>> h = new ArrayList<>();
          for (Header header : r.headers()) h.add(Arrays.asList(header.key(), b64(header.value())));
          Map<String, Object> record = new LinkedHashMap<>();
          record.put("p", r.partition());
          record.put("o", r.offset());
          record.put("ts", r.timestamp());
          record.put("tt", r.timestampType().name);
          record.put("k", b64(r.key()));
          record.put("v", b64(r.value()));
          record.put("h", h);
          out.add(record);
        }
      }
    }
    return out;
  }

  static List<Map<String, Object>> partition(int count, List<Integer> counts) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int partitions : counts) {
      List<Integer> chosen = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        chosen.add(BuiltInPartitioner.partitionForKey(utf8(i % 10 == 9 ? "ключ-" + i + "-鍵" : "key-" + i), partitions));
      }
      out.add(Map.of("n", partitions, "p", chosen));
    }
    return out;
  }
}
