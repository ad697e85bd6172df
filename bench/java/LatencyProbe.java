/*
 * The latency benchmark's Java client (bench/latency.ts, bench/clients/java-latency.ts): Kafka's own
 * producer and consumer in one JVM. The producer sends `rate` records per second for `seconds` (every
 * millisecond the records due by then), each value stamped with its send time in epoch microseconds
 * (Instant.now(): System.nanoTime cannot be read by another process) and a sequence number, in the layout of
 * bench/latency-stats.ts. The consumer, on its own thread, has every partition assigned from the beginning
 * (no group, like tidemark's child) and records, per sequence number, the time from send to poll() handing
 * the record over. Both run with their defaults apart from acks=all and idempotence (the defaults since
 * Kafka 3.0 anyway).
 *
 * Writes the latencies (ms, little-endian doubles) of the records sent after the warm-up to the samples
 * file and prints one JSON line with the counts: sent, received, duplicates, strangers, missing, sampled,
 * achievedRate.
 *
 *   java LatencyProbe <bootstrap> <topic> <rate> <seconds> <warmupSeconds> <valueBytes> <samplesFile>
 */
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class LatencyProbe {
  private static long epochMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    double rate = Double.parseDouble(args[2]);
    double seconds = Double.parseDouble(args[3]);
    double warmupSeconds = Double.parseDouble(args[4]);
    int valueBytes = Math.max(12, Integer.parseInt(args[5]));
    String samplesFile = args[6];
    int total = (int) Math.round(rate * seconds);

    byte[] seen = new byte[total];
    byte[] sampled = new byte[total];
    double[] latencyMs = new double[total];
    AtomicInteger received = new AtomicInteger();
    AtomicInteger duplicates = new AtomicInteger();
    AtomicInteger strangers = new AtomicInteger();
    // Set by main before the first send; read by the consumer thread.
    long[] warmupEnd = {Long.MAX_VALUE};
    CountDownLatch ready = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();

    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-java-latency");
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    Thread consuming = new Thread(() -> {
      try {
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo p : consumer.partitionsFor(topic)) partitions.add(new TopicPartition(topic, p.partition()));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        for (TopicPartition tp : partitions) consumer.position(tp);
        ready.countDown();
        while (received.get() < total) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            long now = epochMicros();
            ByteBuffer v = ByteBuffer.wrap(r.value());
            long sentMicros = v.getLong(0);
            int seq = v.getInt(8);
            if (seq < 0 || seq >= total) {
              strangers.incrementAndGet();
            } else if (seen[seq] == 1) {
              duplicates.incrementAndGet();
            } else {
              seen[seq] = 1;
              latencyMs[seq] = (now - sentMicros) / 1000.0;
              synchronized (warmupEnd) {
                if (sentMicros >= warmupEnd[0]) sampled[seq] = 1;
              }
              received.incrementAndGet();
            }
          }
        }
      } catch (WakeupException e) {
        // stopped by main after its deadline
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
        ready.countDown();
      } finally {
        consumer.close();
      }
    });
    consuming.start();
    ready.await();

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    pp.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-java-latency");
    KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer());
    long startMicros = epochMicros();
    synchronized (warmupEnd) {
      warmupEnd[0] = startMicros + (long) (warmupSeconds * 1e6);
    }
    byte[] filler = new byte[valueBytes];
    Arrays.fill(filler, (byte) 'x');
    long t0 = System.nanoTime();
    int sent = 0;
    while (sent < total && failure.get() == null) {
      long due = Math.min(total, (long) Math.floor(rate * (System.nanoTime() - t0) / 1e9)) - sent;
      for (long i = 0; i < due; i++) {
        byte[] value = filler.clone();
        ByteBuffer.wrap(value).putLong(0, epochMicros()).putInt(8, sent);
        producer.send(new ProducerRecord<>(topic, value), (md, e) -> {
          if (e != null) failure.compareAndSet(null, e);
        });
        sent++;
      }
      LockSupport.parkNanos(1_000_000L);
    }
    double paceSeconds = (System.nanoTime() - t0) / 1e9;
    producer.flush();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (received.get() < sent && System.nanoTime() < deadline && consuming.isAlive()) Thread.sleep(10);
    consumer.wakeup();
    consuming.join();
    producer.close();
    if (failure.get() != null) throw new RuntimeException(failure.get());

    int missing = 0;
    int nSampled = 0;
    for (int i = 0; i < sent; i++) if (seen[i] == 0) missing++;
    for (int i = 0; i < total; i++) nSampled += sampled[i];
    ByteBuffer out = ByteBuffer.allocate(nSampled * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < total; i++) if (sampled[i] == 1) out.putDouble(latencyMs[i]);
    Files.write(Paths.get(samplesFile), out.array());
    System.out.printf(
        "{\"sent\":%d,\"received\":%d,\"duplicates\":%d,\"strangers\":%d,\"missing\":%d,\"sampled\":%d,\"achievedRate\":%.1f,\"java\":\"%s\"}%n",
        sent, received.get(), duplicates.get(), strangers.get(), missing, nSampled, sent / paceSeconds,
        System.getProperty("java.version"));
  }
}
