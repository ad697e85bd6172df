// Group member of the bench's group workloads for Kafka's Java consumer (bench/clients/group.ts has the
// protocol): KafkaConsumer with its defaults (classic protocol; assignors range, then cooperative-sticky) but
// the bench's heartbeat interval, byte-array deserializers, autocommit off and a ConsumerRebalanceListener that commits synchronously in
// onPartitionsRevoked (what the consumer has returned by then is processed: this loop handles each poll before
// the next), so a rebalance does not hand a partition over uncommitted. Connects (partitionsFor), says ready,
// waits for the parent's `go`, subscribes, and reads until the parent says `stop`. It keeps the record
// numbers it read (the first four bytes of each value) as runs, for the parent's count of re-reads and gaps.
// CPU is the JVM's from the release; peak RSS is VmHWM.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class BenchGroupMember {
  private static final boolean TIMELINE = "1".equals(System.getenv("BENCH_GROUP_TIMELINE"));
  private static double joinedAt = 0;

  /** The record numbers read, as runs [from, to); touching runs are joined, overlapping ones kept (copies). */
  private static final class Runs {
    private List<long[]> runs = new ArrayList<>();
    private long from = -1;
    private long to = -1;

    void add(long n) {
      if (n == to) {
        to++;
        return;
      }
      if (to != -1) runs.add(new long[] {from, to});
      from = n;
      to = n + 1;
    }

    String json() {
      runs = compact(runs);
      List<long[]> all = new ArrayList<>(runs);
      if (to != -1) all.add(new long[] {from, to});
      StringBuilder b = new StringBuilder("[");
      for (long[] r : compact(all)) {
        if (b.length() > 1) b.append(',');
        b.append('[').append(r[0]).append(',').append(r[1]).append(']');
      }
      return b.append(']').toString();
    }

    private static List<long[]> compact(List<long[]> in) {
      List<long[]> sorted = new ArrayList<>(in);
      sorted.sort(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
      List<long[]> out = new ArrayList<>();
      for (long[] r : sorted) {
        long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && last[1] == r[0]) last[1] = r[1];
        else out.add(new long[] {r[0], r[1]});
      }
      return out;
    }
  }

  private static double now() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1000.0 + t.getNano() / 1e6;
  }

  private static synchronized void say(String json) {
    System.out.println(json);
    System.out.flush();
  }

  private static void mark(String event, String detail) {
    if (TIMELINE) say("{\"event\":\"" + event + "\",\"at\":" + now() + detail + "}");
  }

  private static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    } catch (Exception e) {
      // not Linux: reported as 0
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, args[2]);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // The parent's heartbeat interval for every member (GROUP_HEARTBEAT_MS in bench/clients/group.ts).
    String heartbeat = System.getenv("BENCH_GROUP_HEARTBEAT_MS");
    if (heartbeat != null) p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, heartbeat);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
    AtomicBoolean stop = new AtomicBoolean(false);
    CountDownLatch go = new CountDownLatch(1);
    Thread stdin =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                  if (line.trim().equals("go")) go.countDown();
                  if (line.trim().equals("stop")) break;
                }
              } catch (Exception e) {
                // stdin closed: stop too
              }
              stop.set(true);
              go.countDown();
              consumer.wakeup();
            });
    stdin.setDaemon(true);
    stdin.start();
    consumer.partitionsFor(args[1]);
    say("{\"ready\":" + now() + "}");
    go.await();
    long cpu0 = os.getProcessCpuTime();
    mark("subscribe", "");
    consumer.subscribe(
        List.of(args[1]),
        new ConsumerRebalanceListener() {
          @Override
          public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) return;
            long t0 = System.nanoTime();
            consumer.commitSync();
            mark("revoked, committed", ",\"partitions\":" + partitions.size() + ",\"ms\":"
                + (System.nanoTime() - t0) / 1_000_000);
          }

          @Override
          public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            mark("assigned", ",\"partitions\":" + partitions.size());
            if (joinedAt == 0) {
              joinedAt = now();
              say("{\"joinedAt\":" + joinedAt + "}");
            }
          }
        });
    Runs runs = new Runs();
    long records = 0;
    long bytes = 0;
    long reported = 0;
    double lastAt = 0;
    long lastPrint = System.nanoTime();
    try {
      while (!stop.get()) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(100));
        for (ConsumerRecord<byte[], byte[]> r : batch) {
          records++;
          byte[] v = r.value();
          if (r.key() != null) bytes += r.key().length;
          if (v != null) {
            bytes += v.length;
            if (v.length >= 4)
              runs.add(((v[0] & 0xffL) << 24) | ((v[1] & 0xffL) << 16) | ((v[2] & 0xffL) << 8) | (v[3] & 0xffL));
          }
        }
        if (!batch.isEmpty()) {
          if (lastAt == 0) mark("first record", "");
          lastAt = now();
        }
        if (records != reported && System.nanoTime() - lastPrint > 50_000_000L) {
          reported = records;
          lastPrint = System.nanoTime();
          say("{\"records\":" + records + ",\"lastAt\":" + lastAt + ",\"read\":" + runs.json() + "}");
        }
      }
    } catch (WakeupException e) {
      // the parent said stop
    }
    double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
    say("{\"final\":true,\"records\":" + records + ",\"bytes\":" + bytes + ",\"joinedAt\":" + joinedAt
        + ",\"lastAt\":" + lastAt + ",\"cpuSeconds\":" + cpuSeconds + ",\"peakRssBytes\":" + peakRssBytes()
        + ",\"runtime\":\"java " + System.getProperty("java.version") + "\",\"read\":" + runs.json() + "}");
    consumer.close(Duration.ofSeconds(5));
    System.exit(0);
  }
}
