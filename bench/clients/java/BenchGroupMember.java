// Group member of the bench's group workloads for Kafka's Java consumer (bench/clients/group.ts has the
// protocol): KafkaConsumer with its defaults, byte-array deserializers, no autocommit, reading until the
// parent says `stop` on stdin. CPU is the JVM's from just before subscribing; peak RSS is VmHWM.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
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
  private static double joinedAt = 0;

  private static double now() {
    Instant t = Instant.now();
    return t.getEpochSecond() * 1000.0 + t.getNano() / 1e6;
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
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
    AtomicBoolean stop = new AtomicBoolean(false);
    Thread stdin =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                  if (line.trim().equals("stop")) break;
                }
              } catch (Exception e) {
                // stdin closed: stop too
              }
              stop.set(true);
              consumer.wakeup();
            });
    stdin.setDaemon(true);
    stdin.start();
    long cpu0 = os.getProcessCpuTime();
    consumer.subscribe(
        List.of(args[1]),
        new ConsumerRebalanceListener() {
          @Override
          public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

          @Override
          public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (joinedAt == 0) {
              joinedAt = now();
              System.out.println("{\"joinedAt\":" + joinedAt + "}");
              System.out.flush();
            }
          }
        });
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
          if (r.key() != null) bytes += r.key().length;
          if (r.value() != null) bytes += r.value().length;
        }
        if (!batch.isEmpty()) lastAt = now();
        if (records != reported && System.nanoTime() - lastPrint > 50_000_000L) {
          reported = records;
          lastPrint = System.nanoTime();
          System.out.println("{\"records\":" + records + ",\"lastAt\":" + lastAt + "}");
          System.out.flush();
        }
      }
    } catch (WakeupException e) {
      // the parent said stop
    }
    double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
    System.out.println(
        "{\"final\":true,\"records\":" + records + ",\"bytes\":" + bytes + ",\"joinedAt\":" + joinedAt
            + ",\"lastAt\":" + lastAt + ",\"cpuSeconds\":" + cpuSeconds + ",\"peakRssBytes\":"
            + peakRssBytes() + ",\"runtime\":\"java " + System.getProperty("java.version") + "\"}");
    System.out.flush();
    consumer.close(Duration.ofSeconds(5));
    System.exit(0);
  }
}
