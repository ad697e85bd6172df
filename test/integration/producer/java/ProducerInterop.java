import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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
 * Kafka's Java clients as the oracle for tidemark's producer tests. Modes:
 *   produce BOOTSTRAP TOPIC COMPRESSION COUNT   writes the shared test records (see record-spec.ts), prints
 *                                               one JSON line per record: index, partition, offset, timestamp
 *   keyed BOOTSTRAP TOPIC COUNT                 writes records keyed "key-<i>", printing where each landed
 *   consume BOOTSTRAP TOPIC COUNT               reads COUNT records from the start of every partition and
 *                                               prints each as JSON (bytes in base64)
 *   partition COUNT PARTITIONS...               prints BuiltInPartitioner.partitionForKey for keys "key-<i>"
 *                                               and the multilingual keys, one JSON line per key
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
    return b == null ? "null" : "\"" + Base64.getEncoder().encodeToString(b) + "\"";
  }

  static KafkaProducer<byte[], byte[]> producer(String bootstrap, String compression) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("compression.type", compression);
    p.put("linger.ms", "20");
    p.put("acks", "all");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "produce": {
        int count = Integer.parseInt(args[4]);
        try (KafkaProducer<byte[], byte[]> producer = producer(args[1], args[3])) {
          List<Future<RecordMetadata>> sent = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            sent.add(producer.send(new ProducerRecord<>(args[2], null, timestamp(i), utf8(key(i)), utf8(value(i)), headers(i))));
          }
          producer.flush();
          for (int i = 0; i < count; i++) {
            RecordMetadata m = sent.get(i).get();
            System.out.printf("{\"i\":%d,\"p\":%d,\"o\":%d,\"ts\":%d}%n", i, m.partition(), m.offset(), m.timestamp());
          }
        }
        break;
      }
      case "keyed": {
        int count = Integer.parseInt(args[3]);
        try (KafkaProducer<byte[], byte[]> producer = producer(args[1], "none")) {
          List<Future<RecordMetadata>> sent = new ArrayList<>();
          for (int i = 0; i < count; i++) sent.add(producer.send(new ProducerRecord<>(args[2], utf8("key-" + i), utf8("v"))));
          producer.flush();
          for (int i = 0; i < count; i++) System.out.printf("{\"i\":%d,\"p\":%d}%n", i, sent.get(i).get().partition());
        }
        break;
      }
      case "consume": {
        int count = Integer.parseInt(args[3]);
        Properties p = new Properties();
        p.put("bootstrap.servers", args[1]);
        p.put("enable.auto.commit", "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
          List<TopicPartition> tps = new ArrayList<>();
          for (PartitionInfo info : consumer.partitionsFor(args[2])) tps.add(new TopicPartition(args[2], info.partition()));
          consumer.assign(tps);
          consumer.seekToBeginning(tps);
          int seen = 0;
          long deadline = System.currentTimeMillis() + 30_000;
          while (seen < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
              StringBuilder h = new StringBuilder();
              for (Header header : r.headers()) {
                if (h.length() > 0) h.append(',');
                h.append("[\"").append(header.key()).append("\",").append(b64(header.value())).append(']');
              }
              System.out.printf("{\"p\":%d,\"o\":%d,\"ts\":%d,\"tt\":\"%s\",\"k\":%s,\"v\":%s,\"h\":[%s]}%n",
                  r.partition(), r.offset(), r.timestamp(), r.timestampType().name, b64(r.key()), b64(r.value()), h);
              seen++;
            }
          }
        }
        break;
      }
      case "partition": {
        int count = Integer.parseInt(args[1]);
        for (int a = 2; a < args.length; a++) {
          int partitions = Integer.parseInt(args[a]);
          StringBuilder line = new StringBuilder("{\"n\":" + partitions + ",\"p\":[");
          for (int i = 0; i < count; i++) {
            if (i > 0) line.append(',');
            line.append(BuiltInPartitioner.partitionForKey(utf8(i % 10 == 9 ? "ключ-" + i + "-鍵" : "key-" + i), partitions));
          }
          System.out.println(line.append("]}"));
        }
        break;
      }
      default:
        throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }
}
