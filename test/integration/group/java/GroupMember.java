package dev.tidemark.group;

import dev.tidemark.harness.JsonLines;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One member of a consumer group, as Kafka's own KafkaConsumer plays it, for tidemark's mixed-group tests. It
 * subscribes, polls until stdin says "close" (or ends), and prints one JSON line per rebalance callback
 * ("@@ " first, so stray log output cannot be mistaken for one):
 *   {"event":"assigned"|"revoked"|"lost","partitions":[0,1],"generation":3,"memberId":"..."}
 * Arguments: bootstrap group topic protocol(classic|consumer) assignor(range|roundrobin|sticky|cooperative-sticky
 * for classic; range|uniform for consumer) sessionTimeoutMs heartbeatIntervalMs.
 */
public final class GroupMember {
  public static void main(String[] args) throws Exception {
    JsonLines.claimStdout();
    String bootstrap = args[0], group = args[1], topic = args[2], protocol = args[3], assignor = args[4];
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "java-group-member");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
    p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "60000");
    if (protocol.equals("consumer")) {
      p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor);
    } else {
      p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, args[5]);
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, args[6]);
      p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignorClass(assignor));
    }
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
    Thread stdin = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("close")) {}
      } catch (Exception ignored) {
      }
      consumer.wakeup();
    });
    stdin.setDaemon(true);
    stdin.start();
    consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) { print("assigned", partitions, consumer); }
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) { print("revoked", partitions, consumer); }
      public void onPartitionsLost(Collection<TopicPartition> partitions) { print("lost", partitions, consumer); }
    });
    print("started", List.of(), null);
    try {
      while (true) consumer.poll(Duration.ofMillis(100));
    } catch (WakeupException e) {
      // stdin said close.
    }
    consumer.close();
    print("closed", List.of(), null);
    System.exit(0);
  }

  private static String assignorClass(String name) {
    switch (name) {
      case "range": return RangeAssignor.class.getName();
      case "roundrobin": return RoundRobinAssignor.class.getName();
      case "sticky": return StickyAssignor.class.getName();
      case "cooperative-sticky": return CooperativeStickyAssignor.class.getName();
      default: throw new IllegalArgumentException("unknown assignor " + name);
    }
  }

  private static void print(String event, Collection<TopicPartition> partitions, KafkaConsumer<?, ?> consumer) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("event", event);
    List<Integer> list = new ArrayList<>();
    for (TopicPartition tp : partitions) list.add(tp.partition());
    Collections.sort(list);
    line.put("partitions", list);
    if (consumer != null) {
      ConsumerGroupMetadata md = consumer.groupMetadata();
      line.put("generation", md.generationId());
      line.put("memberId", md.memberId());
    }
    JsonLines.emit(line);
  }
}
